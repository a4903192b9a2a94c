/**
 * What a runtime thread does in user mode, without a system call: work (compute), the TSC, FPU
 * instructions (#NM first while CR0.TS is set), and loads and stores (a TLB refill, or a #PF that
 * the exception return delivers as SIGSEGV before the access is retried). An interrupt due at an
 * instruction boundary is taken there.
 */
import type { Gate } from "../arch/i386/entry.js";
import { user_access } from "../arch/i386/mm/fault.js";
import { EV } from "../kernel/events.js";
import type { Kernel } from "../kernel/kernel.js";
import { pathRefs } from "../kernel/path-refs.js";
import type { Task } from "../kernel/task.js";
import type { Gen } from "../kernel/yields.js";
import { readReg, writeReg } from "../machine/fpu.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["handler.fp_op", "handler.rdtsc", "handler.store", "user.rdtsc", "user.store", "user_fp_op"]);

/** What user-mode code uses of the thread it runs on (ThreadImpl). */
export interface UserModeThread {
  readonly kernel: Kernel;
  readonly task: Task;
  readonly gate: Gate;
}

export function rdtsc(th: UserModeThread): number {
  const k = th.kernel;
  th.gate.checkTurn();
  k.run(th.task.handlerDepth > 0 ? P["handler.rdtsc"] : P["user.rdtsc"]);
  return k.cycles;
}

export function* compute(th: UserModeThread, cycles: number): Gen<void> {
  const k = th.kernel;
  if (!(cycles >= 0) || !Number.isFinite(cycles)) throw new TypeError(`compute(cycles): expected a finite number >= 0, got ${cycles}`);
  th.gate.checkTurn();
  k.step();
  const phase = k.phases.id(th.task.handlerDepth > 0 ? "signal.handler" : "user");
  let left = Math.round(cycles);
  while (left > 0) {
    const chunk = Math.min(left, Math.max(0, k.cyclesToNextEvent()));
    k.ex.chargeRaw(phase, chunk);
    left -= chunk;
    if (k.interruptDue()) yield* th.gate.common_interrupt();
  }
}

/** `n` user FPU instructions: #NM first if CR0.TS is set. */
export function* fpuInstruction(th: UserModeThread, n: number): Gen<void> {
  const k = th.kernel;
  th.gate.checkTurn();
  k.step();
  if (k.interruptDue()) yield* th.gate.common_interrupt();
  yield* th.gate.device_not_available();
  k.runN(th.task.handlerDepth > 0 ? P["handler.fp_op"] : P["user_fp_op"], n);
}

export function* fpuSet(th: UserModeThread, reg: string, value: number | number[]): Gen<void> {
  yield* fpuInstruction(th, 1);
  const k = th.kernel;
  writeReg(k.cpu.fpu, reg, value, Math.min(8, k.profile.xmmRegs), false);
}

export function* fpuGet(th: UserModeThread, reg: string): Gen<number[]> {
  yield* fpuInstruction(th, 1);
  const k = th.kernel;
  if (reg.startsWith("ymm")) throw new TypeError(`'${reg}': AVX state is not enabled by this kernel (Linux 2.4 does not set XCR0)`);
  return readReg(k.cpu.fpu, reg, Math.min(8, k.profile.xmmRegs));
}

export function* store(th: UserModeThread, addr: number, value = 0): Gen<void> {
  const k = th.kernel, t = th.task;
  th.gate.checkTurn();
  for (;;) {
    k.step();
    if (k.interruptDue()) yield* th.gate.common_interrupt();
    k.run(t.handlerDepth > 0 ? P["handler.store"] : P["user.store"]);
    if (user_access(k, t, addr, true)) {
      t.mm.words.set(addr, value);
      // plugins that keep kernel-visible state in user memory (user-sigmask) watch their words
      if (k.events.hasListeners(EV["user.store"])) k.events.fire(EV["user.store"], t, addr);
      return;
    }
    // #PF -> SIGSEGV: the exception return delivers it; then the store is retried
    yield* th.gate.ret_from_exception();
  }
}

export function* load(th: UserModeThread, addr: number): Gen<number> {
  const k = th.kernel, t = th.task;
  th.gate.checkTurn();
  for (;;) {
    k.step();
    if (k.interruptDue()) yield* th.gate.common_interrupt();
    if (user_access(k, t, addr, false)) return t.mm.words.get(addr) ?? 0;
    yield* th.gate.ret_from_exception();
  }
}
