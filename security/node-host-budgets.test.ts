/**
 * Runaways and memory bombs of the attack corpus against the real Node execution host: each must
 * end with a clean one-line budget error, and the next run in the SAME host must work exactly as
 * in a fresh host (a budget kill replaces the sandbox, it does not poison the host).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeExecutionHost } from "../packages/builtin-plugins/src/host/node.js";
import type { HostLimits } from "../packages/core/src/host/index.js";
import { CORPUS } from "./corpus.js";
import { closeAllHosts, closeHost, differences, freshReference, newHost, REFERENCE_SPEC, run, runCase } from "./harness.js";

/** runaways (they kill the sandbox worker; the host replaces it) and other slow cases */
const SLOW = CORPUS.filter((c) => c.slow && !c.crossRun && c.group !== "memory");
const MEMORY = CORPUS.filter((c) => c.group === "memory");

/** a smaller heap, so that memory bombs end in a second or two */
const MEMORY_LIMITS: Partial<HostLimits> = { moduleMs: 5000, runMs: 20000, memoryMb: 256 };

let host: NodeExecutionHost;
let reference: string;

beforeAll(async () => {
  host = newHost();
  reference = await freshReference();
});

afterAll(() => closeAllHosts());

describe.sequential("runaways and slow cases: stopped by a budget, and the host goes on", () => {
  it.each(SLOW.map((c) => [c.id, c] as const))("%s", async (_id, c) => {
    const started = Date.now();
    const problems = await runCase(host, c);
    const elapsed = Date.now() - started;
    const { json } = await run(host, REFERENCE_SPEC);
    expect([...problems, ...differences(json, reference, "the next run (reference)")].join("\n"), `${c.id}: ${c.title}`).toBe("");
    // generous: the budgets are 1.5 s (run) and 2 s (module); anything near the 20 s run limit means a budget did not fire
    if (c.group === "runaway") expect(elapsed).toBeLessThan(15_000);
  }, 120_000);

  it("a top-level runaway in a parameter inspection is stopped by the module budget", async () => {
    const started = Date.now();
    await expect(host.inspect("spin.ts", `import { workload } from "siglab";\nfor (;;) {}\nexport default workload({ name: "x", params: { a: 1 }, *main(t) {} });\n`)).rejects.toThrow(/module evaluation stopped|budget/);
    expect(Date.now() - started).toBeLessThan(15_000);
    const info = await host.inspect("ok.ts", `import { workload } from "siglab";\nexport default workload({ name: "ok", params: { a: 1 }, *main(t) { yield* t.getpid(); } });\n`);
    expect(info).toMatchObject({ name: "ok", params: { a: 1 } });
  });
});

describe.sequential("memory bombs: a clean memory-budget error, and the host goes on", () => {
  it.each(MEMORY.map((c) => [c.id, c] as const))("%s", async (_id, c) => {
    const h = newHost(MEMORY_LIMITS);
    try {
      const problems = await runCase(h, c);
      // the next run in the same host, right away, as in a fresh host
      const { json } = await run(h, REFERENCE_SPEC);
      expect([...problems, ...differences(json, reference, "the next run (reference)")].join("\n"), `${c.id}: ${c.title}`).toBe("");
    } finally {
      closeHost(h);
    }
  }, 120_000);
});
