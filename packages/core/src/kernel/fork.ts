/**
 * Making a task (kernel/fork.c do_fork, arch/i386/kernel/process.c copy_thread): the task_struct
 * copied from the parent, its mm shared (CLONE_VM) or copied, its signal handlers shared
 * (CLONE_SIGHAND) or copied, the registers and, when the parent used the FPU, its i387 state.
 */
import { filesOf } from "../fs/file.js";
import { AddressSpace, loopPages, STACK_TOP } from "../machine/memory.js";
import type { KernelCore } from "./core.js";
import { pathRefs } from "./path-refs.js";
import { flush_tlb_mm } from "./smp.js";
import type { SignalFrameK } from "../arch/i386/sigframe.js";
import { SignalStruct, Task } from "./task.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["copy_mm", "copy_page_range.pte", "do_fork", "dup_mmap.flush_tlb_mm"]);

export interface CloneFlags {
  /** CLONE_VM: share the parent's address space */
  shareVm: boolean;
  /** CLONE_SIGHAND: share the parent's signal handlers */
  shareSighand: boolean;
  name: string;
}

/** do_fork's new task_struct (2.6 calls this part copy_process); the first task when `parent` is null. */
export function copy_process(k: KernelCore, parent: Task | null, opts: CloneFlags): Task {
  const pid = k.nextPid++;
  const mm = parent ? (opts.shareVm ? parent.mm : parent.mm.cloneInto(k.newAsid())) : new AddressSpace<SignalFrameK>(k.newAsid());
  if (parent && opts.shareVm) mm.users++;
  const sig = parent ? (opts.shareSighand ? parent.sig : parent.sig.clone()) : new SignalStruct();
  const t = new Task(pid, opts.shareVm && parent ? parent.tgid : pid, parent ? parent.pid : 0, mm, sig, opts.name);
  // alloc_task_struct(): its 8 KB task_union, and a new signal_struct's page (footprint.ts)
  t.mem = k.foot.task(opts.name);
  sig.mem ??= k.foot.signalStruct();
  t.counter = k.config.timesliceTicks;
  t.processor = k.cpu.id; // copied from the parent's task_struct
  if (parent) {
    t.blocked.set(parent.blocked);
    t.cpusAllowed = parent.cpusAllowed; // do_fork's *p = *current: the affinity is inherited
    t.regs.copyFrom(parent.regs);
    t.usedMath = parent.usedMath;
    if (parent.usedMath) {
      // copy_thread: the child's i387 area is the parent's current state (unlazy_fpu first)
      const live = k.cpu.fpuOwner === parent && parent.usedFpu ? k.cpu.fpu : parent.fpu;
      t.fpu.copyFrom(live);
    }
    parent.children.push(t);
    if (opts.shareVm) t.regs.esp = STACK_TOP - 0x100000 * (pid % 32) - 16; // thread stack below the parent's
  }
  // text, GOT, libc's stubs and stack: touched on every pass of the task's loop (memory.ts)
  t.hotPages = loopPages(t.regs.esp);
  k.tasks.set(pid, t);
  return t;
}

/**
 * sys_fork (arch/i386/kernel/process.c) -> do_fork: the task_struct, copy_mm -> dup_mmap ->
 * copy_page_range (one PTE each; the writable ones are write-protected in parent and child,
 * AddressSpace.cloneInto), dup_mmap's closing flush_tlb_mm(current->mm), copy_files. Returns the
 * child (the runtime gives it its program).
 */
export function sys_fork(k: KernelCore, t: Task): Task {
  k.runRef(P["do_fork"]);
  k.runRef(P["copy_mm"]);
  k.runNRef(P["copy_page_range.pte"], t.mm.pages.size);
  const c = copy_process(k, t, { shareVm: false, shareSighand: false, name: `${t.name}-child` });
  k.runRef(P["dup_mmap.flush_tlb_mm"]);
  flush_tlb_mm(k, t.mm); // the parent's writable TLB entries must go: its PTEs are read-only now
  c.files = filesOf(t).clone(); // copy_files: the child shares the open files
  return c;
}

/** sys_clone (CLONE_VM | CLONE_SIGHAND | CLONE_FILES: a LinuxThreads thread) -> do_fork. Returns the child. */
export function sys_clone(k: KernelCore, t: Task): Task {
  k.runRef(P["do_fork"]);
  const c = copy_process(k, t, { shareVm: true, shareSighand: true, name: `${t.name}-thread` });
  c.files = t.files;
  return c;
}
