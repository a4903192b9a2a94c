import { describe, expect, it } from "vitest";
import { validateManifest, type RunResult } from "@siglab/core";
import { metric, pathCount, runExample, runSource, type RunOpts } from "../../../core/test/harness.js";
import manifestJson from "../plugin.json" with { type: "json" };
import ngpt from "../src/index.js";
import { PER_THREAD_MASK, PIPE_FROM_CHILD, PIPE_WAIT, UNWRAPPED_SLEEP, W } from "./workloads.js";

const NGPT = { plugins: [ngpt], variants: [{ id: "ngpt" }] };
const withNgpt = (o: RunOpts = {}, options?: Record<string, boolean>): RunOpts => ({ ...o, plugins: [ngpt], variants: [{ id: "ngpt", ...(options ? { options } : {}) }] });
const c = (r: RunResult, name: string) => r.counters[name] ?? 0;
const kinds = (r: RunResult) => r.findings.map((f) => f.kind);
const YIELD = { threads: 4, yields: 50 };

describe("ngpt: manifest", () => {
  it("validates and replaces the thread library", () => {
    const m = validateManifest(manifestJson, "plugin.json");
    expect(m.id).toBe("ngpt");
    expect(m.replaces).toEqual(["ThreadLibrary"]);
    expect(ngpt.manifest.options["hpTiming"]?.default).toBe(false);
  });
});

describe("ngpt: the user-level switch", () => {
  it("makes 4 rt_sigprocmask + 3 gettimeofday per switch, two sigsetjmp/siglongjmp, and no kernel context switch", () => {
    const r = runExample("ngpt_yield", withNgpt({ params: YIELD }));
    expect(r.error).toBeUndefined();
    const S = c(r, "ngpt.switches");
    expect(S).toBeGreaterThanOrEqual(YIELD.threads * YIELD.yields);
    // the event manager runs only when at most one thread is ready: at the end of the run, not per yield
    const EM = c(r, "ngpt.eventmanager");
    expect(EM).toBeGreaterThan(0);
    expect(EM).toBeLessThanOrEqual(YIELD.threads + 1);
    expect(c(r, "syscalls.rt_sigpending")).toBe(EM);
    // one more rt_sigprocmask per pthread_create (the context pth_mctx_set saves); two per event-manager pass
    expect(c(r, "syscalls.rt_sigprocmask")).toBe(4 * S + c(r, "ngpt.threads_created") + 2 * EM);
    expect(c(r, "syscalls.gettimeofday")).toBe(3 * S);
    expect(c(r, "ngpt.mctx_switches")).toBe(2 * S);
    expect(c(r, "syscalls.sched_yield")).toBe(0);
    expect(c(r, "syscalls.clone")).toBe(0);
    expect(c(r, "sched.switches")).toBeLessThanOrEqual(3);
    expect(r.phases["uthread.switch"]).toBeGreaterThan(0);
    // sjlj touches no FPU state; the scheduler's queue locks are locked xchg/bts even on one CPU
    const jmp = r.paths.find((p) => p.name === "ngpt.sigsetjmp");
    expect(jmp?.origin).toBe("ngpt");
    expect(jmp?.ops.map((o) => o.op)).not.toContain("fnstenv");
    expect(c(r, "fpu.nm_traps")).toBe(0);
    const locked = ["ngpt.pth_yield", "ngpt.scheduler.requeue", "ngpt.scheduler.pick"].map((n) => r.paths.find((p) => p.name === n)!.ops.filter((o) => o.op === "locked_op").reduce((a, o) => a + o.repeat, 0));
    expect(locked).toEqual([1, 3, 3]);

    const lt = runExample("ngpt_yield", { params: YIELD });
    expect(c(lt, "syscalls.sched_yield")).toBe(YIELD.threads * YIELD.yields);
    expect(c(lt, "syscalls.rt_sigprocmask")).toBe(0);
    expect(c(lt, "sched.switches")).toBeGreaterThanOrEqual(YIELD.threads * YIELD.yields);
  });

  it("hpTiming reads the TSC instead of calling gettimeofday", () => {
    const r = runExample("ngpt_yield", withNgpt({ params: YIELD }, { hpTiming: true }));
    const S = c(r, "ngpt.switches");
    expect(c(r, "syscalls.gettimeofday")).toBe(0);
    expect(pathCount(r, "ngpt.hp_timing")).toBe(3 * S);
    expect(c(r, "syscalls.rt_sigprocmask")).toBe(4 * S + c(r, "ngpt.threads_created") + 2 * c(r, "ngpt.eventmanager"));
  });

  it("switchMask off drops the mask syscalls from the switch", () => {
    const r = runExample("ngpt_yield", withNgpt({ params: YIELD }, { switchMask: false }));
    expect(c(r, "syscalls.rt_sigprocmask")).toBe(0);
    expect(c(r, "syscalls.gettimeofday")).toBe(3 * c(r, "ngpt.switches"));
  });

  it("wraps read in fcntl + select(0) and write in 4 x fcntl", () => {
    const p = { threads: 3, iterations: 20, bytes: 1000 };
    const r = runExample("ngpt_readwrite", withNgpt({ params: p }));
    expect(r.error).toBeUndefined();
    const n = p.threads * p.iterations;
    const EM = c(r, "ngpt.eventmanager"); // each pass selects on the signal pipe and drains it
    expect(c(r, "syscalls.write")).toBe(n);
    expect(c(r, "syscalls.read")).toBe(n + EM);
    // pth_scheduler_init: the signal pipe's two ends made O_NONBLOCK (F_GETFL + F_SETFL each)
    expect(c(r, "syscalls.pipe")).toBe(1);
    expect(c(r, "syscalls.fcntl")).toBe(5 * n + 4);
    expect(c(r, "syscalls._newselect")).toBe(n + EM);
    const lt = runExample("ngpt_readwrite", { params: p });
    expect(c(lt, "syscalls.fcntl")).toBe(0);
    expect(c(lt, "syscalls._newselect")).toBe(0);
  });

  it("a wrapped read that would block waits in the scheduler while the writer thread runs", () => {
    for (const bytes of [64, 10_000]) {
      const r = runSource(PIPE_WAIT, withNgpt({ params: { bytes } }));
      expect(r.error).toBeUndefined();
      expect(metric(r, "got")).toBe(bytes);
      expect(c(r, "ngpt.fd_waits")).toBeGreaterThanOrEqual(1);
      expect(r.findings).toEqual([]);
    }
  });

  it("with nothing else ready the LWP sleeps in the event manager's select until the fd is ready", () => {
    const r = runSource(PIPE_FROM_CHILD, withNgpt());
    expect(r.error).toBeUndefined();
    expect(metric(r, "got")).toBe(32);
    expect(r.phases["idle"]).toBeGreaterThan(0);
    expect(r.findings).toEqual([]);
  });

  it("is deterministic: identical inputs give identical results", () => {
    const a = runExample("ngpt_readwrite", withNgpt({ params: { threads: 3, iterations: 10 }, timeline: true }));
    const b = runExample("ngpt_readwrite", withNgpt({ params: { threads: 3, iterations: 10 }, timeline: true }));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it("gives every user-level thread its own id, all on the one kernel task", () => {
    const src = W(`
      const ids = [t.pthread.self()], tids = [t.tid];
      const hs = [];
      for (let i = 0; i < 3; i++) hs.push(yield* t.pthread.create(function* (th) { ids.push(th.pthread.self()); tids.push(th.tid); yield* th.pthread.yield(); }));
      for (const h of hs) yield* t.pthread.join(h);
      t.report("distinct ids", new Set(ids).size, "");
      t.report("distinct tids", new Set(tids).size, "");
    `);
    const r = runSource(src, withNgpt());
    expect(metric(r, "distinct ids")).toBe(4);
    expect(metric(r, "distinct tids")).toBe(1);
    expect(metric(runSource(src), "distinct tids")).toBe(4); // LinuxThreads: a task per thread
  });
});

describe("ngpt: cost against LinuxThreads (Seaman: 44.1 s vs 7.3 s)", () => {
  it.each([
    ["p6-coppermine", 1000],
    ["p4-northwood", 2200],
  ])("per yield on %s: NGPT is several times LinuxThreads' sched_yield", (cpu, mhz) => {
    const o = { cpu, mhz, params: YIELD };
    const lt = metric(runExample("ngpt_yield", o), "per yield");
    const ng = metric(runExample("ngpt_yield", { ...o, ...NGPT }), "per yield");
    const hp = metric(runExample("ngpt_yield", withNgpt(o, { hpTiming: true })), "per yield");
    expect(ng / lt).toBeGreaterThan(3);
    expect(ng / lt).toBeLessThan(12);
    // HP_TIMING saves the three gettimeofday syscalls but not the four mask syscalls
    expect(hp).toBeLessThan(ng);
    expect(hp).toBeGreaterThan(lt);
  });

  it.each([
    ["p6-coppermine", 1000],
    ["p4-northwood", 2200],
  ])("per read+write+yield iteration on %s the wrappers add to the switch", (cpu, mhz) => {
    const o = { cpu, mhz, params: { threads: 3, iterations: 20 } };
    const lt = metric(runExample("ngpt_readwrite", o), "per iteration");
    const ng = metric(runExample("ngpt_readwrite", { ...o, ...NGPT }), "per iteration");
    expect(ng / lt).toBeGreaterThan(1.5);
    expect(ng / lt).toBeLessThan(12);
  });
});

describe("ngpt: hazards", () => {
  it("the incoming thread's mask must be installed: without it a signal reaches a thread that blocks it", () => {
    const ok = runSource(PER_THREAD_MASK, withNgpt());
    expect(ok.error).toBeUndefined();
    expect(ok.findings).toEqual([]);
    expect(metric(ok, "handled while blocked")).toBe(0);
    expect(metric(ok, "handled")).toBe(1);

    const bad = runSource(PER_THREAD_MASK, withNgpt({}, { switchMask: false }));
    expect(bad.error).toBeUndefined();
    expect(metric(bad, "handled while blocked")).toBe(1);
    const f = bad.findings.find((x) => x.kind === "blocked-signal-delivered");
    expect(f?.evidence["signal"]).toBe(10);
    expect(f?.evidence["variants"]).toBe("ngpt");
  });

  it("a syscall the library does not wrap blocks every user-level thread on the LWP", () => {
    const bad = runSource(UNWRAPPED_SLEEP, withNgpt());
    expect(bad.error).toBeUndefined();
    const f = bad.findings.find((x) => x.kind === "lwp-blocked");
    expect(f?.severity).toBe("warning");
    expect(f?.evidence["readyThreads"]).toBeGreaterThanOrEqual(1);
    // ~2 ms of sleep at 2.2 GHz
    expect(f?.evidence["delayCycles"]).toBeGreaterThan(2200 * 1000);

    expect(kinds(runSource(UNWRAPPED_SLEEP, withNgpt({ params: { sleep: false } })))).toEqual([]);
    // LinuxThreads: the sleeping thread is its own task
    expect(kinds(runSource(UNWRAPPED_SLEEP, { plugins: [ngpt] }))).toEqual([]);
  });
});
