/**
 * Issue 30, findings 4 and 5: memory caps that hold and tell the truth. One allocation past the
 * heap limit (a huge array, typed array or string) is a budget error for that run alone — the
 * execution host lives on and the next run in it is exactly as in a fresh host; `--max-memory`
 * is the limit that applies (no lower process-wide cap), and the message gives the limit and a
 * measured figure, not the limit as if it had been measured.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllHosts, closeHost, differences, freshReference, newHost, REFERENCE_SPEC, run, specOf } from "./harness.js";

const wl = (body: string, top = "") => `// @ts-nocheck\nimport { workload } from "siglab";\n${top}\nexport default workload({ name: "m", params: {}, *main(t) {\n${body}\n} });\n`;

/** A budget error that states the limit and at least one figure that was measured (not the limit). */
function problemsOfBudgetError(r: { error?: { kind: string; message: string } }, limitMb: number): string[] {
  const e = r.error;
  if (!e) return ["the run did not fail"];
  const out: string[] = [];
  if (e.kind !== "budget") out.push(`kind '${e.kind}', expected 'budget': ${e.message}`);
  if (!/memory budget exceeded/.test(e.message)) out.push(`not a memory-budget message: ${e.message}`);
  if (!new RegExp(`limit of ${limitMb} MiB`).test(e.message)) out.push(`the message does not state the limit (${limitMb} MiB): ${e.message}`);
  const measured = /(?:V8 measured|resident memory (?:reached|was|had reached at least)|peak resident memory was) (\d+) MiB|(\d+) MiB in use/.exec(e.message);
  if (!measured) out.push(`the message gives no measured figure: ${e.message}`);
  return out;
}

let reference: string;
beforeAll(async () => {
  reference = await freshReference();
});
afterAll(() => closeAllHosts());

describe.sequential("finding 4: one huge allocation ends that run only, with a memory-budget error", () => {
  const cases: [string, string][] = [
    ["new Array(2**26).fill(0)", wl(`    yield* t.getpid();\n    const a = new Array(2 ** 26).fill(0);\n    t.report("length", a.length, "");`)],
    ["a 1 GiB typed array, filled", wl(`    yield* t.getpid();\n    const a = new Uint8Array(2 ** 30);\n    a.fill(1);\n    t.report("length", a.length, "");`)],
    ["a 512 Mi-character string at a module's top level", wl(`    yield* t.getpid();`, `const s = "xy".repeat(2 ** 28 - 16).toUpperCase();`)],
  ];
  // the smallest limit: V8's collections near the limit (which precede its abort) are quick
  it.each(cases)("%s (--max-memory 64)", async (_name, source) => {
    const h = newHost({ moduleMs: 20_000, runMs: 60_000, memoryMb: 64 });
    try {
      const { r } = await run(h, specOf("huge", source));
      const next = await run(h, REFERENCE_SPEC);
      expect([...problemsOfBudgetError(r, 64), ...differences(next.json, reference, "the next run in the same host")]).toEqual([]);
    } finally {
      closeHost(h);
    }
  }, 120_000);
});

describe.sequential("finding 5: --max-memory 2048 is the limit that holds", () => {
  /** `n` flat strings of 256 MiB on the heap (large objects: V8 neither scans nor moves them), a step after each */
  const holding = (n: number) => wl(`    const keep: string[] = [];\n    for (let i = 0; i < ${n}; i++) { keep.push(("ab".repeat(2 ** 27 - 16) + i).toUpperCase()); yield* t.getpid(); }\n    t.report("held MiB", Math.round(keep.reduce((a, s) => a + s.length, 0) / 2 ** 20), "MiB");`);

  it("a workload holding 1.5 GiB of heap finishes; one reaching for 3 GiB stops with the measured size, and the host goes on", async () => {
    const h = newHost({ moduleMs: 20_000, runMs: 90_000, memoryMb: 2048 });
    try {
      const ok = await run(h, specOf("heap-1.5g", holding(6)));
      expect(ok.r.error?.message).toBeUndefined();
      expect(ok.r.metrics.find((m) => m.name === "held MiB")?.value).toBeGreaterThanOrEqual(1500);
      const over = await run(h, specOf("heap-3g", holding(12)));
      const next = await run(h, REFERENCE_SPEC);
      expect([...problemsOfBudgetError(over.r, 2048), ...differences(next.json, reference, "the next run in the same host")]).toEqual([]);
    } finally {
      closeHost(h);
    }
  }, 180_000);
});
