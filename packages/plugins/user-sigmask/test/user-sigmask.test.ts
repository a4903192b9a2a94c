import { describe, expect, it } from "vitest";
import { validateManifest, type RunResult } from "@siglab/core";
import { metric, pathCount, runExample, runSource, type RunOpts } from "../../../core/test/harness.js";
import ngpt from "../../ngpt/src/index.js";
import { PER_THREAD_MASK } from "../../ngpt/test/workloads.js";
import manifestJson from "../plugin.json" with { type: "json" };
import us from "../src/index.js";
import { BLOCK_RACE, PARK_AND_UNBLOCK } from "./workloads.js";

const c = (r: RunResult, name: string) => r.counters[name] ?? 0;
const kinds = (r: RunResult) => r.findings.map((f) => f.kind);
const withUs = (o: RunOpts = {}, options?: Record<string, boolean>): RunOpts => ({ ...o, plugins: [us], variants: [{ id: "user-sigmask", ...(options ? { options } : {}) }] });
const ngptUs = (o: RunOpts = {}, options?: Record<string, boolean>): RunOpts => ({
  ...o,
  plugins: [ngpt, us],
  variants: [{ id: "ngpt" }, { id: "user-sigmask", ...(options ? { options } : {}) }],
});
const YIELD = { threads: 4, yields: 50 };

describe("user-sigmask: manifest", () => {
  it("validates and replaces the signal mask store", () => {
    const m = validateManifest(manifestJson, "plugin.json");
    expect(m.replaces).toEqual(["SignalMaskStore"]);
    expect(Object.keys(m.options)).toEqual(["pendingFlag", "readAtDelivery"]);
  });
});

describe("user-sigmask: the mechanism", () => {
  it("a store to the page blocks a signal: the kernel reads the page, parks the signal and sets the pending word", () => {
    const r = runSource(PARK_AND_UNBLOCK, withUs());
    expect(r.error).toBeUndefined();
    expect(metric(r, "register")).toBe(0);
    expect(metric(r, "handled while blocked")).toBe(0);
    expect(metric(r, "pending word")).toBe(1);
    // the plain unblocking store is followed by the pending-word check and one kernel entry
    expect(metric(r, "handled right after unblock")).toBe(1);
    expect(metric(r, "pending word after")).toBe(0);
    expect(pathCount(r, "sys_user_sigmask_collect")).toBe(1);
    expect(pathCount(r, "user_sigmask.get_user")).toBeGreaterThan(0);
    expect(pathCount(r, "user_sigmask.put_user")).toBe(2); // set, then cleared at delivery
    expect(c(r, "user_sigmask.parked")).toBe(1);
    expect(c(r, "syscalls.rt_sigprocmask")).toBe(0);
    expect(r.findings).toEqual([]);
  });

  it("without the plugin the registration syscall does not exist", () => {
    const r = runSource(PARK_AND_UNBLOCK, { params: { gap: 10 } });
    expect(metric(r, "register")).toBe(-38); // -ENOSYS
  });

  it("removes the 4 rt_sigprocmask from every NGPT switch: sigsetjmp's query becomes loads, siglongjmp's install stores into the page", () => {
    const r = runExample("ngpt_yield", ngptUs({ params: YIELD }));
    expect(r.error).toBeUndefined();
    const S = c(r, "ngpt.switches");
    expect(S).toBeGreaterThanOrEqual(YIELD.threads * YIELD.yields);
    expect(c(r, "syscalls.rt_sigprocmask")).toBe(0);
    // two installs per switch (into the scheduler, into the thread), two per event-manager pass (open, close)
    expect(c(r, "user_sigmask.mask_stores")).toBe(2 * S + 2 * c(r, "ngpt.eventmanager"));
    expect(c(r, "syscalls.gettimeofday")).toBe(3 * S);
    expect(c(r, "user_sigmask.registered")).toBe(1);
    expect(r.findings).toEqual([]);
  });

  it("NGPT's per-thread masks stay correct with the page: the signal waits for the thread's unblocking store and is collected", () => {
    const r = runSource(PER_THREAD_MASK, ngptUs());
    expect(r.error).toBeUndefined();
    expect(metric(r, "handled while blocked")).toBe(0);
    expect(metric(r, "handled")).toBe(1);
    expect(c(r, "user_sigmask.collects")).toBe(1);
    expect(c(r, "syscalls.rt_sigprocmask")).toBe(0);
    expect(r.findings).toEqual([]);
  });
});

describe("user-sigmask: cost", () => {
  it.each([
    ["p6-coppermine", 1000],
    ["p4-northwood", 2200],
  ])("an NGPT yield on %s costs less with the mask in a page", (cpu, mhz) => {
    const o = { cpu, mhz, params: YIELD };
    const plain = metric(runExample("ngpt_yield", { ...o, plugins: [ngpt], variants: [{ id: "ngpt" }] }), "per yield");
    const page = metric(runExample("ngpt_yield", ngptUs(o)), "per yield");
    const lt = metric(runExample("ngpt_yield", o), "per yield");
    // four syscalls of seven (plus their bodies) become stores
    expect(plain / page).toBeGreaterThan(1.3);
    expect(plain / page).toBeLessThan(4);
    // the three gettimeofday are still there: still dearer than LinuxThreads' sched_yield
    expect(page).toBeGreaterThan(lt);
  });
});

describe("user-sigmask: hazards (the race windows)", () => {
  it("a signal pending before the blocking store is not delivered while the page blocks it", () => {
    const ok = runSource(BLOCK_RACE, withUs());
    expect(ok.error).toBeUndefined();
    expect(metric(ok, "usr2 while user-blocked")).toBe(0);
    expect(metric(ok, "usr2")).toBe(1);
    expect(ok.findings).toEqual([]);

    // Knight's patch as posted: only recalc_sigpending reads the page; do_signal trusts task->blocked
    const bad = runSource(BLOCK_RACE, withUs({}, { readAtDelivery: false }));
    expect(metric(bad, "usr2 while user-blocked")).toBe(1);
    const f = bad.findings.find((x) => x.kind === "blocked-signal-delivered");
    expect(f?.evidence["signal"]).toBe(12);
    expect(f?.evidence["maskStore"]).toBe("user-sigmask");
  });

  it("without the pending word an unblocking store strands the signal until an unrelated recalc (delayed)", () => {
    const gap = 50_000;
    const r = runSource(PARK_AND_UNBLOCK, withUs({ params: { late: true, gap } }, { pendingFlag: false }));
    expect(r.error).toBeUndefined();
    expect(metric(r, "handled right after unblock")).toBe(0);
    expect(metric(r, "handled")).toBe(1);
    const f = r.findings.find((x) => x.kind === "delayed-signal");
    expect(f?.severity).toBe("warning");
    expect(f?.evidence["delayCycles"]).toBeGreaterThanOrEqual(gap);
    // with the pending word the same program has no finding
    expect(kinds(runSource(PARK_AND_UNBLOCK, withUs({ params: { late: true, gap } })))).toEqual([]);
  });

  it("without the pending word and no later recalc the signal is lost", () => {
    const r = runSource(PARK_AND_UNBLOCK, withUs({}, { pendingFlag: false }));
    expect(metric(r, "handled")).toBe(0);
    const f = r.findings.find((x) => x.kind === "lost-signal");
    expect(f?.severity).toBe("error");
    expect(f?.evidence["signals"]).toEqual([10]);

    // the same through NGPT: the thread's unblocking store finds no pending word to act on
    const n = runSource(PER_THREAD_MASK, ngptUs({}, { pendingFlag: false }));
    expect(metric(n, "handled")).toBe(0);
    expect(kinds(n)).toContain("lost-signal");
  });
});
