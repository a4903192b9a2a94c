/**
 * linux6's pipe path (src/pipe.ts): under linux-6, lat_pipe and lat_ctx run 6.x's read/write path
 * (ksys_read -> vfs_read -> new_sync_read -> pipe_read under pipe->mutex, copy_page_to_iter,
 * prepare_to_wait_event / finish_wait, __wake_up_common's autoremove wake) in place of the core's
 * 2.4 PIPE_SEM paths; the mechanism (who sleeps, who wakes, what moves) is the core's and stays.
 */
import { describe, expect, it } from "vitest";
import type { OpLine, RunResult } from "@siglab/plugin-api";
import { runExample, metric, pathCount } from "../../../core/test/harness.js";
import { getBuiltinProfile } from "../../../cpu-profiles/src/builtin.js";
import { CORE_PATHS } from "@siglab/core";
import linux6 from "../src/index.js";
import { PIPE_PATH_NAMES, pipeOps } from "../src/pipe.js";

type Opts = Record<string, string | number | boolean>;
const cpuMhz: Record<string, number> = { skylake: 3600, zen4: 4500 };
const l6 = (cpu: string, options: Opts = {}) => ({ cpu, mhz: cpuMhz[cpu], plugins: [linux6], variants: [{ id: "linux6", options }] });

/** cycles of one execution of a path definition on a profile: Σ n × the op class's cost */
function defCycles(cpu: string, ops: readonly OpLine[]): number {
  const costs = getBuiltinProfile(cpu)!.costs as Record<string, { cycles: number }>;
  return ops.reduce((s, l) => s + (l.n ?? 1) * costs[l.op]!.cycles, 0);
}
/** cycles of one execution of a path as the run charged it */
const runCycles = (r: RunResult, name: string) => r.paths.find((p) => p.name === name)!.ops.reduce((s, o) => s + o.cycles, 0);

const CORE_DEFS = new Map(CORE_PATHS.map((d) => [d.name, d.ops]));
const COUNTERS = ["syscalls.read", "syscalls.write", "sched.switches", "bytes.copied", "linux6.cfs.wakeup_preemptions"];

describe("linux6: 6.x's pipe read/write path", () => {
  const n = 300;
  const pipe = runExample("lat_pipe", { params: { iterations: n }, ...l6("skylake") });
  const pipe24 = runExample("lat_pipe", { params: { iterations: n }, ...l6("skylake", { pipe: "2.4" }) });
  const ctx = runExample("lat_ctx", { params: { iterations: n }, ...l6("skylake") });
  const ctx24 = runExample("lat_ctx", { params: { iterations: n }, ...l6("skylake", { pipe: "2.4" }) });

  it("lat_pipe and lat_ctx run the 6.x paths: linux6's, named after 6.x's functions, no 2.4 PIPE_SEM left", () => {
    for (const r of [pipe, ctx]) {
      expect(r.error).toBeUndefined();
      for (const name of PIPE_PATH_NAMES) {
        expect(pathCount(r, name), name).toBeGreaterThan(0);
        expect(r.paths.find((p) => p.name === name)!.origin, name).toBe("linux6");
      }
      const fns = new Set(r.paths.filter((p) => (PIPE_PATH_NAMES as readonly string[]).includes(p.name)).flatMap((p) => p.ops.map((o) => o.fn)));
      for (const fn of ["ksys_read", "vfs_read", "new_sync_read", "pipe_read", "ksys_write", "vfs_write", "pipe_write", "security_file_permission", "copy_page_to_iter", "prepare_to_wait_event", "finish_wait", "__wake_up_common", "autoremove_wake_function", "__mutex_trylock_fast"]) {
        expect(fns.has(fn), fn).toBe(true);
      }
      // nothing of 2.4's pipe code anywhere in the run
      for (const p of r.paths) for (const o of p.ops) expect(`${p.name}: ${o.fn} ${o.note ?? ""}`).not.toMatch(/PIPE_SEM|down_interruptible|wq_write_lock|wq_read_lock/);
    }
    // pipe=2.4 keeps the core's
    expect(pipe24.paths.find((p) => p.name === "pipe_read")!.origin).toBe("core");
    expect(pipe24.paths.find((p) => p.name === "pipe_read")!.ops.some((o) => /PIPE_SEM/.test(o.note ?? ""))).toBe(true);
  });

  it("the mechanism is unchanged: the same reads, writes, bytes, switches and wake-ups as with the 2.4 paths", () => {
    for (const [a, b] of [[pipe, pipe24], [ctx, ctx24]] as const) {
      expect(b.error).toBeUndefined();
      for (const c of COUNTERS) expect(a.counters[c], c).toBe(b.counters[c]);
      for (const name of PIPE_PATH_NAMES) expect(pathCount(a, name), name).toBe(pathCount(b, name));
      expect(pathCount(a, "try_to_wake_up")).toBe(pathCount(b, "try_to_wake_up"));
    }
    expect(pipe.counters["syscalls.read"]).toBe(2 * (1 + 8 + n));
  });

  it("each replaced path costs what its 6.x ops cost on the profile, and a round trip costs the sum of the differences more", () => {
    const ops = pipeOps();
    // skylake has no SRSO return thunk: the paths are the ops as defined
    expect(pipe.counters["linux6.mitigation.retbleedUntrain"]).toBeUndefined();
    const trips = pathCount(pipe, "pipe_read") / 2;
    let expected = 0;
    for (const name of PIPE_PATH_NAMES) {
      const nu = defCycles("skylake", ops[name]);
      const old = defCycles("skylake", CORE_DEFS.get(name)!);
      expect(runCycles(pipe, name), name).toBeCloseTo(nu, 6);
      expect(runCycles(pipe24, name), name).toBeCloseTo(old, 6);
      expected += (pathCount(pipe, name) / trips) * (nu - old);
    }
    expect(expected).toBeGreaterThan(1000); // 6.x's read/write path is several times 2.4's
    const measured = metric(pipe, "pipe round trip") - metric(pipe24, "pipe round trip");
    // the rest of a round trip is the same (no tick lands in the timed window of either run)
    expect(measured).toBeCloseTo(expected, 6);
    // lat_ctx: its single-process pipe overhead (a write and a read per token, no sleep) rises too
    expect(metric(ctx, "size=0k ovr")).toBeGreaterThan(metric(ctx24, "size=0k ovr"));
  });

  it("on zen4 (SRSO safe-RET on) every call the pipe path returns from takes the return thunk", () => {
    const z = runExample("lat_pipe", { params: { iterations: 100 }, ...l6("zen4") });
    expect(z.error).toBeUndefined();
    expect(z.counters["linux6.mitigation.retbleedUntrain"]).toBe(1);
    const ops = pipeOps();
    for (const name of PIPE_PATH_NAMES) {
      const calls = ops[name].reduce((s, l) => s + (l.op === "call" || l.op === "call_indirect" ? (l.n ?? 1) : 0), 0);
      const thunk = z.paths.find((p) => p.name === name)!.ops.find((o) => o.fn === "srso_return_thunk");
      expect(thunk?.repeat ?? 0, name).toBe(calls);
    }
  });

  it("without linux6 (the 2.4 baseline) the core's paths run, as before", () => {
    const base = runExample("lat_pipe", { params: { iterations: 100 }, cpu: "p4-northwood", mhz: 2200 });
    expect(base.error).toBeUndefined();
    for (const name of PIPE_PATH_NAMES) {
      expect(base.paths.find((p) => p.name === name)!.origin, name).toBe("core");
      expect(runCycles(base, name), name).toBeCloseTo(defCycles("p4-northwood", CORE_DEFS.get(name)!), 6);
    }
  });

  it("op by op (the oracle's exact mode) gives the same run as the compiled paths", () => {
    const fast = runExample("lat_pipe", { params: { iterations: 50 }, ...l6("skylake") });
    const exact = runExample("lat_pipe", { params: { iterations: 50 }, ...l6("skylake"), exactPaths: true });
    expect(exact.error).toBeUndefined();
    expect(exact.totalCycles).toBe(fast.totalCycles);
    expect(metric(exact, "pipe round trip")).toBe(metric(fast, "pipe round trip"));
  });
});
