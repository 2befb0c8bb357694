/**
 * The write section of the demo: what `upstreams.example.jsonc` shows commented out (the Observatory's annotation
 * operations with their declared effects), applied to a copy of the config for the one demo question that writes.
 * The demo enables writes explicitly and only there: this copy sets `allow_writes` (the config's half of the gate)
 * and its engine is created with the process switch (what `--allow-writes` sets); every other question runs on the
 * read-only config.
 * @module
 */
import { applyEdits, modify, parse as parseJsonc } from "jsonc-parser";

/**
 * The operations the write section adds to the `observatory` upstream's `include_operations` (the example already
 * includes `query-traces`, the POST that only reads, declared `effect: "read"`).
 */
export const WRITE_OPERATIONS = [
  "list-trace-annotations",
  "create-trace-annotation",
  "delete-trace-annotation",
] as const;

/**
 * Their declared effects (`operation_overrides.<id>.effect`): a POST or DELETE is included only when the operator
 * says what it does. `list-trace-annotations` is a GET (a read without a declaration).
 */
export const WRITE_OVERRIDES: Record<string, { effect: "read" | "write" }> = {
  "create-trace-annotation": { effect: "write" },
  "delete-trace-annotation": { effect: "write" },
};

/**
 * Apply the write section to a config text: `read_only: false`, `allow_writes: true` on the `observatory` upstream,
 * the write operations included (those already there are kept once) and their effects declared. Comments and layout
 * elsewhere are kept. Throws when the text has no `observatory` OpenAPI upstream.
 */
export function withObservatoryWrites(text: string): string {
  const doc = parseJsonc(text, [], { allowTrailingComma: true }) as {
    upstreams?: Record<string, { include_operations?: unknown; operation_overrides?: unknown }>;
  } | null;
  const upstream = doc?.upstreams?.observatory;
  if (!upstream) throw new Error("the config has no 'observatory' upstream to enable writes on");
  const included = Array.isArray(upstream.include_operations) ? upstream.include_operations as string[] : [];
  let out = text;
  const edit = (path: (string | number)[], value: unknown) => (out = applyEdits(out, modify(out, path, value, {})));
  edit(["read_only"], false);
  edit(["upstreams", "observatory", "allow_writes"], true);
  edit(["upstreams", "observatory", "include_operations"], [
    ...included,
    ...WRITE_OPERATIONS.filter((op) => !included.includes(op)),
  ]);
  for (const [id, override] of Object.entries(WRITE_OVERRIDES)) {
    const existing = (upstream.operation_overrides as Record<string, object> | undefined)?.[id] ?? {};
    edit(["upstreams", "observatory", "operation_overrides", id], { ...existing, ...override });
  }
  return out;
}
