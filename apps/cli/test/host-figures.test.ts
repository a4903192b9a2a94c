/**
 * core's common/host-figures.ts: how each `siglab probe` figure is simulated (the one table `suite
 * host`, `calibrate --from-probe` and the app's "your machine" panel use) and the signed error.
 */
import { describe, expect, it } from "vitest";
import { EXAMPLES } from "@siglab/core";
import { HOST_FIGURES, hostFigure, NOT_SIMULATED, signedErrorPercent } from "@siglab/core/common";
import linux6 from "../../../packages/plugins/linux6/src/index.js";
import { runExample } from "../../../packages/core/test/harness.js";
import { FIGURES } from "../src/probe/figures.js";

describe("HOST_FIGURES: the simulation of each probe figure", () => {
  it("says of every figure the probe measures that it is simulated, or why not (never both)", () => {
    for (const f of FIGURES) expect({ simulated: hostFigure(f.id) !== undefined, notSimulated: f.id in NOT_SIMULATED }, f.id).toSatisfy((x: { simulated: boolean; notSimulated: boolean }) => x.simulated !== x.notSimulated);
    // and names no figure the probe does not measure
    for (const f of HOST_FIGURES) expect(FIGURES.map((x) => x.id), f.id).toContain(f.id);
    expect(new Set(HOST_FIGURES.map((f) => f.id)).size).toBe(HOST_FIGURES.length);
  });

  it.each(HOST_FIGURES.map((f) => [f.id, f] as const))("%s: a shipped example that takes its params, on its CPUs, under linux6, and reports its metric", (_id, f) => {
    expect(EXAMPLES.map((e) => e.id)).toContain(f.example);
    // the runner refuses a parameter the example does not declare, and converts one of another type
    const r = runExample(f.example, { cpu: "skylake", mhz: 3600, plugins: [linux6], variants: [{ id: "linux6" }], params: { ...(f.params ?? {}), iterations: 40 }, ...(f.smp ? { smp: f.smp } : {}) });
    expect(r.error, JSON.stringify(r.error)).toBeUndefined();
    for (const [k, v] of Object.entries(f.params ?? {})) expect(r.params[k], k).toBe(v);
    expect(r.cpu.smp ?? 1).toBe(f.smp ?? 1);
    const m = r.metrics.find((x) => x.name === f.metric);
    expect(m, `${f.metric} among ${r.metrics.map((x) => x.name).join(", ")}`).toBeDefined();
    expect(m!.unit).toMatch(/^(us|µs)$/);
    expect(m!.value).toBeGreaterThan(0);
  });
});

describe("signedErrorPercent", () => {
  it("is (simulated − measured) / measured in percent, unrounded, positive when the simulation is slower", () => {
    expect(signedErrorPercent(12, 10)).toBeCloseTo(20, 12);
    expect(signedErrorPercent(7.5, 10)).toBe(-25);
    expect(signedErrorPercent(1 / 3, 1)).toBeCloseTo(-66.66666666666667, 12);
    expect(signedErrorPercent(0, 2)).toBe(-100);
  });

  it("is null without a simulated figure, without a measured one, or against a measured figure that is not positive", () => {
    expect(signedErrorPercent(null, 1)).toBeNull();
    expect(signedErrorPercent(undefined, 1)).toBeNull();
    expect(signedErrorPercent(1, null)).toBeNull();
    expect(signedErrorPercent(1, undefined)).toBeNull();
    expect(signedErrorPercent(1, 0)).toBeNull();
    expect(signedErrorPercent(1, -2)).toBeNull();
    expect(signedErrorPercent(1, Number.NaN)).toBeNull();
  });
});
