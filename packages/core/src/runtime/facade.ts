/**
 * What workload code receives: façades over the runtime, exactly the Thread / HandlerContext /
 * SignalFrame interfaces of api/siglab.d.ts and nothing more. A façade holds its runtime object in
 * a private field, so no property, prototype or returned value leads to the simulator (the kernel,
 * the task, the gate, the collector) or to the host. Arguments are checked and copied here, while
 * the workload runs (see sanitize.ts). The classes are hardened once when the realm is locked down
 * (see host/realm.ts); instances are frozen as they are made.
 */
import type { SignalFrameK } from "../arch/i386/sigframe.js";
import type { HandlerFn } from "../kernel/task.js";
import type { Gen } from "../kernel/yields.js";
import type { PthreadHandleImpl, ThreadBody } from "./thread.js";
import { describe, fn, num, numList, optNum, plainData, str } from "./sanitize.js";
import { FrameView } from "./frame-view.js";
import type { ThreadImpl } from "./thread.js";
import { USER_REGS } from "../kernel/ptrace.js";
import { QuickCall } from "./syscall/quick-call.js";
import { SchedYieldCall } from "./syscall/sched-yield-call.js";

type Harden = <T>(x: T) => T;
const hardenFn = (globalThis as { harden?: Harden }).harden;

/** On a generator prototype this module hardened (module-private: no other code can set it). */
const HARDENED = Symbol("siglab.hardened-generator-prototype");

/**
 * A generator the runtime made, handed to the workload: its prototype (one per generator method of
 * a host class) is hardened the first time it is seen, so a workload cannot change it for later runs.
 * The mark makes the check after that one property load (getPrototypeOf + isFrozen cost about as
 * much as the simulated system call; every call of the API comes here).
 */
function exposed<T extends object>(g: T): T {
  // a QuickCall's class is hardened with the façades (FACADE_CLASSES), before any workload runs;
  // its frozen prototype could not take the mark, so without this it would pay the slow check on
  // every call
  if (g instanceof QuickCall || g instanceof SchedYieldCall) return g;
  if (hardenFn && (g as { [HARDENED]?: true })[HARDENED] !== true) {
    const p = Object.getPrototypeOf(g) as object;
    if (!Object.isFrozen(p)) {
      Object.defineProperty(p, HARDENED, { value: true });
      hardenFn(p);
    }
  }
  return g;
}

const INT_REGS = new Set(["eax", "ebx", "ecx", "edx", "esi", "edi", "ebp"]);

const facades = new WeakMap<ThreadImpl, ThreadFacade>();

/** The façade of a runtime thread (one per thread, made on first use). */
export function threadFacade(th: ThreadImpl): ThreadFacade {
  let f = facades.get(th);
  if (!f) {
    f = new ThreadFacade(th);
    facades.set(th, f);
  }
  return f;
}

/** A workload's thread body, as the runtime calls it (with a ThreadImpl). */
export function bodyOf(body: unknown, what: string): ThreadBody {
  const b = fn<(t: ThreadFacade) => Gen<unknown>>(body, what);
  return (th: ThreadImpl) => b(threadFacade(th));
}

class FpuFacade {
  readonly #th: ThreadImpl;
  constructor(th: ThreadImpl) {
    this.#th = th;
    Object.freeze(this);
  }
  set(reg: unknown, value: unknown): Gen<void> {
    const name = str(reg, "fpu.set(reg)", 16);
    const v = typeof value === "number" ? value : numList(value, `fpu.set(${name}, value)`, 16);
    return exposed(this.#th.fpuSet(name, v));
  }
  get(reg: unknown): Gen<number[]> {
    return exposed(this.#th.fpuGet(str(reg, "fpu.get(reg)", 16)));
  }
  ops(n: unknown = 1): Gen<void> {
    return exposed(this.#th.fpuInstruction(num(n, "fpu.ops(n)")));
  }
}

class RegsFacade {
  readonly #th: ThreadImpl;
  constructor(th: ThreadImpl) {
    this.#th = th;
    Object.freeze(this);
  }
  set(reg: unknown, value: unknown): void {
    this.#th.setUserReg(intReg(reg, "regs.set"), num(value, "regs.set(reg, value)"));
  }
  get(reg: unknown): number {
    return this.#th.getUserReg(intReg(reg, "regs.get"));
  }
}

function intReg(reg: unknown, what: string): string {
  if (typeof reg !== "string" || !INT_REGS.has(reg)) throw new TypeError(`${what}: unknown integer register ${describe(reg)}`);
  return reg;
}

class LibcFacade {
  readonly #th: ThreadImpl;
  constructor(th: ThreadImpl) {
    this.#th = th;
    Object.freeze(this);
  }
  get sseMemcpy(): boolean {
    return this.#th.shared.libc.sseMemcpy;
  }
  get sseThreshold(): number {
    return this.#th.shared.libc.sseThreshold;
  }
  memcpy(bytes: unknown): Gen<void> {
    const n = num(bytes, "libc.memcpy(bytes)");
    return exposed(this.#th.shared.libc.memcpy(this.#th, n));
  }
  gettimeofday(): Gen<{ sec: number; usec: number }> {
    return exposed(this.#th.shared.libc.gettimeofday(this.#th));
  }
}

/** A pthread handle as the workload sees it: a frozen { tid }. */
function handleOut(h: PthreadHandleImpl): { readonly tid: number } {
  return Object.freeze({ tid: h.tid });
}

class PthreadFacade {
  readonly #th: ThreadImpl;
  constructor(th: ThreadImpl) {
    this.#th = th;
    Object.freeze(this);
  }
  get library(): string {
    return this.#th.shared.threads.id;
  }
  *create(body: unknown): Gen<{ readonly tid: number }> {
    const th = this.#th;
    const h = yield* th.shared.threads.create(th, bodyOf(body, "pthread.create(body)"));
    return handleOut(h);
  }
  join(h: unknown): Gen<number> {
    const tid = num((h as { tid?: unknown } | null)?.tid, "pthread.join(handle.tid)");
    return exposed(this.#th.shared.threads.join(this.#th, { tid }));
  }
  yield(): Gen<void> {
    return exposed(this.#th.shared.threads.yield(this.#th));
  }
  read(fd: unknown, bytes: unknown): Gen<number> {
    return exposed(this.#th.shared.threads.read(this.#th, num(fd, "pthread.read(fd)"), num(bytes, "pthread.read(bytes)")));
  }
  write(fd: unknown, bytes: unknown): Gen<number> {
    return exposed(this.#th.shared.threads.write(this.#th, num(fd, "pthread.write(fd)"), num(bytes, "pthread.write(bytes)")));
  }
  sigmask(how: unknown, set: unknown): Gen<number[]> {
    return exposed(this.#th.shared.threads.sigmask(this.#th, how3(how, "pthread.sigmask(how)"), numList(set, "pthread.sigmask(set)", 64)));
  }
  self(): number {
    return this.#th.shared.threads.self(this.#th);
  }
}

const PTRACE_SETREGS_NR = 13;

/** PTRACE_SETREGS's user buffer: a struct user_regs_struct of numbers (missing words keep their value). */
function userRegsIn(x: unknown): Partial<Record<(typeof USER_REGS)[number], number>> {
  if (x === null || typeof x !== "object") throw new TypeError(`ptrace(PTRACE_SETREGS, pid, addr, regs): expected the registers object PTRACE_GETREGS returned, got ${describe(x)}`);
  const out: Partial<Record<(typeof USER_REGS)[number], number>> = {};
  for (const name of USER_REGS) {
    const v = optNum((x as Record<string, unknown>)[name], `ptrace(PTRACE_SETREGS) regs.${name}`);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

function how3(x: unknown, what: string): 0 | 1 | 2 {
  if (x !== 0 && x !== 1 && x !== 2) throw new TypeError(`${what}: expected SIG_BLOCK (0), SIG_UNBLOCK (1) or SIG_SETMASK (2), got ${describe(x)}`);
  return x;
}

interface Parts {
  fpu: FpuFacade;
  regs: RegsFacade;
  libc: LibcFacade;
  pthread: PthreadFacade;
}

/** The `t` of a workload thread (api/siglab.d.ts Thread). */
export class ThreadFacade {
  readonly #th: ThreadImpl;
  // private, behind getters: an instance has no own properties, so freezing one (a handler's, on
  // every delivery) is cheap
  readonly #parts: Parts;

  constructor(th: ThreadImpl, parts?: Parts) {
    this.#th = th;
    this.#parts = parts ?? { fpu: new FpuFacade(th), regs: new RegsFacade(th), libc: new LibcFacade(th), pthread: new PthreadFacade(th) };
    if (new.target === ThreadFacade) Object.freeze(this);
  }

  get fpu(): FpuFacade {
    return this.#parts.fpu;
  }
  get regs(): RegsFacade {
    return this.#parts.regs;
  }
  get libc(): LibcFacade {
    return this.#parts.libc;
  }
  get pthread(): PthreadFacade {
    return this.#parts.pthread;
  }

  get pid(): number {
    return this.#th.pid;
  }
  get tid(): number {
    return this.#th.tid;
  }
  get params(): Readonly<Record<string, number | string | boolean>> {
    return this.#th.params;
  }
  get mhz(): number {
    return this.#th.mhz;
  }
  rdtsc(): number {
    return this.#th.rdtsc();
  }
  compute(cycles: unknown): Gen<void> {
    return exposed(this.#th.compute(num(cycles, "compute(cycles)")));
  }

  // ---- system calls ---------------------------------------------------------------------------
  getpid(): Gen<number> {
    return exposed(this.#th.getpid());
  }
  getppid(): Gen<number> {
    return exposed(this.#th.getppid());
  }
  gettimeofday(): Gen<{ sec: number; usec: number }> {
    return exposed(this.#th.gettimeofday());
  }
  sched_yield(): Gen<number> {
    return exposed(this.#th.sched_yield());
  }
  sched_setaffinity(pid: unknown, mask: unknown): Gen<number> {
    return exposed(this.#th.sched_setaffinity(num(pid, "sched_setaffinity(pid)"), num(mask, "sched_setaffinity(mask)")));
  }
  sched_getaffinity(pid: unknown = 0): Gen<number> {
    return exposed(this.#th.sched_getaffinity(num(pid, "sched_getaffinity(pid)")));
  }
  kill(pid: unknown, sig: unknown): Gen<number> {
    return exposed(this.#th.kill(num(pid, "kill(pid)"), num(sig, "kill(sig)")));
  }
  tkill(tid: unknown, sig: unknown): Gen<number> {
    return exposed(this.#th.tkill(num(tid, "tkill(tid)"), num(sig, "tkill(sig)")));
  }
  sigqueue(pid: unknown, sig: unknown, value: unknown): Gen<number> {
    return exposed(this.#th.sigqueue(num(pid, "sigqueue(pid)"), num(sig, "sigqueue(sig)"), num(value, "sigqueue(value)")));
  }
  sigaction(sig: unknown, handler: unknown, opts?: unknown): Gen<number> {
    const s = num(sig, "sigaction(sig)");
    let h: "default" | "ignore" | HandlerFn;
    if (handler === "default" || handler === "ignore") h = handler;
    else {
      const f = fn<(h: HandlerFacade) => Gen<void>>(handler, `sigaction(${s}, handler)`);
      h = (th, frame) => f(new HandlerFacade(th as ThreadImpl, threadFacade(th as ThreadImpl), frame));
    }
    let flags = 0;
    let mask: number[] = [];
    if (opts !== undefined) {
      if (opts === null || typeof opts !== "object") throw new TypeError(`sigaction(${s}, handler, opts): expected an object, got ${describe(opts)}`);
      const o = opts as { flags?: unknown; mask?: unknown };
      flags = optNum(o.flags, `sigaction(${s}) flags`) ?? 0;
      mask = o.mask === undefined ? [] : numList(o.mask, `sigaction(${s}) mask`, 64);
    }
    return exposed(this.#th.sigactionFacade(s, h, flags, mask));
  }
  sigprocmask(how: unknown, set: unknown): Gen<number[] | number> {
    return exposed(this.#th.sigprocmask(how3(how, "sigprocmask(how)"), set === null ? (null as unknown as number[]) : numList(set, "sigprocmask(set)", 64)));
  }
  sigpending(): Gen<number[]> {
    return exposed(this.#th.sigpending());
  }
  sigsuspend(mask: unknown): Gen<number> {
    return exposed(this.#th.sigsuspend(numList(mask, "sigsuspend(mask)", 64)));
  }
  sigtimedwait(set: unknown, timeoutNs?: unknown): Gen<object | number> {
    return exposed(this.#th.sigtimedwait(numList(set, "sigtimedwait(set)", 64), optNum(timeoutNs, "sigtimedwait(timeoutNs)")));
  }
  sigaltstack(size: unknown): Gen<number> {
    return exposed(this.#th.sigaltstack(num(size, "sigaltstack(size)")));
  }
  pipe(): Gen<[number, number]> {
    return exposed(this.#th.pipe());
  }
  open(path: unknown): Gen<number> {
    return exposed(this.#th.open(str(path, "open(path)", 256)));
  }
  read(fd: unknown, bytes: unknown): Gen<number> {
    return exposed(this.#th.read(num(fd, "read(fd)"), num(bytes, "read(bytes)")));
  }
  write(fd: unknown, bytes: unknown): Gen<number> {
    return exposed(this.#th.write(num(fd, "write(fd)"), num(bytes, "write(bytes)")));
  }
  close(fd: unknown): Gen<number> {
    return exposed(this.#th.close(num(fd, "close(fd)")));
  }
  fcntl(fd: unknown, cmd: unknown, arg: unknown = 0): Gen<number> {
    return exposed(this.#th.fcntl(num(fd, "fcntl(fd)"), num(cmd, "fcntl(cmd)"), num(arg, "fcntl(arg)")));
  }
  select(readFds: unknown, writeFds: unknown, timeoutNs?: unknown): Gen<object | number> {
    return exposed(this.#th.select(numList(readFds, "select(readFds)", 1024), numList(writeFds, "select(writeFds)", 1024), optNum(timeoutNs, "select(timeoutNs)")));
  }
  mmap(bytes: unknown, prot: unknown): Gen<number> {
    return exposed(this.#th.mmap(num(bytes, "mmap(bytes)"), num(prot, "mmap(prot)")));
  }
  mprotect(addr: unknown, bytes: unknown, prot: unknown): Gen<number> {
    return exposed(this.#th.mprotect(num(addr, "mprotect(addr)"), num(bytes, "mprotect(bytes)"), num(prot, "mprotect(prot)")));
  }
  munmap(addr: unknown, bytes: unknown): Gen<number> {
    return exposed(this.#th.munmap(num(addr, "munmap(addr)"), num(bytes, "munmap(bytes)")));
  }
  fork(child: unknown): Gen<number> {
    return exposed(this.#th.fork(bodyOf(child, "fork(child)")));
  }
  clone(body: unknown): Gen<number> {
    return exposed(this.#th.clone(bodyOf(body, "clone(body)")));
  }
  wait(): Gen<{ pid: number; status: number } | number> {
    return exposed(this.#th.wait());
  }
  waitpid(pid: unknown, options: unknown = 0): Gen<{ pid: number; status: number } | number> {
    return exposed(this.#th.waitpid(num(pid, "waitpid(pid)"), num(options, "waitpid(options)")));
  }
  ptrace(request: unknown, pid: unknown = 0, addr: unknown = 0, data: unknown = 0): Gen<unknown> {
    const req = num(request, "ptrace(request)");
    // PTRACE_SETREGS: the registers are copied out of the workload's object here (__get_user)
    const regs = req === PTRACE_SETREGS_NR ? userRegsIn(data) : undefined;
    const d = regs ? 0 : num(data, "ptrace(request, pid, addr, data)");
    return exposed(this.#th.ptrace(req, num(pid, "ptrace(request, pid)"), num(addr, "ptrace(request, pid, addr)"), d, regs));
  }
  exit(code: unknown = 0): Gen<never> {
    return exposed(this.#th.exit(num(code, "exit(code)")));
  }
  nanosleep(ns: unknown): Gen<number> {
    return exposed(this.#th.nanosleep(num(ns, "nanosleep(ns)")));
  }
  syscall(nr: unknown, ...args: unknown[]): Gen<unknown> {
    const n = num(nr, "syscall(nr)");
    return exposed(this.#th.syscall(n, ...(plainData(args, `syscall(${n}, ...args)`, this.#th.shared.userStructs) as unknown[])));
  }

  // ---- memory ---------------------------------------------------------------------------------
  store(addr: unknown, value: unknown = 0): Gen<void> {
    return exposed(this.#th.store(num(addr, "store(addr)"), num(value, "store(addr, value)")));
  }
  load(addr: unknown): Gen<number> {
    return exposed(this.#th.load(num(addr, "load(addr)")));
  }

  // ---- non-local jumps --------------------------------------------------------------------------
  setjmp(body: unknown, saveMask: unknown = false): Gen<{ jumped: boolean; value: unknown }> {
    const b = fn<(jb: object) => Gen<unknown>>(body, "setjmp(body)");
    return exposed(this.#th.setjmp(b, saveMask === true));
  }
  longjmp(jb: unknown, value: unknown = 1): never {
    return this.#th.longjmp(jb as object, num(value, "longjmp(jb, value)"));
  }

  // ---- reporting --------------------------------------------------------------------------------
  report(name: unknown, value: unknown, unit: unknown): void {
    this.#th.report(name as string, value as number, unit as string);
  }
  sample(name: unknown, value: unknown): void {
    this.#th.sample(name as string, value as number);
  }
  mark(label: unknown): void {
    this.#th.mark(str(label, "mark(label)", 200));
  }
  loopBegin(name: unknown): void {
    this.#th.loopBegin(str(name, "loopBegin(name)", 200));
  }
  loopEnd(name: unknown, count: unknown, opts: unknown = undefined): void {
    const what = "loopEnd(name, count, opts)";
    const n = str(name, "loopEnd(name)", 200);
    const c = num(count, "loopEnd(count)");
    if (opts !== undefined && (opts === null || typeof opts !== "object")) throw new TypeError(`${what}: opts must be an object, got ${describe(opts)}`);
    const overhead = opts === undefined ? undefined : (opts as { overhead?: unknown }).overhead;
    this.#th.loopEnd(n, c, overhead === undefined ? undefined : str(overhead, "loopEnd(opts.overhead)", 200));
  }
  progress(fraction: unknown): void {
    this.#th.progress(num(fraction, "progress(fraction)"));
  }
  log(...args: unknown[]): void {
    this.#th.log(...args);
  }
}

/** What a signal handler receives (api/siglab.d.ts HandlerContext): the thread plus sig, info, frame. */
export class HandlerFacade extends ThreadFacade {
  readonly #frame: SignalFrameK;
  // made on first read: most handlers read neither (one frozen copy and one view less per delivery)
  #info: Readonly<Record<string, number>> | null | undefined = undefined;
  #view: FrameView | undefined = undefined;
  constructor(th: ThreadImpl, thread: ThreadFacade, frame: SignalFrameK) {
    super(th, thread);
    this.#frame = frame;
    Object.freeze(this);
  }
  get sig(): number {
    return this.#frame.sig;
  }
  /** siginfo as the kernel wrote it at delivery (a copy: the handler cannot change the kernel's) */
  get info(): Readonly<Record<string, number>> | null {
    if (this.#info === undefined) this.#info = this.#frame.info ? Object.freeze({ ...this.#frame.info }) : null;
    return this.#info;
  }
  get frame(): FrameView {
    return (this.#view ??= new FrameView(this.#frame));
  }
}

/** The classes workload code can reach (QuickCall: what t.getpid() and t.kill() return); hardened once by the host after lockdown. */
export const FACADE_CLASSES = [ThreadFacade, HandlerFacade, FrameView, FpuFacade, RegsFacade, LibcFacade, PthreadFacade, QuickCall, SchedYieldCall] as const;
