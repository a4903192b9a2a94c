/**
 * The switch-transparency checker: every task finds its FPU registers as it left them when it is
 * switched back in. A switch policy that forgets fxsave on switch-out must be caught (and the
 * baseline's lazy switching must not be), with the checker's pooled snapshots reused across
 * many switches.
 */
import { ContainerModule } from "inversify";
import { describe, expect, it } from "vitest";
import { TOKENS, type Kernel, type LoadedPlugin, type Task } from "../src/index.js";
import { runSource } from "./harness.js";

/** switch_to without unlazy_fpu: TS is set, but the live registers are never saved into the task */
const forgetfulSwitch: LoadedPlugin = {
  manifest: { id: "forgetful-switch", version: "1.0.0", apiVersion: "2.0", displayName: "t", description: "t", options: {}, contributes: ["SwitchFpuPolicy"], replaces: ["SwitchFpuPolicy"] },
  builtin: false,
  origin: "plugins/forgetful-switch",
  module: () =>
    new ContainerModule(({ rebind }) => {
      rebind(TOKENS.SwitchFpuPolicy).toConstantValue({
        id: "forgetful",
        switchOut(k: Kernel, prev: Task) {
          if (k.cpu.fpuOwner !== prev) return;
          k.cpu.TS = true;
          k.cpu.fpuOwner = null;
          prev.usedFpu = false;
        },
        switchIn() {},
        deviceNotAvailable(k: Kernel, t: Task) {
          k.cpu.TS = false;
          if (t.usedMath) k.cpu.fpu.copyFrom(t.fpu);
          else k.cpu.fpu.init();
          t.usedMath = true;
          t.usedFpu = true;
          k.cpu.fpuOwner = t;
        },
      });
    }),
};

const TWO_FPU_THREADS = `
import { workload } from "siglab";
export default workload({ name: "t", params: { rounds: 50 }, *main(t, { rounds }) {
  const body = (v) => function* (th) {
    let kept = 0;
    for (let i = 0; i < rounds; i++) {
      yield* th.fpu.set("st0", v + i);
      yield* th.sched_yield();
      const [st0] = yield* th.fpu.get("st0");
      if (st0 === v + i) kept++;
    }
    th.report("kept " + v, kept, "count");
  };
  const a = yield* t.pthread.create(body(1000));
  const b = yield* t.pthread.create(body(2000));
  yield* t.pthread.join(a);
  yield* t.pthread.join(b);
} });`;

describe("switch-transparency checker", () => {
  it("finds nothing under 2.4's lazy FPU switching, over many switches", () => {
    const r = runSource(TWO_FPU_THREADS);
    expect(r.error).toBeUndefined();
    expect(r.findings).toEqual([]);
    expect(r.metrics.find((m) => m.name === "kept 1000")?.value).toBe(50);
    expect(r.counters["syscalls.sched_yield"]).toBeGreaterThanOrEqual(100);
  });

  it("reports the registers a switch policy that never saves lost, for every switch", () => {
    const r = runSource(TWO_FPU_THREADS, { plugins: [forgetfulSwitch], variants: [{ id: "forgetful-switch" }] });
    expect(r.error).toBeUndefined();
    const f = r.findings.filter((x) => x.kind === "switch-fpu-corruption");
    expect(f.length).toBeGreaterThan(0);
    expect(f[0]!.evidence["register"]).toBe("st0");
    expect(f[0]!.evidence["fpuPolicy"]).toBe("forgetful");
    // the workload saw it too: its st0 did not survive the yield
    expect(r.metrics.find((m) => m.name === "kept 1000")!.value).toBeLessThan(50);
  });
});
