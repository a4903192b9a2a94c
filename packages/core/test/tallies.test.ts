/** The hot paths' counters are kept by slot (kernel/tallies.ts) and reported under their names, as if counted by name. */
import { describe, expect, it } from "vitest";
import { runSource, setupPlugin } from "./harness.js";

const W = `import { workload, SIGUSR1 } from "siglab";
export default workload({ name: "t", params: {}, *main(t) {
  yield* t.sigaction(SIGUSR1, function* () {}, { flags: 0, mask: [] });
  const me = yield* t.getpid();
  for (let i = 0; i < 3; i++) yield* t.kill(me, SIGUSR1);
} });`;

/** a plugin that counts under a name the core tallies, at set-up */
const countsAtSetup = (name: string, n: number) => setupPlugin("counts", (k) => k.count(name, n));

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
