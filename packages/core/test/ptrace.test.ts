import { describe, expect, it } from "vitest";
import { metric, runSource } from "./harness.js";

const W = (body: string, extra = "") => `
import { workload, SIGSTOP, SIGTRAP, SIGUSR1, SIGUSR2, SIGKILL, PTRACE_TRACEME, PTRACE_SYSCALL, PTRACE_CONT, PTRACE_GETREGS, PTRACE_SETREGS,
  PTRACE_PEEKUSER, PTRACE_POKEUSER, PTRACE_PEEKDATA, PTRACE_POKEDATA, PTRACE_ATTACH, PTRACE_DETACH, PTRACE_KILL, PTRACE_SETOPTIONS,
  PTRACE_O_TRACESYSGOOD, ORIG_EAX, EAX, WIFSTOPPED, WSTOPSIG, WIFEXITED, WEXITSTATUS, WIFSIGNALED, WTERMSIG, WNOHANG, PROT_READ, PROT_WRITE, __NR_getppid } from "siglab";
export default workload({ name: "t", params: {}, ${extra} *main(t, p) { ${body} } });`;

/** A child that asks to be traced and stops itself: the tracer's first waitpid sees SIGSTOP. */
const TRACEE_START = `
    const child = yield* t.fork(function* (c) {
      yield* c.ptrace(PTRACE_TRACEME);
      yield* c.kill(c.pid, SIGSTOP);
      BODY
    });
    let w = yield* t.waitpid(child);
    if (typeof w === "number" || !WIFSTOPPED(w.status) || WSTOPSIG(w.status) !== SIGSTOP) throw new Error("first stop: " + JSON.stringify(w));
`;
const traced = (childBody: string, tracer: string) => W(TRACEE_START.replace("BODY", childBody) + tracer);

describe("ptrace: the traced-syscall path (tracesys, syscall_trace, orig_eax)", () => {
  it("stops a PTRACE_SYSCALL tracee before and after each syscall and shows orig_eax and eax", () => {
    const r = runSource(traced(`
      const pid = yield* c.getpid();
      c.report("getpid in the tracee", pid, "pid");`, `
    const seen = [];
    for (let i = 0; i < 2; i++) {
      yield* t.ptrace(PTRACE_SYSCALL, child, 0, 0);
      w = yield* t.waitpid(child);
      if (typeof w === "number") throw new Error("waitpid " + w);
      const regs = yield* t.ptrace(PTRACE_GETREGS, child);
      if (typeof regs === "number") throw new Error("getregs " + regs);
      seen.push([WSTOPSIG(w.status), regs.orig_eax, regs.eax]);
    }
    t.report("entry stop signal", seen[0][0], "sig"); t.report("entry orig_eax", seen[0][1], "nr"); t.report("entry eax", seen[0][2], "value");
    t.report("exit stop signal", seen[1][0], "sig"); t.report("exit eax", seen[1][2], "value");
    yield* t.ptrace(PTRACE_CONT, child, 0, 0);
    w = yield* t.waitpid(child);
    t.report("exited", typeof w !== "number" && WIFEXITED(w.status) ? 1 : 0, "bool");
    t.report("child", child, "pid");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "entry stop signal")).toBe(5); // SIGTRAP
    expect(metric(r, "entry orig_eax")).toBe(20); // __NR_getpid
    expect(metric(r, "entry eax")).toBe(-38); // tracesys: movl $-ENOSYS,EAX(%esp)
    expect(metric(r, "exit stop signal")).toBe(5);
    expect(metric(r, "exit eax")).toBe(metric(r, "child"));
    expect(metric(r, "getpid in the tracee")).toBe(metric(r, "child"));
    expect(metric(r, "exited")).toBe(1);
    expect(r.counters["ptrace.syscall_stops"]).toBe(2);
    expect(r.phases["ptrace.stop"]).toBeGreaterThan(0);
    expect(r.phases["ptrace.request"]).toBeGreaterThan(0);
  });

  it("nullifies a syscall through orig_eax and answers it with SETREGS at the exit stop (the skas design)", () => {
    const r = runSource(traced(`
      const a = yield* c.kill(c.pid, SIGUSR1);   // would kill the child if it ran
      c.report("answer", a, "value");`, `
    yield* t.ptrace(PTRACE_SYSCALL, child, 0, 0);
    yield* t.waitpid(child);                               // entry stop of kill()
    const e = yield* t.ptrace(PTRACE_POKEUSER, child, ORIG_EAX, -1);
    yield* t.ptrace(PTRACE_SYSCALL, child, 0, 0);
    yield* t.waitpid(child);                               // exit stop
    const peek = yield* t.ptrace(PTRACE_PEEKUSER, child, EAX);
    t.report("eax at exit of a nullified call", typeof peek === "number" ? 999 : peek.word, "value");
    const regs = yield* t.ptrace(PTRACE_GETREGS, child);
    if (typeof regs === "number") throw new Error("getregs");
    yield* t.ptrace(PTRACE_SETREGS, child, 0, { ...regs, eax: 4242 });
    yield* t.ptrace(PTRACE_CONT, child, 0, 0);
    w = yield* t.waitpid(child);
    t.report("poke", e, "ret");
    t.report("exit status", typeof w === "number" ? -1 : WEXITSTATUS(w.status), "code");
    t.report("signaled", typeof w !== "number" && WIFSIGNALED(w.status) ? 1 : 0, "bool");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "poke")).toBe(0);
    expect(metric(r, "eax at exit of a nullified call")).toBe(-38);
    expect(metric(r, "answer")).toBe(4242);
    expect(metric(r, "signaled")).toBe(0);
    expect(r.counters["ptrace.skipped_syscalls"]).toBe(1);
    // two kill() entries, one sys_kill body: the nullified one never ran (no SIGUSR1 was sent)
    expect(r.counters["syscalls.kill"]).toBe(2);
    expect(r.paths.find((p) => p.name === "sys_kill")?.count).toBe(1);
  });

  it("substitutes an argument-less syscall (UML's __NR_getpid) and refuses one with arguments", () => {
    const ok = runSource(traced(`
      const a = yield* c.kill(c.pid, SIGUSR1);
      c.report("answer", a, "value");`, `
    yield* t.ptrace(PTRACE_SYSCALL, child, 0, 0);
    yield* t.waitpid(child);
    yield* t.ptrace(PTRACE_POKEUSER, child, ORIG_EAX, 20);   // __NR_getpid, as UML does
    yield* t.ptrace(PTRACE_CONT, child, 0, 0);
    yield* t.waitpid(child);
    t.report("child", child, "pid");`));
    expect(ok.error).toBeUndefined();
    expect(metric(ok, "answer")).toBe(metric(ok, "child"));
    expect(ok.counters["ptrace.substituted_syscalls"]).toBe(1);
    const bad = runSource(traced(`yield* c.getpid();`, `
    yield* t.ptrace(PTRACE_SYSCALL, child, 0, 0);
    yield* t.waitpid(child);
    yield* t.ptrace(PTRACE_POKEUSER, child, ORIG_EAX, 3);  // read(): has arguments
    yield* t.ptrace(PTRACE_CONT, child, 0, 0);
    yield* t.waitpid(child);`));
    expect(bad.error?.message).toMatch(/turned syscall 20 into 3.*without arguments/);
  });

  it("PTRACE_O_TRACESYSGOOD marks syscall stops with 0x80", () => {
    const r = runSource(traced(`yield* c.getpid();`, `
    yield* t.ptrace(PTRACE_SETOPTIONS, child, 0, PTRACE_O_TRACESYSGOOD);
    yield* t.ptrace(PTRACE_SYSCALL, child, 0, 0);
    w = yield* t.waitpid(child);
    t.report("sig", typeof w === "number" ? -1 : WSTOPSIG(w.status), "sig");
    yield* t.ptrace(PTRACE_CONT, child, 0, 0);
    yield* t.waitpid(child);`));
    expect(metric(r, "sig")).toBe(0x85);
  });
});

describe("ptrace: signals to a traced task stop it first", () => {
  it("reports the signal to the tracer, which can cancel it, pass it on or change it", () => {
    const r = runSource(traced(`
      let got = 0;
      yield* c.sigaction(SIGUSR2, function* () { got++; });
      yield* c.kill(c.pid, SIGUSR1);     // cancelled by the tracer (else it would kill)
      yield* c.kill(c.pid, SIGUSR1);     // turned into SIGUSR2 by the tracer
      c.report("handler runs", got, "count");`, `
    const stops = [];
    for (let i = 0; i < 2; i++) {
      yield* t.ptrace(PTRACE_CONT, child, 0, i === 0 ? 0 : 0);
      w = yield* t.waitpid(child);
      if (typeof w === "number") throw new Error("wait " + w);
      stops.push(WSTOPSIG(w.status));
      if (i === 1) { yield* t.ptrace(PTRACE_CONT, child, 0, SIGUSR2); break; }
    }
    w = yield* t.waitpid(child);
    t.report("first stop", stops[0], "sig"); t.report("second stop", stops[1], "sig");
    t.report("exited normally", typeof w !== "number" && WIFEXITED(w.status) ? 1 : 0, "bool");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "first stop")).toBe(10);
    expect(metric(r, "second stop")).toBe(10);
    expect(metric(r, "handler runs")).toBe(1);
    expect(metric(r, "exited normally")).toBe(1);
    expect(r.counters["ptrace.signal_stops"]).toBe(3); // SIGSTOP and the two SIGUSR1
  });

  it("PTRACE_KILL ends a stopped tracee; waitpid reports the signal", () => {
    const r = runSource(traced(`yield* c.getpid(); c.report("ran on", 1, "bool");`, `
    yield* t.ptrace(PTRACE_KILL, child);
    w = yield* t.waitpid(child);
    t.report("killed by", typeof w === "number" ? -1 : (WIFSIGNALED(w.status) ? WTERMSIG(w.status) : 0), "sig");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "killed by")).toBe(9);
    expect(r.metrics.find((m) => m.name === "ran on")).toBeUndefined();
  });
});

describe("ptrace: requests", () => {
  it("PEEKDATA/POKEDATA read and write the tracee's memory (even a read-only page), ATTACH/DETACH work", () => {
    const r = runSource(W(`
    const page = yield* t.mmap(4096, PROT_READ | PROT_WRITE);
    yield* t.store(page, 7);
    const child = yield* t.fork(function* (c) {
      for (let i = 0; i < 50; i++) yield* c.sched_yield();
      c.report("child sees", yield* c.load(page), "value");
    });
    const a = yield* t.ptrace(PTRACE_ATTACH, child);
    let w = yield* t.waitpid(child);
    t.report("attach", a, "ret");
    t.report("attach stop", typeof w === "number" ? -1 : WSTOPSIG(w.status), "sig");
    const peek = yield* t.ptrace(PTRACE_PEEKDATA, child, page);
    t.report("peek", typeof peek === "number" ? peek : peek.word, "value");
    t.report("poke", yield* t.ptrace(PTRACE_POKEDATA, child, page, 99), "ret");
    t.report("bad peek", yield* t.ptrace(PTRACE_PEEKDATA, child, 0x10), "ret");
    t.report("detach", yield* t.ptrace(PTRACE_DETACH, child, 0, 0), "ret");
    t.report("after detach", yield* t.ptrace(PTRACE_GETREGS, child), "ret");
    w = yield* t.waitpid(child);
    t.report("parent still sees", yield* t.load(page), "value");
    t.report("not traced", yield* t.ptrace(PTRACE_CONT, 12345, 0, 0), "ret");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "attach")).toBe(0);
    expect(metric(r, "attach stop")).toBe(19);
    expect(metric(r, "peek")).toBe(7);
    expect(metric(r, "poke")).toBe(0);
    expect(metric(r, "bad peek")).toBe(-5); // -EIO: no vma
    expect(metric(r, "detach")).toBe(0);
    expect(metric(r, "after detach")).toBe(-3); // -ESRCH: not traced any more
    expect(metric(r, "child sees")).toBe(99);
    expect(metric(r, "parent still sees")).toBe(7); // a copy of the address space
    expect(metric(r, "not traced")).toBe(-3);
  });

  it("refuses requests on a running tracee and a second TRACEME; WNOHANG does not sleep", () => {
    const r = runSource(W(`
    const child = yield* t.fork(function* (c) {
      c.report("traceme", yield* c.ptrace(PTRACE_TRACEME), "ret");
      c.report("traceme again", yield* c.ptrace(PTRACE_TRACEME), "ret");
      for (let i = 0; i < 20; i++) yield* c.sched_yield();
    });
    yield* t.sched_yield();
    t.report("getregs of a running tracee", yield* t.ptrace(PTRACE_GETREGS, child), "ret");
    const w = yield* t.waitpid(child, WNOHANG);
    t.report("wnohang", typeof w === "number" ? w : -100, "ret");
    yield* t.waitpid(child);`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "traceme")).toBe(0);
    expect(metric(r, "traceme again")).toBe(-1);
    expect(metric(r, "getregs of a running tracee")).toBe(-3);
    expect(metric(r, "wnohang")).toBe(0);
  });

  it("costs ptrace op by op: GETREGS copies 17 words, and a traced syscall costs more than a plain one", () => {
    const r = runSource(traced(`for (let i = 0; i < 10; i++) yield* c.getppid();`, `
    for (;;) {
      yield* t.ptrace(PTRACE_SYSCALL, child, 0, 0);
      w = yield* t.waitpid(child);
      if (typeof w === "number" || !WIFSTOPPED(w.status)) break;
      yield* t.ptrace(PTRACE_GETREGS, child);
    }`));
    expect(r.error).toBeUndefined();
    const getregs = r.paths.find((p) => p.name === "ptrace.getregs_word");
    const stops = r.counters["ptrace.syscall_stops"]!;
    expect(stops).toBe(2 * 10 + 1); // entry and exit of ten getppid, and the entry of exit() (it never returns)
    expect(getregs?.count).toBe(17 * stops);
  });
});
