// The physical constraints the profiles were authored against (design brief, x86-costs.md,
// calibration figures). They guard the data against edits that drift out of the known ranges.
import { describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_FILES, ProfileCatalog } from "../src/index.js";

const cat = new ProfileCatalog(BUILTIN_PROFILE_FILES);
const c = (id: string) => cat.resolve(id).costs;

describe("plausibility of the shipped costs", () => {
  it("P4: int $0x80 + iret is the bulk of the 1568-cycle null syscall; sysenter+sysexit fits in 428", () => {
    const p4 = c("p4-northwood");
    const gate = p4.int_gate + p4.iret_user;
    expect(gate).toBeGreaterThan(0.6 * 1568);
    expect(gate).toBeLessThan(1568);
    expect(p4.sysenter + p4.sysexit).toBeLessThan(428);
    // LT03/LT02d: the switch saves ~1140 cycles
    expect(gate - (p4.sysenter + p4.sysexit)).toBeGreaterThan(1000);
  });

  it("P3: the cli's whole effect (the cli and iret's IF change) is 13-14 cycles and the gate round trip fits in the 306-cycle getpid loop", () => {
    const p3 = c("p6-coppermine");
    // AM02 measured 13 cycles per system call for having the cli, the loops 14: LT02c's hypothesis
    // splits that between the cli and iret's implicit sti, which no figure separates
    expect(p3.cli).toBeGreaterThanOrEqual(4);
    expect(p3.cli).toBeLessThanOrEqual(16);
    expect(p3.cli + p3.iret_if_change).toBeCloseTo(14, 0);
    expect(p3.int_gate + p3.iret_user + p3.cli + p3.iret_if_change).toBeLessThan(306);
  });

  it("Athlon cli is about 4 cycles", () => {
    expect(c("k7-palomino").cli).toBe(4);
  });

  it("modern syscall+sysret is ~70-76 cycles and int+iret ~610 on Skylake", () => {
    for (const id of ["skylake", "skylake-x", "zen4", "zen5"]) {
      const m = c(id);
      expect(m.syscall + m.sysret, id).toBeGreaterThanOrEqual(60);
      expect(m.syscall + m.sysret, id).toBeLessThanOrEqual(90);
    }
    const skl = c("skylake");
    expect(skl.int_gate + skl.iret_user).toBeGreaterThan(550);
    expect(skl.int_gate + skl.iret_user).toBeLessThan(680);
  });

  it("fast entries beat the gate wherever the CPU has them", () => {
    for (const f of BUILTIN_PROFILE_FILES) {
      const r = cat.resolve(f.id);
      const gate = r.costs.int_gate + r.costs.iret_user;
      if (r.features.sep) expect(r.costs.sysenter + r.costs.sysexit, f.id).toBeLessThan(gate);
      if (r.features.syscall) expect(r.costs.syscall + r.costs.sysret, f.id).toBeLessThan(gate);
    }
  });

  it("the P4 is the slow one for serializing and microcoded work", () => {
    const p4 = c("p4-northwood");
    for (const id of ["p6-coppermine", "k7-palomino", "skylake"]) {
      const o = c(id);
      expect(p4.write_cr0, id).toBeGreaterThan(o.write_cr0);
      expect(p4.popf, id).toBeGreaterThan(o.popf);
      expect(p4.locked_op, id).toBeGreaterThan(o.locked_op);
    }
  });
});
