/**
 * The kernel events keep what KernelEventMap's doc comments say: return.user fires on every return
 * to user mode (the fast system-call exit included), task.exit shows an exiting task as it was,
 * run.end's k.tasks no longer holds reaped tasks, signal.dequeue fires for every dequeue whoever
 * asked, and listening changes no simulated cycle.
 */
import { describe, expect, it } from "vitest";
import type { Kernel, RunResult } from "../src/index.js";
import { pathCount, runExample, runSource, setupPlugin } from "./harness.js";

type Listen = (k: Kernel) => void;
const withListener = (id: string, listen: Listen) => ({ plugins: [setupPlugin(id, listen, "2.3")], variants: [{ id }] });

const EVENTS = ["tick", "signal.deliver", "signal.interrupt", "signal.return", "signal.dequeue", "signal.queued", "switch.out", "switch.in", "return.user", "user.store", "run.end", "task.exit"] as const;

/** What a run measured (everything but the variant stack that loaded the listener). */
const measured = (r: RunResult) => JSON.stringify({ error: r.error, metrics: r.metrics, totalCycles: r.totalCycles, phases: r.phases, counters: r.counters, findings: r.findings, paths: r.paths.map((p) => ({ ...p, origin: undefined })) });

/** getpid n times, then the parent's signal to itself with a handler (one return into it, one after sigreturn). */
const SYSCALLS = `import { workload } from "siglab";
export default workload({ name: "syscalls", params: { n: 200 }, *main(t, { n }) {
  for (let i = 0; i < n; i++) yield* t.getpid();
} });
`;

/**
 * The guide's lost-signal pattern: a child that never unblocks SIGRTMIN exits with every instance
 * its parent queued still pending (each one lost); the parent reaps it.
 */
const LOST = `import { workload } from "siglab";
export default workload({ name: "lost", params: { n: 40 }, *main(t, { n }) {
  yield* t.sigprocmask(0, [34]);
  const child = yield* t.fork(function* (c) { yield* c.nanosleep(2_000_000); yield* c.exit(3); });
  for (let i = 0; i < n; i++) yield* t.kill(child, 34);
  yield* t.wait();
} });
`;

describe("return.user: every return to user mode", () => {
  it("fires on the fast system-call exit: at least once per getpid (it fired only when work was pending)", () => {
    let returns = 0, intoHandler = 0;
    const r = runSource(SYSCALLS, withListener("returns", (k) => k.events.on("return.user", (_t, h) => (h ? intoHandler++ : returns++))));
    expect(r.error).toBeUndefined();
    expect(r.counters["syscalls.getpid"]).toBe(200);
    expect(returns).toBeGreaterThanOrEqual(200);
    expect(intoHandler).toBe(0);
  });

  it("fires into the handler (intoHandler true) once per delivery, and on the return after sigreturn", () => {
    const seen: string[] = [];
    const r = runExample("lat_sig_catch", { params: { iterations: 20 }, ...withListener("order", (k) => {
      k.events.on("signal.deliver", () => seen.push("deliver"));
      k.events.on("signal.return", () => seen.push("return"));
      k.events.on("return.user", (_t, h) => seen.push(h ? "user:handler" : "user"));
    }) });
    expect(r.error).toBeUndefined();
    const text = seen.join(" ");
    const deliveries = seen.filter((s) => s === "deliver").length;
    expect(deliveries).toBeGreaterThan(0);
    // each delivery: the frame built, straight into the handler; its sigreturn, straight back to the program
    expect(text.split("deliver user:handler").length - 1).toBe(deliveries);
    expect(text.split("return user").length - 1).toBe(deliveries);
  });
});

describe("listening changes no simulated cycle", () => {
  for (const [example, params] of [["lat_syscall", { iterations: 300 }], ["lat_sig_catch", { iterations: 50 }], ["lat_ctx", {}], ["lat_proc", {}], ["sig_wake", {}]] as const) {
    it(`${example}: the same results with a listener on every event`, () => {
      const plain = runExample(example, { params });
      let heard = 0;
      const listened = runExample(example, { params, ...withListener("all-events", (k) => {
        for (const ev of EVENTS) k.events.on(ev, () => void heard++);
      }) });
      expect(plain.error).toBeUndefined();
      expect(heard).toBeGreaterThan(0);
      expect(measured(listened)).toBe(measured(plain));
    });
  }
});

describe("task.exit and run.end: reading a run's tasks at the end", () => {
  it("a lost-signal checker on task.exit sees every task's pending signals; swept at run.end, k.tasks no longer holds the reaped child", () => {
    const atExit: { pid: number; code: number; queued: number; state: string }[] = [];
    const atEnd: number[] = [];
    const r = runSource(LOST, withListener("lost-signals", (k) => {
      k.events.on("task.exit", (t, code) => atExit.push({ pid: t.pid, code, queued: t.queue.filter((q) => q.sig === 34).length, state: t.state }));
      k.events.on("run.end", () => {
        for (const t of k.tasks.values()) atEnd.push(t.pid);
      });
    }));
    expect(r.error).toBeUndefined();
    // the child (pid 2) exits with all 40 instances queued, still running (nothing torn down yet)
    expect(atExit).toContainEqual({ pid: 2, code: 3, queued: 40, state: "running" });
    // every task that exits fires it once: the child and init
    expect(atExit.map((e) => e.pid).sort()).toEqual([1, 2]);
    // run.end comes after the child was reaped: a sweep of k.tasks there cannot see its signals
    expect(atEnd).not.toContain(2);
  });

  it("a fatal signal's exit: code 128 + the signal, fired before the task is torn down", () => {
    const src = `import { workload } from "siglab";
export default workload({ name: "killed", params: {}, *main(t) {
  const child = yield* t.fork(function* (c) { for (;;) yield* c.nanosleep(1_000_000); });
  yield* t.kill(child, 9);
  yield* t.wait();
} });
`;
    const exits: [number, number, string][] = [];
    const r = runSource(src, withListener("fatal", (k) => k.events.on("task.exit", (t, code) => exits.push([t.pid, code, t.state]))));
    expect(r.error).toBeUndefined();
    expect(exits).toContainEqual([2, 128 + 9, "running"]);
  });
});

describe("signal.dequeue: every dequeue, whoever asked", () => {
  it("fires for rt_sigtimedwait's dequeue too (no delivery follows), and for do_signal's", () => {
    const src = `import { workload } from "siglab";
export default workload({ name: "dq", params: {}, *main(t) {
  yield* t.sigprocmask(0, [34]);
  yield* t.kill(t.pid, 34);
  yield* t.sigtimedwait([34]);
  yield* t.sigaction(10, function* () {});
  yield* t.kill(t.pid, 10);
} });
`;
    const seen: string[] = [];
    const r = runSource(src, withListener("dequeues", (k) => {
      k.events.on("signal.dequeue", (_t, sig) => seen.push(`dequeue ${sig}`));
      k.events.on("signal.deliver", (_t, f) => seen.push(`deliver ${f.sig}`));
    }));
    expect(r.error).toBeUndefined();
    expect(seen).toEqual(["dequeue 34", "dequeue 10", "deliver 10"]);
  });
});

describe("the other events: when they fire", () => {
  it("signal.interrupt, then signal.deliver with the same frame (FPU state saved in between), then return.user into the handler", () => {
    const seen: string[] = [];
    const frames = new Set<unknown>();
    const r = runExample("lat_sig_catch", { params: { iterations: 5 }, ...withListener("frames", (k) => {
      k.events.on("signal.interrupt", (_t, f) => (frames.add(f), seen.push("interrupt")));
      k.events.on("signal.deliver", (_t, f) => seen.push(frames.has(f) ? "deliver(same frame)" : "deliver(other frame)"));
      k.events.on("return.user", (_t, h) => h && seen.push("user:handler"));
    }) });
    expect(r.error).toBeUndefined();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.join(" ")).toBe(Array(seen.length / 3).fill("interrupt deliver(same frame) user:handler").join(" "));
  });

  it("switch.out while the task is still current, switch.in once it is, once per context switch", () => {
    let outs = 0, ins = 0, wrong = 0;
    const r = runExample("lat_ctx", withListener("switches", (k) => {
      k.events.on("switch.out", (t) => (outs++, k.current !== t && wrong++));
      k.events.on("switch.in", (t) => (ins++, k.current !== t && wrong++));
    }));
    expect(r.error).toBeUndefined();
    expect(wrong).toBe(0);
    expect(outs).toBe(r.counters["sched.switches"]);
    expect(ins).toBe(outs);
  });

  it("tick: once per timer interrupt, with the CPU's current task", () => {
    let ticks = 0, wrong = 0;
    const r = runExample("lat_ctx", withListener("ticks", (k) => k.events.on("tick", (t) => (ticks++, k.current !== t && wrong++))));
    expect(r.error).toBeUndefined();
    expect(ticks).toBeGreaterThan(0);
    expect(ticks).toBe(pathCount(r, "IRQ0x00_interrupt"));
    expect(wrong).toBe(0);
  });

  it("signal.queued: true for a queued instance, false for a coalesced one; not for an ignored signal", () => {
    const src = `import { workload } from "siglab";
export default workload({ name: "q", params: {}, *main(t) {
  yield* t.sigprocmask(0, [10, 34]);
  yield* t.kill(t.pid, 10);
  yield* t.kill(t.pid, 10);
  yield* t.kill(t.pid, 34);
  yield* t.kill(t.pid, 34);
  yield* t.sigaction(12, "ignore");
  yield* t.kill(t.pid, 12);
  yield* t.exit(0);
} });
`;
    const seen: string[] = [];
    const r = runSource(src, withListener("queued", (k) => k.events.on("signal.queued", (_t, sig, queued) => seen.push(`${sig}:${queued}`))));
    expect(r.error).toBeUndefined();
    expect(seen).toEqual(["10:true", "10:false", "34:true", "34:true"]);
  });

  it("user.store: after the store completed, with its address", () => {
    const src = `import { workload, PROT_READ, PROT_WRITE } from "siglab";
export default workload({ name: "st", params: {}, *main(t) {
  const a = yield* t.mmap(4096, PROT_READ | PROT_WRITE);
  yield* t.store(a, 7);
  yield* t.store(a + 4, 8);
} });
`;
    const seen: number[] = [];
    const r = runSource(src, withListener("stores", (k) => k.events.on("user.store", (t, addr) => seen.push(t.mm.words.get(addr) ?? -1))));
    expect(r.error).toBeUndefined();
    expect(seen).toEqual([7, 8]);
  });
});
