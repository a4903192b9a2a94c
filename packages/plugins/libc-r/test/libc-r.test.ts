import { describe, expect, it } from "vitest";
import { validateManifest, type RunResult } from "@siglab/core";
import { metric, pathCount, runExample, runSource, type RunOpts } from "../../../core/test/harness.js";
import manifestJson from "../plugin.json" with { type: "json" };
import libcR from "../src/index.js";
import { PER_THREAD_MASK, PIPE_FROM_CHILD, PIPE_WAIT, UNWRAPPED_SLEEP } from "../../ngpt/test/workloads.js";

const withLibcR = (o: RunOpts = {}): RunOpts => ({ ...o, plugins: [libcR], variants: [{ id: "libc-r" }] });
const c = (r: RunResult, name: string) => r.counters[name] ?? 0;
const kinds = (r: RunResult) => r.findings.map((f) => f.kind);
const YIELD = { threads: 4, yields: 50 };

describe("libc-r: manifest", () => {
  it("validates and replaces the thread library", () => {
    const m = validateManifest(manifestJson, "plugin.json");
    expect(m.id).toBe("libc-r");
    expect(m.replaces).toEqual(["ThreadLibrary"]);
  });
});

describe("libc-r: the switch", () => {
  it("is _setjmp + two ___longjmp with no system call", () => {
    const r = runExample("ngpt_yield", withLibcR({ params: YIELD }));
    expect(r.error).toBeUndefined();
    expect(r.findings).toEqual([]);
    const S = c(r, "libc_r.switches");
    expect(S).toBeGreaterThanOrEqual(YIELD.threads * YIELD.yields);
    expect(c(r, "syscalls.sched_yield")).toBe(0);
    expect(c(r, "syscalls.gettimeofday")).toBe(0);
    // one rt_sigprocmask for the whole run: reading the process mask at _thread_init
    expect(c(r, "syscalls.rt_sigprocmask")).toBe(1);
    expect(c(r, "sched.switches")).toBeLessThanOrEqual(3);
    expect(pathCount(r, "libc_r.longjmp")).toBeGreaterThanOrEqual(2 * YIELD.threads * YIELD.yields);
    expect(pathCount(r, "libc_r._setjmp")).toBeGreaterThanOrEqual(YIELD.threads * YIELD.yields);
    const sched = r.paths.find((p) => p.name === "libc_r.kern_sched");
    expect(sched?.origin).toBe("libc-r");
    expect(sched?.ops.map((o) => o.op)).not.toContain("int_gate");
  });

  it("read and write are one syscall each after the fd was made non-blocking once", () => {
    const p = { threads: 3, iterations: 20, bytes: 1000 };
    const r = runExample("ngpt_readwrite", withLibcR({ params: p }));
    expect(r.error).toBeUndefined();
    const n = p.threads * p.iterations;
    expect(c(r, "syscalls.read")).toBe(n);
    expect(c(r, "syscalls.write")).toBe(n);
    expect(c(r, "syscalls.fcntl")).toBe(4); // F_GETFL + F_SETFL for each of the two fds
    expect(c(r, "syscalls._newselect")).toBe(0);
  });

  it("a read that would block waits in the scheduler, which polls the fd", () => {
    for (const bytes of [64, 10_000]) {
      const r = runSource(PIPE_WAIT, withLibcR({ params: { bytes } }));
      expect(r.error).toBeUndefined();
      expect(metric(r, "got")).toBe(bytes);
      expect(c(r, "libc_r.fd_waits")).toBeGreaterThanOrEqual(1);
      expect(c(r, "syscalls._newselect")).toBeGreaterThanOrEqual(1);
      expect(r.findings).toEqual([]);
    }
    const idle = runSource(PIPE_FROM_CHILD, withLibcR());
    expect(idle.error).toBeUndefined();
    expect(metric(idle, "got")).toBe(32);
  });

  it("keeps per-thread masks in user memory; the kernel mask follows only when they differ", () => {
    const r = runSource(PER_THREAD_MASK, withLibcR());
    expect(r.error).toBeUndefined();
    expect(metric(r, "handled while blocked")).toBe(0);
    expect(metric(r, "handled")).toBe(1);
    expect(c(r, "libc_r.mask_syncs")).toBeGreaterThan(0);
    expect(r.findings).toEqual([]);
  });
});

describe("libc-r: cost", () => {
  it.each([
    ["p6-coppermine", 1000],
    ["p4-northwood", 2200],
  ])("a yield on %s is a fraction of LinuxThreads' sched_yield", (cpu, mhz) => {
    const o = { cpu, mhz, params: YIELD };
    const lt = metric(runExample("ngpt_yield", o), "per yield");
    const lr = metric(runExample("ngpt_yield", withLibcR(o)), "per yield");
    expect(lr).toBeLessThan(lt / 3);
    // a few dozen register moves and queue operations: tens to hundreds of cycles
    expect(lr).toBeGreaterThan(20);
    expect(lr).toBeLessThan(400);
  });
});

describe("libc-r: hazard", () => {
  it("one process: a syscall the library does not wrap blocks every thread", () => {
    const bad = runSource(UNWRAPPED_SLEEP, withLibcR());
    expect(bad.error).toBeUndefined();
    const f = bad.findings.find((x) => x.kind === "lwp-blocked");
    expect(f?.evidence["library"]).toBe("libc_r");
    expect(f?.evidence["delayCycles"]).toBeGreaterThan(2200 * 1000);
    expect(kinds(runSource(UNWRAPPED_SLEEP, withLibcR({ params: { sleep: false } })))).toEqual([]);
  });
});
