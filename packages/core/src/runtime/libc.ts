/**
 * The C library's own code as the runtime models it (glibc: setjmp/siglongjmp, memcpy), run on a
 * runtime thread. The libc *models* a workload picks (glibc 2.2, modern glibc) are libraries.ts's.
 */
import type { Gate } from "../arch/i386/entry.js";
import { isHostThrown, markHostThrown } from "../common/host-thrown.js";
import type { Kernel } from "../kernel/kernel.js";
import { pathRefs } from "../kernel/path-refs.js";
import type { Task } from "../kernel/task.js";
import type { Gen } from "../kernel/yields.js";
import { XMM_LANES } from "../machine/fpu.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["handler.memcpy", "handler.sse_memcpy", "libc.memcpy", "libc.sse_memcpy"]);

/** What libc's code uses of the thread it runs on (ThreadImpl). */
export interface LibcThread {
  readonly kernel: Kernel;
  readonly task: Task;
  readonly gate: Gate;
  /** the run's shared runtime state: the memcpy fill pattern counter */
  readonly shared: { memcpySeq: number };
  sigprocmask(how: 0 | 1 | 2, set: number[]): Gen<number[] | number>;
}

/** Thrown by longjmp; caught by the matching setjmp frame. The kernel never sees it. */
export class LongJmp {
  constructor(readonly jb: object, readonly value: number) {
    markHostThrown(this);
  }
}

/** What setjmp saved; the workload holds only an opaque token for it (see jmpBufs). */
interface JmpBufImpl {
  readonly task: Task;
  readonly esp: number;
  readonly eip: number;
  readonly regs: Record<string, number>;
  readonly mask: number[] | null;
}

/** jmp_buf tokens handed to workload code -> what setjmp saved. */
const jmpBufs = new WeakMap<object, JmpBufImpl>();

/** setjmp / sigsetjmp(env, saveMask) around `body`: its value, or the value a longjmp to the token passed. */
export function* setjmp<T>(th: LibcThread, body: (jb: object) => Gen<T>, saveMask = false): Gen<{ jumped: boolean; value: T | number }> {
  const t = th.task;
  const jb: JmpBufImpl = {
    task: t,
    esp: t.regs.esp,
    eip: t.regs.eip,
    regs: { ebx: t.regs.ebx, esi: t.regs.esi, edi: t.regs.edi, ebp: t.regs.ebp },
    mask: saveMask ? t.blocked.toList() : null,
  };
  const token = Object.freeze(Object.create(null) as object);
  jmpBufs.set(token, jb);
  try {
    const v = yield* body(token);
    return { jumped: false, value: v };
  } catch (e) {
    if (!isHostThrown(e) || !(e instanceof LongJmp) || e.jb !== token) throw e;
    // the callee-saved registers, esp and eip come back from the jmp_buf
    t.regs.ebx = jb.regs["ebx"]!; t.regs.esi = jb.regs["esi"]!; t.regs.edi = jb.regs["edi"]!; t.regs.ebp = jb.regs["ebp"]!;
    t.regs.esp = jb.esp;
    t.regs.eip = jb.eip;
    th.kernel.count("libc.longjmps");
    // siglongjmp restores the mask with a real rt_sigprocmask
    if (jb.mask) yield* th.sigprocmask(2, jb.mask);
    return { jumped: true, value: e.value };
  }
}

/** longjmp / siglongjmp to a token setjmp handed out on this thread. */
export function longjmp(th: LibcThread, token: object, value = 1): never {
  const b = jmpBufs.get(token);
  if (!b || b.task !== th.task) throw new TypeError("longjmp: not a jump buffer of this thread");
  throw new LongJmp(token, value === 0 ? 1 : value);
}

/** libc memcpy of `bytes`: with SSE it uses (and clobbers) xmm0-xmm3. */
export function* memcpy(th: LibcThread, bytes: number, sse: boolean): Gen<void> {
  const k = th.kernel, t = th.task;
  if (!(bytes >= 0)) throw new TypeError(`memcpy(bytes): expected a number >= 0, got ${bytes}`);
  th.gate.checkTurn();
  k.step();
  if (k.interruptDue()) yield* th.gate.common_interrupt();
  const lines = Math.ceil(bytes / k.profile.cacheLineBytes);
  const inHandler = t.handlerDepth > 0;
  if (sse) {
    yield* th.gate.device_not_available();
    k.runN(inHandler ? P["handler.sse_memcpy"] : P["libc.sse_memcpy"], lines);
    // the last 64 bytes copied stay in xmm0-xmm3
    const seq = ++th.shared.memcpySeq;
    for (let i = 0; i < 4 * XMM_LANES; i++) k.cpu.fpu.xmm[i] = (0x5a5a0000 + seq * 16 + i) >>> 0;
    k.count("libc.sse_memcpy_calls");
  } else {
    k.runN(inHandler ? P["handler.memcpy"] : P["libc.memcpy"], lines);
  }
  k.count("bytes.memcpy", bytes);
  if (k.interruptDue()) yield* th.gate.common_interrupt();
}
