import { describe, expect, it } from "vitest";
import { metric, pathCount, runSource } from "./harness.js";

const W = (body: string, params = "{}") => `
import { workload, SIGUSR1, SIGUSR2, SIGRTMIN, SIGSEGV, SA_SIGINFO, SA_RESTART, SIG_BLOCK, SIG_UNBLOCK, PROT_READ, PROT_WRITE } from "siglab";
export default workload({ name: "t", params: ${params}, *main(t, p) { ${body} } });`;

describe("signal frames", () => {
  it("builds a 732-byte sigframe and an 892-byte rt_sigframe with the interrupted context", () => {
    const r = runSource(W(`
      const pid = yield* t.getpid();
      t.regs.set("ebx", 1234);
      yield* t.fpu.set("st0", 2.5);
      yield* t.sigaction(SIGUSR1, function* (h) {
        t.report("size", h.frame.size, "B"); t.report("ebx", h.frame.sigcontext.ebx, "");
        t.report("st0", h.frame.fpstate ? h.frame.fpstate.st[0] : -1, "");
        t.report("esp below", h.frame.sigcontext.esp - h.frame.address, "B");
      });
      yield* t.sigaction(SIGUSR2, function* (h) {
        t.report("rt size", h.frame.size, "B"); t.report("rt kind", h.frame.kind === "rt_sigframe" ? 1 : 0, "");
        t.report("si_pid", h.info ? h.info.pid : -1, "");
      }, { flags: SA_SIGINFO });
      yield* t.kill(pid, SIGUSR1);
      yield* t.kill(pid, SIGUSR2);`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "size")).toBe(732);
    expect(metric(r, "rt size")).toBe(892);
    expect(metric(r, "rt kind")).toBe(1);
    expect(metric(r, "ebx")).toBe(1234);
    expect(metric(r, "st0")).toBe(2.5);
    expect(metric(r, "si_pid")).toBe(1);
    expect(metric(r, "esp below")).toBeGreaterThanOrEqual(732);
    expect(pathCount(r, "setup_frame")).toBe(1);
    expect(pathCount(r, "setup_rt_frame")).toBe(1);
    expect(r.findings).toEqual([]);
  });

  it("has no FP image when the task never used the FPU, and copies 624 bytes when it did", () => {
    const src = (fp: boolean) => W(`
      if (${fp}) yield* t.fpu.set("xmm0", [1,2,3,4]);
      yield* t.sigaction(SIGUSR1, function* (h) { t.report("has fp", h.frame.fpstate ? 1 : 0, ""); });
      yield* t.kill(yield* t.getpid(), SIGUSR1);`);
    const without = runSource(src(false));
    const withFp = runSource(src(true));
    expect(metric(without, "has fp")).toBe(0);
    expect(metric(withFp, "has fp")).toBe(1);
    expect(withFp.counters["bytes.copied"]! - without.counters["bytes.copied"]!).toBe(624);
    expect(pathCount(withFp, "convert_fxsr_to_user")).toBe(1);
  });

  it("uses an fsave frame image on a CPU without FXSR", () => {
    const r = runSource(W(`
      yield* t.fpu.set("st0", 1);
      yield* t.sigaction(SIGUSR1, function* (h) { t.report("magic", h.frame.fpstate.magic, ""); t.report("xmm", h.frame.fpstate.xmm ? 1 : 0, ""); });
      yield* t.kill(yield* t.getpid(), SIGUSR1);`), { cpu: "p5-p54c", mhz: 133 });
    expect(r.error).toBeUndefined();
    expect(metric(r, "magic")).toBe(0xffff);
    expect(metric(r, "xmm")).toBe(0);
    expect(pathCount(r, "save_i387_fsave")).toBe(1);
    expect(pathCount(r, "convert_fxsr_to_user")).toBe(0);
  });
});

describe("transparency in the baseline", () => {
  it("keeps FP/SSE and integer registers across a signal whose handler uses the FPU", () => {
    const r = runSource(W(`
      t.regs.set("esi", 77);
      yield* t.fpu.set("xmm3", [9, 8, 7, 6]);
      yield* t.fpu.set("st1", 3.25);
      yield* t.sigaction(SIGUSR1, function* (h) { yield* h.fpu.set("xmm3", [0, 0, 0, 1]); h.regs.set("esi", 5); });
      yield* t.kill(yield* t.getpid(), SIGUSR1);
      const x = yield* t.fpu.get("xmm3"); const s = yield* t.fpu.get("st1");
      t.report("xmm3", x[0] * 1000 + x[3], ""); t.report("st1", s[0], ""); t.report("esi", t.regs.get("esi"), "");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "xmm3")).toBe(9006);
    expect(metric(r, "st1")).toBe(3.25);
    expect(metric(r, "esi")).toBe(77);
    expect(r.findings).toEqual([]);
  });

  it("honours a handler's edit of the frame (sigreturn loads it) without a finding", () => {
    const r = runSource(W(`
      yield* t.fpu.set("st0", 1);
      yield* t.sigaction(SIGUSR1, function* (h) { h.frame.fpstate.st[0] = 99; h.frame.sigcontext.ebx = 5; });
      yield* t.kill(yield* t.getpid(), SIGUSR1);
      const s = yield* t.fpu.get("st0");
      t.report("st0", s[0], ""); t.report("ebx", t.regs.get("ebx"), "");`));
    expect(metric(r, "st0")).toBe(99);
    expect(metric(r, "ebx")).toBe(5);
    expect(r.findings).toEqual([]);
  });

  it("keeps each process's FPU state across context switches, trapping #NM once per slice", () => {
    const r = runSource(W(`
      const [ra, wa] = yield* t.pipe(); const [rb, wb] = yield* t.pipe();
      yield* t.fork(function* (c) {
        yield* c.fpu.set("xmm0", [5, 5, 5, 5]);
        for (let i = 0; i < 20; i++) { yield* c.read(ra, 1); const v = yield* c.fpu.get("xmm0"); if (v[0] !== 5) throw new Error("child xmm0 " + v); yield* c.write(wb, 1); }
      });
      yield* t.fpu.set("xmm0", [1, 1, 1, 1]);
      for (let i = 0; i < 20; i++) { yield* t.write(wa, 1); yield* t.read(rb, 1); const v = yield* t.fpu.get("xmm0"); if (v[0] !== 1) throw new Error("parent xmm0 " + v); }
      yield* t.wait();`));
    expect(r.error).toBeUndefined();
    expect(r.findings).toEqual([]);
    // each task's first FP instruction after being switched in traps once: ~2 traps per round
    const traps = r.counters["fpu.nm_traps"]!;
    expect(traps).toBeGreaterThanOrEqual(40);
    expect(traps).toBeLessThanOrEqual(44);
    expect(r.counters["fpu.saves"]).toBeGreaterThanOrEqual(38);
  });

  it("traps #NM on the first FP use after a switch and not on the second", () => {
    const r = runSource(W(`
      yield* t.fpu.set("st0", 1);
      const before = yield* t.sched_yield();
      yield* t.fpu.ops(1); yield* t.fpu.ops(1); yield* t.fpu.ops(1);`));
    expect(r.counters["fpu.nm_traps"]).toBe(1);
  });
});

describe("masks, queues, restart", () => {
  it("keeps a blocked signal pending until it is unblocked", () => {
    const r = runSource(W(`
      let got = 0;
      yield* t.sigaction(SIGUSR1, function* () { got++; });
      yield* t.sigprocmask(SIG_BLOCK, [SIGUSR1]);
      yield* t.kill(yield* t.getpid(), SIGUSR1);
      t.report("while blocked", got, "");
      const pend = yield* t.sigpending(); t.report("pending", pend.includes(SIGUSR1) ? 1 : 0, "");
      yield* t.sigprocmask(SIG_UNBLOCK, [SIGUSR1]);
      t.report("after unblock", got, "");`));
    expect(metric(r, "while blocked")).toBe(0);
    expect(metric(r, "pending")).toBe(1);
    expect(metric(r, "after unblock")).toBe(1);
    expect(r.findings).toEqual([]);
  });

  it("queues real-time signals in order with their values and coalesces standard ones", () => {
    const r = runSource(W(`
      const order = [];
      yield* t.sigaction(SIGRTMIN, function* (h) { order.push(h.info.value); }, { flags: SA_SIGINFO });
      let usr = 0; yield* t.sigaction(SIGUSR1, function* () { usr++; });
      yield* t.sigprocmask(SIG_BLOCK, [SIGRTMIN, SIGUSR1]);
      const pid = yield* t.getpid();
      for (let i = 1; i <= 5; i++) { yield* t.sigqueue(pid, SIGRTMIN, i * 10); yield* t.kill(pid, SIGUSR1); }
      yield* t.sigprocmask(SIG_UNBLOCK, [SIGRTMIN, SIGUSR1]);
      yield* t.getpid(); yield* t.getpid(); yield* t.getpid(); yield* t.getpid(); yield* t.getpid();
      t.report("order", Number(order.join("")), ""); t.report("usr", usr, "");`));
    expect(metric(r, "order")).toBe(1020304050);
    expect(metric(r, "usr")).toBe(1);
    expect(r.findings).toEqual([]);
  });

  it("restarts a blocking read after an SA_RESTART handler and returns -EINTR without it", () => {
    const src = (flags: string) => W(`
      const [r0, w0] = yield* t.pipe();
      yield* t.sigaction(SIGUSR1, function* () {}, { flags: ${flags} });
      const parent = yield* t.getpid();
      yield* t.fork(function* (c) { yield* c.nanosleep(1_000_000); yield* c.kill(parent, SIGUSR1); yield* c.nanosleep(1_000_000); yield* c.write(w0, 3); });
      const n = yield* t.read(r0, 3);
      t.report("read", n, "");
      yield* t.wait();`);
    const restarted = runSource(src("SA_RESTART"));
    const interrupted = runSource(src("0"));
    expect(restarted.error).toBeUndefined();
    expect(metric(restarted, "read")).toBe(3);
    expect(restarted.counters["signals.syscall_restarts"]).toBe(1);
    expect(metric(interrupted, "read")).toBe(-4);
  });

  it("sigtimedwait dequeues a blocked RT signal without a frame", () => {
    const r = runSource(W(`
      yield* t.sigprocmask(SIG_BLOCK, [SIGRTMIN]);
      const pid = yield* t.getpid();
      yield* t.sigqueue(pid, SIGRTMIN, 7);
      const info = yield* t.sigtimedwait([SIGRTMIN], 0);
      t.report("value", typeof info === "number" ? info : info.value, "");
      const none = yield* t.sigtimedwait([SIGRTMIN], 0);
      t.report("empty", typeof none === "number" ? none : 1, "");`));
    expect(metric(r, "value")).toBe(7);
    expect(metric(r, "empty")).toBe(-11);
    expect(pathCount(r, "setup_frame") + pathCount(r, "setup_rt_frame")).toBe(0);
  });
});

describe("page faults", () => {
  it("SIGSEGV -> handler mprotect -> retried store succeeds, with the fault address in siginfo", () => {
    const r = runSource(W(`
      const page = yield* t.mmap(4096, PROT_READ);
      let addr = 0;
      yield* t.sigaction(SIGSEGV, function* (h) { addr = h.info.addr; yield* h.mprotect(page, 4096, PROT_READ | PROT_WRITE); }, { flags: SA_SIGINFO });
      yield* t.store(page + 16, 42);
      const v = yield* t.load(page + 16);
      t.report("value", v, ""); t.report("fault at", addr - page, "");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "value")).toBe(42);
    expect(metric(r, "fault at")).toBe(16);
    expect(r.counters["faults.page"]).toBe(1);
    expect(r.counters["tlb.flushes"]).toBeGreaterThanOrEqual(1);
  });

  it("kills the task with SIGSEGV when no handler is installed", () => {
    const r = runSource(W(`
      const page = yield* t.mmap(4096, PROT_READ);
      yield* t.store(page, 1);
      t.report("survived", 1, "");`));
    expect(r.error).toBeUndefined();
    expect(r.metrics.find((m) => m.name === "survived")).toBeUndefined();
    expect(r.counters["signals.fatal"]).toBe(1);
  });
});

describe("back-to-back deliveries", () => {
  it("a second signal delivered on sigreturn's exit, whose handler makes a syscall, is clean", () => {
    const r = runSource(W(`
      const pid = yield* t.getpid();
      yield* t.sigaction(SIGUSR1, function* () {});
      yield* t.sigaction(SIGUSR2, function* (h) { yield* h.getpid(); });
      yield* t.sigprocmask(SIG_BLOCK, [SIGUSR1, SIGUSR2]);
      yield* t.kill(pid, SIGUSR1); yield* t.kill(pid, SIGUSR2);
      yield* t.sigprocmask(SIG_UNBLOCK, [SIGUSR1, SIGUSR2]);
      t.report("done", 1, "");`));
    expect(r.error).toBeUndefined();
    expect(r.counters["signals.delivered"]).toBe(2);
    expect(r.findings).toEqual([]);
  });
});

describe("restart without a handler", () => {
  it("a blocking read woken by a signal that ends up without a handler is restarted, not -EINTR", () => {
    // SIGSTOP wakes the sleeper; job control is not modelled, so do_signal finds nothing to run and
    // 2.4 restarts the system call (eip -= 2) instead of returning -ERESTARTSYS/-EINTR
    const r = runSource(W(`
      const [r0, w0] = yield* t.pipe();
      const [r1, w1] = yield* t.pipe();
      const child = yield* t.fork(function* (c) { const n = yield* c.read(r0, 3); yield* c.write(w1, n === 3 ? 1 : 2); });
      yield* t.nanosleep(1_000_000);
      yield* t.kill(child, 19);
      yield* t.nanosleep(1_000_000);
      yield* t.write(w0, 3);
      const got = yield* t.read(r1, 2);
      t.report("child read ok", got, "");
      yield* t.wait();`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "child read ok")).toBe(1);
    expect(r.counters["signals.syscall_restarts"]).toBe(1);
  });
});
