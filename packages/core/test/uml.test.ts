import { describe, expect, it } from "vitest";
import { metric, pathCount, runExample } from "./harness.js";

const N = 60;
const run = (id: string, cpu = "p4-northwood", mhz = 2200, params: Record<string, number | boolean> = {}) => runExample(id, { cpu, mhz, params: { syscalls: N, ...params } });
const c = (r: ReturnType<typeof runExample>, name: string) => r.counters[name] ?? 0;

describe("the thread's question: three ways for User-mode Linux to enter its kernel", () => {
  const tt = run("uml_tt");
  const jail = run("uml_jail");
  const skas = run("uml_skas");

  it("every design answers every guest syscall (the guest checks the UML kernel's getpid)", () => {
    for (const r of [tt, jail, skas]) {
      expect(r.error).toBeUndefined();
      expect(r.findings).toEqual([]);
      expect(metric(r, "guest syscalls handled")).toBe(N);
    }
  });

  it("skas: two tracer stops per guest syscall, the host call nullified, no signal delivered", () => {
    // entry and exit stop of each guest call, the entry stop of exit(); the first SIGSTOP
    expect(c(skas, "ptrace.syscall_stops")).toBe(2 * N + 1);
    expect(c(skas, "ptrace.signal_stops")).toBe(1);
    // nullified: one POKEUSER of orig_eax per guest call (to __NR_getpid, the call the guest made)
    expect(pathCount(skas, "putreg")).toBe(N);
    expect(c(skas, "signals.delivered")).toBe(0);
    expect(pathCount(skas, "setup_frame")).toBe(0);
    // GETREGS and SETREGS copy the 17 words of user_regs_struct once per guest call (and at the start)
    expect(pathCount(skas, "ptrace.getregs_word")).toBe(17 * (N + 2));
    expect(pathCount(skas, "ptrace.setregs_word")).toBe(17 * (N + 1));
  });

  it("tt: a SIGUSR2 delivery into the UML kernel and its sigreturn per guest syscall, with the tracer's stops", () => {
    expect(c(tt, "signals.delivered")).toBe(N);
    expect(pathCount(tt, "setup_frame")).toBe(N);
    expect(pathCount(tt, "sys_sigreturn")).toBe(N);
    // the FP image is saved in every frame (the guest has live SSE state)
    expect(tt.phases["signal.fpu_save"]).toBeGreaterThan(0);
    // stops: the guest call's entry, the SIGUSR2 it was continued with, set_user_mode's SIGUSR1,
    // and the entry and exit of the kernel's own sigreturn (plus the first SIGSTOP and exit())
    expect(c(tt, "ptrace.syscall_stops")).toBe(3 * N + 1);
    expect(c(tt, "ptrace.signal_stops")).toBe(2 * N + 1);
    expect(pathCount(tt, "putreg")).toBe(N);
  });

  it("jail: tt plus two mprotect calls of the whole kernel per guest syscall", () => {
    expect(c(jail, "signals.delivered")).toBe(N);
    expect(pathCount(jail, "sys_mprotect")).toBe(2 * N);
    expect(pathCount(jail, "change_pte_range")).toBe(2 * N * 512);
    expect(c(jail, "tlb.flushes")).toBeGreaterThanOrEqual(2 * N);
    const small = run("uml_jail", "p4-northwood", 2200, { kernelPages: 64 });
    expect(metric(small, "per guest syscall")).toBeLessThan(metric(jail, "per guest syscall"));
  });

  it("orders the designs as the thread argued: skas < tt < jail, on the P4 and the PIII", () => {
    for (const [cpu, mhz] of [["p4-northwood", 2200], ["p6-coppermine", 1000]] as const) {
      const [a, b, d] = ["uml_skas", "uml_tt", "uml_jail"].map((id) => metric(run(id, cpu, mhz), "per guest syscall"));
      expect(a).toBeLessThan(b!);
      expect(b).toBeLessThan(d!);
    }
    // every design costs many host syscalls
    expect(metric(skas, "per guest syscall")).toBeGreaterThan(5 * metric(skas, "host getpid"));
  });

  it("without sa-nofp, an SSE memcpy in the UML kernel's handler is harmless: the frame saved the FP state", () => {
    const r = run("uml_tt", "p6-coppermine", 1000, { handlerCopy: 4096 });
    expect(r.error).toBeUndefined();
    expect(r.findings).toEqual([]);
    expect(c(r, "libc.sse_memcpy_calls")).toBe(N);
  });

  it("uml_compare (the three designs in one run, for the app's charts) gives the single examples' figures", () => {
    const all = run("uml_compare");
    expect(all.error).toBeUndefined();
    // to within the cache model: in one run the other designs' tasks and pages take physical
    // memory first, so each design's lines fall in other cache sets than when it runs alone
    const near = (a: number, b: number) => expect(Math.abs(a / b - 1)).toBeLessThan(0.005);
    near(metric(all, "tt per guest syscall"), metric(tt, "per guest syscall"));
    near(metric(all, "jail per guest syscall"), metric(jail, "per guest syscall"));
    near(metric(all, "skas per guest syscall"), metric(skas, "per guest syscall"));
  });
});
