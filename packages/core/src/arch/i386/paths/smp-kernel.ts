/**
 * The same kernel compiled with CONFIG_SMP: every lock and atomic a path takes becomes a
 * `lock`-prefixed read-modify-write (include/asm-i386/spinlock.h, rwlock.h, atomic.h, bitops.h,
 * semaphore.h: LOCK is empty on UP). The UP paths name their locks in their notes; this pass adds,
 * after each such op, one locked_op per acquisition it names. Unlocks of plain spinlocks are a
 * `movb $1` (no lock prefix); read/write unlocks are locked.
 */
import { op, type OpLine, type PathDef } from "../../../exec/path.js";

/** Lock and atomic operations that are lock-prefixed on SMP, as the paths' notes name them. */
const LOCKED = /\b(?:(?:spin_lock(?:_irq(?:save)?)?|(?:read|write)_(?:un)?lock(?:_irq(?:save)?)?|wq_(?:read|write)_lock(?:_irqsave)?|atomic_(?:inc|dec|add|sub|set_mask|clear_mask|dec_and_test|dec_and_lock)|(?<!__)(?:test_and_)?(?:set|clear)_bit|lock_kernel|task_lock|down_interruptible|down_trylock)\b|(?:down|up)\s*\()/g;

/** Phases of user-space code: their locked ops are explicit already and are not the kernel's. */
const USER_PHASES = new Set(["user", "libc", "signal.handler"]);

/** How many lock-prefixed operations an op's note names (0 if none). */
export function lockedOpsNamed(note: string | undefined): string[] {
  if (!note) return [];
  return [...note.matchAll(LOCKED)].map((m) => m[0].replace(/\s*\($/, ""));
}

/** The path as CONFIG_SMP compiles it (unchanged when it takes no lock). */
export function smpKernelPath(def: PathDef): PathDef {
  if (USER_PHASES.has(def.phase)) return def;
  let changed = false;
  const ops: OpLine[] = [];
  for (const l of def.ops) {
    ops.push(l);
    const named = lockedOpsNamed(l.note);
    if (!named.length || l.op === "locked_op") continue;
    changed = true;
    ops.push(op(l.fn, "locked_op", named.length, `CONFIG_SMP: ${named.join(", ")} lock-prefixed`));
  }
  return changed ? { ...def, ops } : def;
}
