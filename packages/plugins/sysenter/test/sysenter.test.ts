import { describe, expect, it } from "vitest";
import { runExample, runSource, metric, pathCount } from "../../../core/test/harness.js";
import sysenter from "../src/index.js";
import { ASYNC_SIGNALS, irqSignalDevice, SYNC_SIGNALS } from "./workloads.js";

type Opts = Record<string, string | number | boolean>;
const se = (options: Opts = {}) => ({ plugins: [sysenter], variants: [{ id: "sysenter", options }] });
const withDevice = (options: Opts | null) =>
  options
    ? { plugins: [irqSignalDevice, sysenter], variants: [{ id: "test-irq-signal" }, { id: "sysenter", options }] }
    : { plugins: [irqSignalDevice], variants: [{ id: "test-irq-signal" }] };

describe("sysenter: the mechanism", () => {
  it("a null syscall goes through __kernel_vsyscall, sysenter_entry and sysexit instead of int $0x80/iret", () => {
    const base = runExample("lat_syscall", { params: { iterations: 1000 } });
    const r = runExample("lat_syscall", { params: { iterations: 1000 }, ...se() });
    expect(r.error).toBeUndefined();
    expect(pathCount(base, "system_call")).toBeGreaterThan(1000);
    for (const p of ["__kernel_vsyscall", "sysenter_entry", "sysenter_exit_test", "sysexit", "SYSENTER_RETURN"]) {
      expect(pathCount(r, p), p).toBeGreaterThan(1000);
      expect(r.paths.find((x) => x.name === p)!.origin).toBe("sysenter");
    }
    expect(pathCount(r, "system_call")).toBe(0);
    expect(pathCount(r, "restore_all")).toBeLessThan(5); // the fork-less run: only exit paths that had work
    const ops = r.paths.find((x) => x.name === "__kernel_vsyscall")!.ops.map((o) => o.op);
    expect(ops).toContain("sysenter");
    expect(r.paths.find((x) => x.name === "sysexit")!.ops.map((o) => o.op)).toContain("sysexit");
    // argument 6 is fetched from the user stack under a range check
    const entry = r.paths.find((x) => x.name === "sysenter_entry")!.ops;
    expect(entry.some((o) => o.op === "put_user" && /movl \(%ebp\),%ebp/.test(o.note ?? ""))).toBe(true);
  });

  it("signal delivery and sigreturn leave through iret (TIF_IRET), never sysexit", () => {
    const r = runExample("lat_sig_catch", { params: { iterations: 200 }, ...se() });
    expect(r.error).toBeUndefined();
    expect(r.counters["sysenter.sysexit_with_changed_regs"]).toBeUndefined();
    // every kill() returns into the handler through syscall_exit_work + restore_all
    expect(pathCount(r, "syscall_exit_work")).toBeGreaterThanOrEqual(200);
    // sigreturn comes in through the retcode's int $0x80 by default: one per signal (lmbench's
    // catch loop runs n - 1 kills, after a warm-up interval of 8 - 1; its kill(me, 0) loop uses sysenter)
    expect(r.counters["signals.delivered"]).toBe(7 + 199);
    expect(pathCount(r, "system_call")).toBe(r.counters["signals.delivered"]);
    const v = runExample("lat_sig_catch", { params: { iterations: 200 }, ...se({ sigreturnEntry: "vsyscall" }) });
    expect(pathCount(v, "system_call")).toBe(0);
    expect(pathCount(v, "syscall_exit_work")).toBeGreaterThanOrEqual(400);
  });

  it("every context switch rewrites the SYSENTER MSRs (wrmsr in switch_to)", () => {
    const r = runExample("lat_ctx", se());
    const sw = r.paths.find((p) => p.name === "switch_to")!;
    const w = sw.ops.find((o) => o.op === "wrmsr");
    expect(w?.repeat).toBe(2);
    expect(sw.origin).toBe("sysenter");
    const none = runExample("lat_ctx", se({ msrWritesPerSwitch: 0 }));
    expect(none.paths.find((p) => p.name === "switch_to")!.ops.some((o) => o.op === "wrmsr")).toBe(false);
    // without the rewrite, sysenter_entry fetches esp0 from the TSS itself
    expect(none.paths.find((p) => p.name === "sysenter_entry")!.ops[0]!.note).toMatch(/TSS_sysenter_esp0/);
  });

  it("refuses CPUs without SEP, naming the CPU", () => {
    for (const [cpu, mhz, name] of [["p5-p54c", 133, "Pentium (P54C)"], ["p6-pentium-pro", 200, "Pentium Pro"]] as const) {
      const r = runExample("lat_syscall", { cpu, mhz, params: { iterations: 10 }, ...se() });
      expect(r.error?.kind).toBe("plugin");
      expect(r.error?.message).toContain(cpu);
      expect(r.error?.message).toContain(name);
      expect(r.error?.message).toMatch(/no SEP/);
    }
  });
});

describe("sysenter: cost", () => {
  const getpid = (cpu: string, mhz: number, o: Opts | null) =>
    metric(runExample("lat_syscall", { cpu, mhz, params: { iterations: 5000, call: "getpid" }, ...(o ? se(o) : {}) }), "getpid");

  it("P4 Northwood: int $0x80 ~1568 vs sysenter ~428 cycles (figure p4-int80-vs-sysenter)", () => {
    const int80 = getpid("p4-northwood", 2200, null), fast = getpid("p4-northwood", 2200, {});
    expect(fast).toBeLessThan(int80);
    expect(fast).toBeGreaterThan(250);
    expect(fast).toBeLessThan(700);
    expect(int80 / fast).toBeGreaterThan(2.5); // 1568/428 = 3.7; Linus's getppid 1761/641 = 2.7
    expect(int80 / fast).toBeLessThan(5);
  });

  it("P6 Coppermine and K7 Palomino: cheaper too, by a smaller factor (their int/iret are not as slow)", () => {
    for (const [cpu, mhz] of [["p6-coppermine", 800], ["k7-palomino", 1400]] as const) {
      const int80 = getpid(cpu, mhz, null), fast = getpid(cpu, mhz, {});
      expect(fast / int80, cpu).toBeGreaterThan(0.5);
      // the K7's sti before sysexit is 27 cycles (Agner Fog's reciprocal throughput): ~8% saved there
      expect(fast / int80, cpu).toBeLessThan(cpu === "k7-palomino" ? 0.95 : 0.9);
    }
  });

  it("the MSR rewrite makes every context switch slower (~5-9% on a P4)", () => {
    const run = (o: Opts | null) => runExample("lat_ctx", o ? se(o) : {});
    const sw = (r: ReturnType<typeof runExample>) => metric(r, "context switch cycles");
    const perSwitch = (r: ReturnType<typeof runExample>) => {
      const p = r.paths.find((x) => x.name === "switch_to")!;
      return p.cycles / p.count;
    };
    const base = run(null), two = run({}), none = run({ msrWritesPerSwitch: 0 });
    expect(sw(two)).toBeGreaterThan(sw(none));
    // against the int $0x80 baseline the P4's switch is cheaper with SYSENTER all the same: no entry
    // through the IDT empties its trace cache, so the scheduler's text stays decoded
    expect(sw(none)).toBeLessThan(sw(base) * 0.9);
    // the rewrite's cost, end to end: the same entry mechanism with and without it (lat_ctx's figure
    // also moves with where the timer ticks land, which any change of path length shifts)
    expect((sw(two) - sw(none)) / sw(none)).toBeGreaterThan(0.03);
    expect((sw(two) - sw(none)) / sw(none)).toBeLessThan(0.15);
    // without the rewrite, switch_to costs what the baseline's does
    expect(perSwitch(none)).toBe(perSwitch(base));
    expect(perSwitch(two)).toBeGreaterThan(perSwitch(base));
  });
});

describe("sysenter: the hazard (SYSEXIT after pt_regs changed)", () => {
  it("default configuration is clean on the signal examples and on signals interrupting user code", () => {
    for (const ex of ["lat_sig_catch", "longjmp_handler", "sigfpe_fixup", "sig_pingpong"]) {
      const r = runExample(ex, { params: ex === "lat_sig_catch" ? { iterations: 200 } : {}, ...se() });
      expect(r.error, ex).toBeUndefined();
      expect(r.findings, ex).toEqual([]);
    }
    const a = runSource(ASYNC_SIGNALS, { ...withDevice({ sigreturnEntry: "vsyscall" }) });
    expect(a.error).toBeUndefined();
    expect(metric(a, "caught")).toBeGreaterThan(100);
    expect(a.findings).toEqual([]);
  });

  it("forgetIret + sigreturn through the vsyscall page: the registers sigreturn restored are discarded", () => {
    const r = runSource(ASYNC_SIGNALS, { ...withDevice({ sigreturnEntry: "vsyscall", forgetIret: true }) });
    expect(r.error).toBeUndefined();
    const regs = r.findings.filter((f) => f.kind === "int-register-corruption").map((f) => f.evidence["register"]);
    // sysexit: ecx = OLDESP, edx = EIP, ebp = 0 — the interrupted code was not at SYSENTER_RETURN
    expect(regs.sort()).toEqual(["ebp", "ecx", "edx"]);
    expect(r.counters["sysenter.sysexit_with_changed_regs"]).toBeGreaterThan(100);
    // the same run through iret is clean
    expect(runSource(ASYNC_SIGNALS, { ...withDevice({ sigreturnEntry: "vsyscall" }) }).findings).toEqual([]);
  });

  it("forgetIret: callee-saved registers come back as the handler left them", () => {
    const clean = runSource(SYNC_SIGNALS, se({ sigreturnEntry: "vsyscall" }));
    expect(clean.findings).toEqual([]);
    expect(metric(clean, "esi after the loop")).toBe(0x600d);
    const r = runSource(SYNC_SIGNALS, se({ sigreturnEntry: "vsyscall", forgetIret: true }));
    expect(metric(r, "esi after the loop")).toBe(0xbad);
    const f = r.findings.find((x) => x.kind === "int-register-corruption");
    expect(f?.evidence["register"]).toBe("esi");
    expect(f?.evidence["variants"]).toBe("sysenter");
  });

  it("forgetIret alone is silent when sigreturn enters by int $0x80 (2.5.53's retcode): iret reloads everything", () => {
    const r = runSource(ASYNC_SIGNALS, { ...withDevice({ forgetIret: true }) });
    expect(r.findings).toEqual([]);
    // ...although signal delivery did return through sysexit
    expect(r.counters["sysenter.sysexit_with_changed_regs"]).toBeGreaterThan(0);
  });
});
