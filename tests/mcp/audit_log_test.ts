/**
 * The audit log writer on real files: whole lines under concurrent appends, reopening after a move (rotation), a
 * symlink swapped in at the path (refused, never followed) that fails closed and resumes, a path that cannot be
 * reopened, and the bound on droppable lines while the disk is behind.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { AuditLog, AuditLogError } from "../../src/mcp/audit_log.ts";
import type { JsonObject } from "../../src/core/json.ts";

const readLines = async (path: string) => {
  const text = await Deno.readTextFile(path);
  assert.ok(text.endsWith("\n"), "the file ends with a whole line");
  return text.trimEnd().split("\n").map((l) => JSON.parse(l));
};

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "ptc-audit-log-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("concurrent batches reach the file whole and never interleave; the file is created 0600", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "audit.jsonl");
    const log = await AuditLog.open(path, { report: () => {} });
    const batches = Array.from({ length: 60 }, (_, i): JsonObject[] => [
      { kind: "call", batch: i, pad: "x".repeat((i * 97) % 3000) },
      { kind: "eval", batch: i },
    ]);
    const written = await Promise.all(batches.map((b) => log.append(b)));
    await log.close();
    assert.ok(written.every(Boolean));
    const lines = await readLines(path);
    assert.equal(lines[0].event, "opened");
    assert.equal(lines.length, 1 + 120);
    for (let i = 1; i < lines.length; i += 2) {
      assert.equal(lines[i].kind, "call");
      assert.equal(lines[i + 1].kind, "eval");
      assert.equal(lines[i + 1].batch, lines[i].batch, "a batch's lines are adjacent");
    }
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  });
});

Deno.test("reopen after a move: earlier lines stay in the moved file, later ones go to a fresh FILE", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "audit.jsonl");
    const log = await AuditLog.open(path, { report: () => {} });
    await log.append([{ kind: "eval", n: 1 }]);
    await Deno.rename(path, `${path}.1`);
    await log.append([{ kind: "eval", n: 2 }]); // still the open (moved) file
    await log.reopen();
    await log.append([{ kind: "eval", n: 3 }]);
    await log.close();
    assert.deepEqual((await readLines(`${path}.1`)).map((l) => l.n ?? l.event), ["opened", 1, 2]);
    assert.deepEqual((await readLines(path)).map((l) => l.n ?? l.event), ["reopened", 3]);
  });
});

Deno.test("a symlink swapped in at FILE fails closed: lines go to stderr, admit() refuses until FILE is a file", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "audit.jsonl");
    const reports: string[] = [];
    const log = await AuditLog.open(path, { report: (m) => reports.push(m) });
    await Deno.rename(path, `${path}.1`);
    // The rotation's new FILE is a link to a file outside the granted path: it is refused, never followed.
    const outside = join(dir, "elsewhere.txt");
    await Deno.writeTextFile(outside, "");
    await Deno.symlink(outside, path);
    await log.reopen();
    assert.match(log.failure ?? "", /cannot reopen the file \(NotARegularFile: it is a symbolic link/);
    assert.ok(reports.some((r) => /evaluations are refused \(audit_unavailable\)/.test(r)), reports.join("\n"));

    assert.equal(await log.append([{ kind: "eval", n: 1 }]), false);
    assert.ok(reports.some((r) => r.startsWith(`audit (not written to ${path}): {"kind":"eval","n":1}`)));
    assert.equal(await log.admit(), false, "still full: refused");
    const outageReports = reports.filter((r) => /evaluations are refused/.test(r)).length;
    assert.equal(outageReports, 1, "the operator is told once per outage");

    await Deno.remove(path); // the path leads to a writable (new) file again
    assert.equal(await log.admit(), true);
    assert.equal(log.failure, undefined);
    await log.append([{ kind: "eval", n: 2 }]);
    await log.close();
    const lines = await readLines(path);
    assert.equal(lines[0].event, "resumed");
    assert.equal(lines[0].lines_on_stderr, 1, "eval 1 went to stderr");
    assert.equal(lines[1].n, 2);
    assert.ok(reports.some((r) => /writable again/.test(r)));
    assert.equal(await Deno.readTextFile(outside), "", "nothing was written through the link");
  });
});

Deno.test("a FILE that cannot be reopened (its folder moved away) fails closed; open() names the flag", async () => {
  await withDir(async (dir) => {
    const sub = join(dir, "logs");
    await Deno.mkdir(sub);
    const path = join(sub, "audit.jsonl");
    const log = await AuditLog.open(path, { report: () => {} });
    await Deno.rename(sub, join(dir, "gone"));
    await log.reopen();
    assert.match(log.failure ?? "", /cannot reopen the file \(NotFound/);
    assert.equal(await log.admit(), false);
    await Deno.mkdir(sub);
    assert.equal(await log.admit(), true);
    await log.close();

    await assert.rejects(
      () => AuditLog.open(join(dir, "missing", "a.jsonl"), { report: () => {} }),
      (e: Error) =>
        e instanceof AuditLogError && /^--audit-log .*a\.jsonl: cannot open the file for appending/.test(e.message),
    );
    // Anything but a regular file is refused at open, as replay refuses it in a recording.
    await assert.rejects(
      () => AuditLog.open("/dev/full", { report: () => {} }),
      (e: Error) => e instanceof AuditLogError && /not a regular file \(a device\?\)/.test(e.message),
    );
    await assert.rejects(
      () => AuditLog.open(dir, { report: () => {} }),
      (e: Error) => e instanceof AuditLogError && /it is a directory/.test(e.message),
    );
    const target = join(dir, "target.jsonl");
    await Deno.writeTextFile(target, "");
    await Deno.symlink(target, join(dir, "link.jsonl"));
    await assert.rejects(
      () => AuditLog.open(join(dir, "link.jsonl"), { report: () => {} }),
      (e: Error) => e instanceof AuditLogError && /it is a symbolic link: name the file itself/.test(e.message),
    );
    assert.equal(await Deno.readTextFile(target), "");
  });
});

Deno.test("droppable lines are bounded while the disk is behind, and the drop is counted in the file", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "audit.jsonl");
    const log = await AuditLog.open(path, { report: () => {}, maxPendingBytes: 200 });
    const line = { kind: "denied", pad: "y".repeat(60) };
    const results = await Promise.all(Array.from({ length: 50 }, () => log.append([line], { droppable: true })));
    const kept = results.filter(Boolean).length;
    assert.ok(kept >= 1 && kept < 50, `kept ${kept}`);
    await log.append([{ kind: "eval" }]); // never dropped; carries the count first
    await log.close();
    const lines = await readLines(path);
    const dropped = lines.find((l) => l.event === "dropped");
    assert.equal(dropped?.lines, 50 - kept);
    assert.equal(lines.filter((l) => l.kind === "denied").length, kept);
    assert.equal(lines.at(-1).kind, "eval");
  });
});
