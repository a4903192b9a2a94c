/**
 * ptrace as Linux 2.4 i386 has it: sys_ptrace (arch/i386/kernel/ptrace.c, kernel/ptrace.c), the
 * tracee's stops (syscall_trace on the traced-syscall path of entry.S, the stop in do_signal), and
 * do_notify_parent, which reports a stop to the tracer (SIGCHLD + wake-up of its wait4).
 */
import type { KernelCore } from "./core.js";
import { schedule } from "./sched.js";
import { send_sig_info, ESRCH, EFAULT } from "./signal.js";
import { NSIG, SIGKILL, SIGSTOP } from "./sigset.js";
import type { UserRegs } from "../arch/i386/regs.js";
import type { SigInfoK } from "./siginfo.js";
import { PT_PTRACED, PT_TRACESYS, PT_TRACESYSGOOD, type Task } from "./task.js";

export const PTRACE_TRACEME = 0;
export const PTRACE_PEEKTEXT = 1;
export const PTRACE_PEEKDATA = 2;
export const PTRACE_PEEKUSR = 3;
export const PTRACE_POKETEXT = 4;
export const PTRACE_POKEDATA = 5;
export const PTRACE_POKEUSR = 6;
export const PTRACE_CONT = 7;
export const PTRACE_KILL = 8;
export const PTRACE_SINGLESTEP = 9;
export const PTRACE_GETREGS = 12;
export const PTRACE_SETREGS = 13;
export const PTRACE_ATTACH = 16;
export const PTRACE_DETACH = 17;
export const PTRACE_SYSCALL = 24;
export const PTRACE_SETOPTIONS = 0x4200;
export const PTRACE_O_TRACESYSGOOD = 1;

const EPERM = 1;
const EIO = 5;
export const SIGCHLD = 17;
const SIGTRAP = 5;
/** si_code of do_notify_parent: CLD_TRAPPED (a traced child stopped) */
const CLD_TRAPPED = 4;
/** send_sig(sig, p, 1): a signal from the kernel */
const SI_KERNEL = 0x80;

/** struct user_regs_struct (asm-i386/user.h): the 17 words PTRACE_GETREGS copies, in order (FRAME_SIZE). */
export const USER_REGS = ["ebx", "ecx", "edx", "esi", "edi", "ebp", "eax", "xds", "xes", "xfs", "xgs", "orig_eax", "eip", "xcs", "eflags", "esp", "xss"] as const;
export type UserRegName = (typeof USER_REGS)[number];
export type UserRegsStruct = Record<UserRegName, number>;
const FRAME_SIZE = USER_REGS.length;
/** __USER_CS / __USER_DS (asm-i386/segment.h) */
const USER_CS = 0x23;
const USER_DS = 0x2b;
/** the EFLAGS bits a tracer may change (FLAG_MASK in arch/i386/kernel/ptrace.c) */
const FLAG_MASK = 0x00044dd5;
const TRAP_FLAG = 0x100;
/** sizeof(struct user) on i386: PEEKUSR/POKEUSR offsets must be below it */
const SIZEOF_USER = 284;

/** The tracer a stop is reported to (p_pptr): the tracer while traced, else the parent. */
export function parentOf(k: KernelCore, t: Task): Task | undefined {
  return t.tracer ?? k.tasks.get(t.ppid);
}

/** wake_up_parent: wake the parent's wait4 (wait_chldexit) if it sleeps there. */
export function wake_up_parent(k: KernelCore, p: Task): void {
  k.run("wake_up_parent");
  if (p.waitingOn === "wait4" && p.state === "interruptible") {
    p.wakeReason = "child";
    k.wakeUp(p);
  }
}

/** do_notify_parent for a stop: SIGCHLD (CLD_TRAPPED) to the tracer, and wake its wait4. */
export function notify_parent_stopped(k: KernelCore, t: Task): void {
  const p = parentOf(k, t);
  k.run("do_notify_parent");
  if (!p || p.state === "zombie" || p.state === "dead") return;
  send_sig_info(k, SIGCHLD, { signo: SIGCHLD, errno: 0, code: CLD_TRAPPED, pid: t.pid, value: t.stopCode & 0x7f }, p);
  wake_up_parent(k, p);
}

/** exit_code = code; state = TASK_STOPPED; notify_parent(current, SIGCHLD); schedule() */
function* ptrace_stop(k: KernelCore, t: Task, code: number): Generator<unknown, void, unknown> {
  t.stopCode = code;
  t.stopped = true;
  t.state = "interruptible";
  t.waitingOn = "ptrace stop";
  k.count("ptrace.stops");
  notify_parent_stopped(k, t);
  yield* schedule(k);
}

/**
 * syscall_trace (arch/i386/kernel/ptrace.c): with PT_PTRACED|PT_TRACESYS, stop with SIGTRAP
 * (| 0x80 under PTRACE_O_TRACESYSGOOD) until the tracer continues; a signal it continues with is
 * sent to the tracee (send_sig(exit_code, current, 1)).
 */
export function* syscall_trace(k: KernelCore, t: Task): Generator<unknown, void, unknown> {
  k.run("syscall_trace");
  if ((t.ptrace & (PT_PTRACED | PT_TRACESYS)) !== (PT_PTRACED | PT_TRACESYS)) return;
  k.run("syscall_trace.stop");
  k.count("ptrace.syscall_stops");
  yield* ptrace_stop(k, t, SIGTRAP | (t.ptrace & PT_TRACESYSGOOD ? 0x80 : 0));
  k.run("syscall_trace.resume");
  if (t.stopCode) {
    const sig = t.stopCode;
    t.stopCode = 0;
    send_sig_info(k, sig, { signo: sig, errno: 0, code: SI_KERNEL }, t);
  }
}

/**
 * The stop in do_signal for a traced task (any signal but SIGKILL): let the tracer look, then
 * deliver what it continued with. Returns the signal to act on, or null when there is none (the
 * tracer cancelled it, it is SIGSTOP, or the new signal is blocked and was requeued).
 */
export function* ptrace_signal_stop(k: KernelCore, t: Task, sig: number, info: SigInfoK): Generator<unknown, { sig: number; info: SigInfoK } | null, unknown> {
  k.count("ptrace.signal_stops");
  yield* ptrace_stop(k, t, sig);
  k.run("do_signal.ptrace_resume");
  // "We're back.  Did the debugger cancel the sig?"
  const signr = t.stopCode;
  if (!signr) return null;
  t.stopCode = 0;
  // "The debugger continued.  Ignore SIGSTOP."
  if (signr === SIGSTOP) return null;
  let inf = info;
  if (signr !== info.signo) {
    inf = { signo: signr, errno: 0, code: 0, pid: parentOf(k, t)?.pid ?? 0 };
  }
  // "If the (new) signal is now blocked, requeue it."
  if (t.blocked.has(signr)) {
    send_sig_info(k, signr, inf, t);
    return null;
  }
  return { sig: signr, info: inf };
}

// ---- sys_ptrace -----------------------------------------------------------------------------

/** What PEEK* and GETREGS hand back besides the return value. */
export interface PtraceOut {
  word?: number;
  regs?: UserRegsStruct;
}

/** getreg: one word of the child's user area from the pt_regs on its kernel stack. */
function getreg(r: UserRegs, name: UserRegName): number {
  switch (name) {
    case "xds": case "xes": case "xss": return USER_DS;
    case "xcs": return USER_CS;
    case "xfs": case "xgs": return 0;
    default: return r[name] | 0;
  }
}

/** putreg: the checks of arch/i386/kernel/ptrace.c (segment RPL 3, EFLAGS through FLAG_MASK). */
function putreg(r: UserRegs, name: UserRegName, value: number): number {
  const v = value >>> 0;
  switch (name) {
    case "xfs": case "xgs": case "xds": case "xes":
      return v && (v & 3) !== 3 ? -EIO : 0; // the flat user segments are kept
    case "xcs": case "xss":
      return (v & 3) !== 3 ? -EIO : 0;
    case "eflags":
      r.eflags = ((v & FLAG_MASK) | (r.eflags & ~FLAG_MASK)) >>> 0;
      return 0;
    case "orig_eax":
      r.orig_eax = v | 0;
      return 0;
    default:
      r[name] = v | 0;
      return 0;
  }
}

/** The user-area register at byte offset `addr` (PEEKUSR/POKEUSR), or null past the registers. */
function userRegAt(addr: number): UserRegName | null {
  const i = addr >> 2;
  return i < FRAME_SIZE ? USER_REGS[i]! : null;
}

/** access_process_vm for one word: get_user_pages (force: a read-only page is written too), kmap, copy. */
function access_process_vm(k: KernelCore, child: Task, addr: number, write: boolean, data: number, out: PtraceOut): boolean {
  k.run("access_process_vm");
  if (child.mm.protOf(addr >>> 0) === undefined) return false; // no vma: get_user_pages fails
  if (write) {
    child.mm.words.set(addr >>> 0, data | 0);
    k.count("ptrace.pokes");
  } else {
    out.word = child.mm.words.get(addr >>> 0) ?? 0;
    k.count("ptrace.peeks");
  }
  return true;
}

/** ptrace_check_attach: traced by us and (except for PTRACE_KILL) stopped. */
function ptrace_check_attach(k: KernelCore, me: Task, child: Task, kill: boolean): number {
  k.run("ptrace_check_attach");
  if (!(child.ptrace & PT_PTRACED) || child.tracer !== me) return -ESRCH;
  if (!kill && !child.stopped) return -ESRCH;
  return 0;
}

/** ptrace_attach: checks, PT_PTRACED, reparent to the tracer (REMOVE_LINKS/SET_LINKS), SIGSTOP. */
function ptrace_attach(k: KernelCore, me: Task, child: Task): number {
  k.run("ptrace_attach");
  if (child.pid <= 1 || child === me || child.ptrace & PT_PTRACED) return -EPERM;
  if (child.state === "zombie" || child.state === "dead") return -EPERM; // !task->mm
  child.ptrace |= PT_PTRACED;
  child.tracer = me;
  send_sig_info(k, SIGSTOP, { signo: SIGSTOP, errno: 0, code: SI_KERNEL }, child);
  return 0;
}

/** ptrace_detach: clear TF, ptrace = 0, back to the real parent, wake with `data` as its signal. */
function ptrace_detach(k: KernelCore, child: Task, data: number): number {
  if (data >>> 0 > NSIG) return -EIO;
  k.run("ptrace_detach");
  child.regs.eflags &= ~TRAP_FLAG;
  child.ptrace = 0;
  child.tracer = null;
  child.stopCode = data;
  k.wakeStopped(child);
  return 0;
}

/** PTRACE_SYSCALL / PTRACE_CONT: set or clear PT_TRACESYS, exit_code = data, clear TF, wake. */
function ptrace_resume(k: KernelCore, child: Task, request: number, data: number): number {
  k.run("ptrace_resume");
  if (data >>> 0 > NSIG) return -EIO;
  if (request === PTRACE_SYSCALL) child.ptrace |= PT_TRACESYS;
  else child.ptrace &= ~PT_TRACESYS;
  child.stopCode = data;
  child.regs.eflags &= ~TRAP_FLAG;
  k.wakeStopped(child);
  return 0;
}

/**
 * sys_ptrace(request, pid, addr, data). Returns 0 or -errno; PEEK* put the word and GETREGS the
 * registers in `out` (the kernel's put_user to `data`). `regsIn` is SETREGS's user buffer.
 */
export function sys_ptrace(k: KernelCore, me: Task, request: number, pid: number, addr: number, data: number, out: PtraceOut, regsIn?: Readonly<Partial<UserRegsStruct>>): number {
  k.run("sys_ptrace");
  try {
    if (request === PTRACE_TRACEME) {
      if (me.ptrace & PT_PTRACED) return -EPERM;
      me.ptrace |= PT_PTRACED;
      me.tracer = k.tasks.get(me.ppid) ?? null;
      return 0;
    }
    k.run("find_task_by_pid");
    const child = k.tasks.get(pid);
    if (!child || child.state === "dead") return -ESRCH;
    if (pid === 1) return -EPERM; // "you may not mess with init"
    if (request === PTRACE_ATTACH) return ptrace_attach(k, me, child);
    const ok = ptrace_check_attach(k, me, child, request === PTRACE_KILL);
    if (ok < 0) return ok;
    switch (request) {
      case PTRACE_PEEKTEXT:
      case PTRACE_PEEKDATA:
        if (!access_process_vm(k, child, addr, false, 0, out)) return -EIO;
        k.run("ptrace.put_user");
        return 0;
      case PTRACE_PEEKUSR: {
        if (addr & 3 || addr < 0 || addr > SIZEOF_USER - 3) return -EIO;
        const reg = userRegAt(addr);
        k.run("getreg");
        out.word = reg ? getreg(child.regs, reg) : 0; // the debug registers read as 0 here
        k.run("ptrace.put_user");
        return 0;
      }
      case PTRACE_POKETEXT:
      case PTRACE_POKEDATA:
        return access_process_vm(k, child, addr, true, data, out) ? 0 : -EIO;
      case PTRACE_POKEUSR: {
        if (addr & 3 || addr < 0 || addr > SIZEOF_USER - 3) return -EIO;
        const reg = userRegAt(addr);
        if (!reg) return -EIO; // debug registers are not modelled
        k.run("putreg");
        return putreg(child.regs, reg, data);
      }
      case PTRACE_SYSCALL:
      case PTRACE_CONT:
        return ptrace_resume(k, child, request, data);
      case PTRACE_KILL:
        k.run("ptrace_resume");
        if (child.state === "zombie") return 0;
        child.stopCode = SIGKILL;
        child.regs.eflags &= ~TRAP_FLAG;
        k.wakeStopped(child);
        return 0;
      case PTRACE_DETACH:
        return ptrace_detach(k, child, data);
      case PTRACE_GETREGS: {
        // for (i = 0; i < FRAME_SIZE*sizeof(long); i += sizeof(long)) __put_user(getreg(child, i), data++)
        k.runN("ptrace.getregs_word", FRAME_SIZE);
        const regs = {} as UserRegsStruct;
        for (const name of USER_REGS) regs[name] = getreg(child.regs, name);
        out.regs = regs;
        return 0;
      }
      case PTRACE_SETREGS: {
        if (!regsIn) return -EFAULT;
        k.runN("ptrace.setregs_word", FRAME_SIZE);
        // each word goes through putreg; a bad segment value fails that word only (as 2.4, which ignores putreg's result here)
        for (const name of USER_REGS) {
          const v = regsIn[name];
          putreg(child.regs, name, typeof v === "number" ? v : getreg(child.regs, name));
        }
        return 0;
      }
      case PTRACE_SETOPTIONS:
        if (data & PTRACE_O_TRACESYSGOOD) child.ptrace |= PT_TRACESYSGOOD;
        else child.ptrace &= ~PT_TRACESYSGOOD;
        return 0;
      default:
        return -EIO; // PTRACE_SINGLESTEP and the FP requests are not modelled
    }
  } finally {
    k.run("sys_ptrace.out");
  }
}


/** Exit of a tracer (exit_notify): its tracees go back to their parents, untraced (a stopped one stays stopped, as in 2.4). */
export function forget_tracees(k: KernelCore, tracer: Task): void {
  for (const t of k.tasks.values()) {
    if (t.tracer !== tracer) continue;
    t.tracer = null;
    t.ptrace = 0;
  }
}
