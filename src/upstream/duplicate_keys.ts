/**
 * Duplicate keys in a JSONC config. JSON parsers keep the last of two equal keys and drop the first without a word,
 * so a second `"observatory": {…}` under `upstreams` silently replaced the first definition; here every repeated key,
 * at any depth, is an error naming its key path and both lines.
 * @module
 */
import { visit } from "jsonc-parser";
import type { ConfigError } from "./types.ts";
import { joinIndex, joinKey } from "./messages.ts";

/** Most duplicate keys reported (the rest are summarized in the last one). */
const MAX_REPORTED = 20;

/** Every key that occurs twice in one object of `text`, as `path: duplicate key …` errors. */
export function duplicateKeys(text: string): ConfigError[] {
  const open: Map<string, number>[] = [];
  const errors: ConfigError[] = [];
  let extra = 0;
  visit(text, {
    onObjectBegin: () => void open.push(new Map()),
    onObjectEnd: () => void open.pop(),
    onObjectProperty(key, _offset, _length, line, _column, pathSupplier) {
      const seen = open.at(-1);
      if (!seen) return;
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, line + 1);
        return;
      }
      if (errors.length >= MAX_REPORTED) {
        extra++;
        return;
      }
      const parent = pathSupplier().reduce<string>(
        (p, seg) => typeof seg === "number" ? joinIndex(p, seg) : joinKey(p, seg),
        "",
      );
      const where = first === line + 1 ? `twice on line ${first}` : `lines ${first} and ${line + 1}`;
      errors.push({
        path: joinKey(parent, key),
        message: `duplicate key (${where}); JSON keeps only the last one, so remove or rename one`,
      });
    },
  }, { allowTrailingComma: true, disallowComments: false });
  if (extra > 0) errors.push({ path: "", message: `…and ${extra} more duplicate keys` });
  return errors;
}
