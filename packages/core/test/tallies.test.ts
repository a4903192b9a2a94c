/** The hot paths' counters are kept by slot (kernel/tallies.ts) and reported under their names, as if counted by name. */
import { ContainerModule } from "inversify";
import { describe, expect, it } from "vitest";
import { TOKENS, type Kernel, type LoadedPlugin } from "../src/index.js";
import { runSource } from "./harness.js";

const W = `import { workload, SIGUSR1 } from "siglab";
export default workload({ name: "t", params: {}, *main(t) {
  yield* t.sigaction(SIGUSR1, function* () {}, { flags: 0, mask: [] });
  const me = yield* t.getpid();
  for (let i = 0; i < 3; i++) yield* t.kill(me, SIGUSR1);
} });`;

/** a plugin that counts under a name the core tallies, at set-up */
function countsAtSetup(name: string, n: number): LoadedPlugin {
  return {
    manifest: { id: "counts", version: "1.0.0", apiVersion: "2.0", displayName: "t", description: "t", options: {}, contributes: ["KernelSetupContribution"] },
    builtin: false,
    origin: "plugins/counts",
    module: () =>
      new ContainerModule(({ bind }) => {
        bind(TOKENS.KernelSetupContribution).toConstantValue({ setup: (k: Kernel) => k.count(name, n) });
      }),
  };
}

describe("tallied counters", () => {
  it("report what was counted under the counter's name; a plugin's count of that name adds to it", () => {
    const alone = runSource(W);
    expect(alone.error).toBeUndefined();
    expect(alone.counters["signals.sent"]).toBe(3);
    expect(alone.counters["signals.delivered"]).toBe(3);
    expect(alone.counters["fpu.frame_restores"]).toBeUndefined(); // never counted: absent, not 0
    expect(Object.keys(alone.counters)).not.toContain("signals.queued_now");
    const withPlugin = runSource(W, { plugins: [countsAtSetup("signals.delivered", 5)], variants: [{ id: "counts" }] });
    expect(withPlugin.counters["signals.delivered"]).toBe(8);
    expect(withPlugin.counters["signals.sent"]).toBe(3);
  });
});
