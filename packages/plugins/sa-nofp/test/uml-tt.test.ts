import { describe, expect, it } from "vitest";
import { metric, runExample } from "../../../core/test/harness.js";
import saNofp from "../src/index.js";

const nofp = { plugins: [saNofp], variants: [{ id: "sa-nofp" }] };

describe("sa-nofp for UML's tt mode (\"for special things like UML\")", () => {
  it("drops the FP save and restore from every guest syscall, and saves a little of its cost", () => {
    const params = { syscalls: 60 };
    const base = runExample("uml_tt", { cpu: "p4-northwood", mhz: 2200, params });
    const fast = runExample("uml_tt", { cpu: "p4-northwood", mhz: 2200, params, ...nofp });
    expect(fast.error).toBeUndefined();
    expect(fast.findings).toEqual([]);
    expect(base.phases["signal.fpu_save"]! / 60).toBeGreaterThan(500);
    expect((fast.phases["signal.fpu_save"] ?? 0) / 60).toBeLessThan(50);
    const saved = metric(base, "per guest syscall") - metric(fast, "per guest syscall");
    expect(saved).toBeGreaterThan(0);
    // the tracer's stops dominate: SA_NOFP cannot make tt mode cheap
    expect(saved / metric(base, "per guest syscall")).toBeLessThan(0.2);
  });

  it("Jeff Dike's worry: an SSE memcpy in the UML kernel's SA_NOFP handler corrupts the guest's XMM registers", () => {
    const r = runExample("uml_tt", { cpu: "p6-coppermine", mhz: 1000, params: { syscalls: 40, handlerCopy: 4096 }, ...nofp });
    expect(r.error).toBeUndefined();
    const corrupt = r.findings.filter((f) => f.kind === "fpu-corruption");
    expect(corrupt.map((f) => f.evidence["register"]).sort()).toEqual(["xmm0", "xmm1", "xmm2", "xmm3"]);
    expect(corrupt[0]!.evidence["occurrences"]).toBe(40);
    // without the copy the same stack is clean
    const clean = runExample("uml_tt", { cpu: "p6-coppermine", mhz: 1000, params: { syscalls: 40 }, ...nofp });
    expect(clean.findings).toEqual([]);
  });
});
