/**
 * Ranked lexical search over the catalog for `(apropos "q")`: per query token the best of exact 10 / prefix 5 /
 * substring 2 over the name tokens (server + tool, +2 when matched) plus the same over the description tokens;
 * results sorted by score, then server, then tool, capped.
 * @module
 */
import type { UpstreamSnapshot } from "./runtime.ts";

/** Split text into lowercase tokens: camelCase boundaries, `_ - . / ( ) , :` and whitespace separate tokens. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_\-./(),:\s]+/g, " ")
    .toLowerCase()
    .split(" ")
    .filter((t) => t !== "");
}

function tokenScore(q: string, targets: string[]): number {
  let best = 0;
  for (const t of targets) {
    const s = t === q ? 10 : t.startsWith(q) ? 5 : t.includes(q) ? 2 : 0;
    if (s > best) best = s;
  }
  return best;
}

/** One apropos hit. */
export interface AproposHit {
  server: string;
  tool: string;
  description: string;
  score: number;
}

/** Score every tool against the query; returns hits with score > 0, best first, at most `limit`. */
export function apropos(catalog: UpstreamSnapshot[], query: string, limit: number): AproposHit[] {
  const qTokens = tokenize(query);
  if (qTokens.length === 0) return [];
  const hits: AproposHit[] = [];
  for (const server of catalog) {
    const serverTokens = tokenize(server.name);
    for (const tool of server.tools) {
      const nameTokens = [...serverTokens, ...tokenize(tool.name)];
      const descTokens = tokenize(tool.description ?? "");
      let score = 0;
      for (const q of qTokens) {
        const n = tokenScore(q, nameTokens);
        const d = tokenScore(q, descTokens);
        score += (n > 0 ? n + 2 : 0) + d;
      }
      if (score > 0) hits.push({ server: server.name, tool: tool.name, description: tool.description ?? "", score });
    }
  }
  hits.sort((a, b) =>
    b.score - a.score || (a.server < b.server ? -1 : a.server > b.server ? 1 : a.tool < b.tool ? -1 : 1)
  );
  return hits.slice(0, limit);
}
