/**
 * Linux 2.4 i386 FPU handling (arch/i386/kernel/i387.c, traps.c): lazy switching through CR0.TS and
 * #NM, and the signal-frame save/restore with the FXSR <-> i387 conversion.
 */
import { op, type PathDef } from "../../../exec/path.js";

export const FPU_PATHS: PathDef[] = [
  {
    name: "unlazy_fpu.fxsave",
    phase: "signal.fpu_save",
    ops: [
      op("save_init_fpu", "fxsave", 1, "asm volatile(\"fxsave %0 ; fnclex\") into tsk->thread.i387.fxsave"),
      op("save_init_fpu", "fnclex", 1),
      op("save_init_fpu", "alu", 1, "tsk->flags &= ~PF_USEDFPU"),
      op("stts", "read_cr0", 1),
      op("stts", "write_cr0", 1, "CR0.TS = 1 (serializing)"),
    ],
  },
  {
    name: "unlazy_fpu.fnsave",
    phase: "signal.fpu_save",
    ops: [
      op("save_init_fpu", "fsave", 1, "fnsave %0 ; fwait (no FXSR)"),
      op("save_init_fpu", "fwait", 1),
      op("save_init_fpu", "alu", 1),
      op("stts", "read_cr0", 1),
      op("stts", "write_cr0", 1),
    ],
  },
  {
    name: "save_i387",
    phase: "signal.fpu_save",
    ops: [
      op("save_i387", "alu", 3, "if (!current->used_math) return 0; current->used_math = 0; cpu_has_fxsr?"),
      op("save_i387_fxsave", "alu", 2, "unlazy_fpu(tsk): test PF_USEDFPU"),
    ],
  },
  {
    name: "convert_fxsr_to_user",
    phase: "signal.fpu_save",
    ops: [
      op("convert_fxsr_to_user", "alu", 6, "env[0..6]: cw/sw widened, fip, fcs|fop<<16, foo, fos"),
      op("twd_fxsr_to_i387", "alu", 4, "loop setup; per-register classification is in fxsr_convert_reg"),
      op("convert_fxsr_to_user", "copy_user_setup", 1, "__copy_to_user(buf, env, 7 * sizeof(long))"),
      op("convert_fxsr_to_user", "copy_user_line", 1),
      op("save_i387_fxsave", "put_user", 2, "__put_user(tsk->thread.i387.fxsave.swd, &buf->status); magic = X86_FXSR_MAGIC"),
      op("save_i387_fxsave", "copy_user_setup", 1, "__copy_to_user(&buf->_fxsr_env[0], &fxsave, 512)"),
    ],
  },
  {
    name: "fxsr_reg_to_user",
    phase: "signal.fpu_save",
    ops: [
      op("twd_fxsr_to_i387", "fxsr_convert_reg", 1, "classify st(i): valid / zero / special / empty"),
      op("convert_fxsr_to_user", "copy_user_setup", 1, "__copy_to_user(to, from, sizeof(*to)) — 10 bytes"),
      op("convert_fxsr_to_user", "copy_user_line", 1),
    ],
  },
  {
    name: "save_i387_fsave",
    phase: "signal.fpu_save",
    ops: [
      op("save_i387_fsave", "put_user", 1, "__put_user(tsk->thread.i387.fsave.swd, &buf->status)"),
      op("save_i387_fsave", "copy_user_setup", 1, "__copy_to_user(buf, &fsave, 112)"),
    ],
  },
  {
    name: "restore_i387",
    phase: "signal.fpu_restore",
    ops: [
      op("restore_i387", "alu", 3, "cpu_has_fxsr?; verify_area(VERIFY_READ, buf)"),
      op("clear_fpu", "alu", 1, "if (tsk->flags & PF_USEDFPU)"),
    ],
  },
  {
    name: "clear_fpu",
    phase: "signal.fpu_restore",
    ops: [
      op("clear_fpu", "fwait", 1, "asm volatile(\"fwait\") — the handler's live FPU state is discarded"),
      op("clear_fpu", "alu", 1, "tsk->flags &= ~PF_USEDFPU"),
      op("stts", "read_cr0", 1),
      op("stts", "write_cr0", 1),
    ],
  },
  {
    name: "restore_i387_fxsave",
    phase: "signal.fpu_restore",
    ops: [
      op("restore_i387_fxsave", "copy_user_setup", 1, "__copy_from_user(&fxsave, &buf->_fxsr_env[0], 512)"),
      op("restore_i387_fxsave", "alu", 1, "fxsave.mxcsr &= 0xffbf (security)"),
      op("convert_fxsr_from_user", "copy_user_setup", 1, "__copy_from_user(env, buf, 7 * sizeof(long))"),
      op("convert_fxsr_from_user", "copy_user_line", 1),
      op("convert_fxsr_from_user", "alu", 6, "cwd/swd/fip/fcs/fop/foo/fos"),
      op("restore_i387", "store", 1, "current->used_math = 1"),
    ],
  },
  {
    name: "fxsr_reg_from_user",
    phase: "signal.fpu_restore",
    ops: [
      op("twd_i387_to_fxsr", "fxsr_convert_reg", 1),
      op("convert_fxsr_from_user", "copy_user_setup", 1, "__copy_from_user(to, from, sizeof(*from)) — 10 bytes"),
      op("convert_fxsr_from_user", "copy_user_line", 1),
    ],
  },
  {
    name: "restore_i387_fsave",
    phase: "signal.fpu_restore",
    ops: [
      op("restore_i387_fsave", "copy_user_setup", 1, "__copy_from_user(&fsave, buf, 108)"),
      op("restore_i387", "store", 1, "current->used_math = 1"),
    ],
  },
  {
    name: "device_not_available",
    phase: "fpu.nm_trap",
    ops: [
      op("#NM", "exception_entry", 1, "trap gate, vector 7"),
      op("device_not_available", "push", 1, "pushl $-1"),
      op("SAVE_ALL", "alu", 1),
      op("SAVE_ALL", "push", 9),
      op("SAVE_ALL", "mov_sreg", 2),
      op("GET_CURRENT", "alu", 2),
      op("device_not_available", "read_cr0", 1, "movl %cr0,%eax; testl $0x4,%eax (EM)"),
      op("device_not_available", "call", 1, "call SYMBOL_NAME(math_state_restore)"),
      op("math_state_restore", "clts", 1, "Allow maths ops (or we recurse)"),
      op("math_state_restore", "alu", 2, "if (current->used_math)"),
    ],
  },
  {
    name: "restore_fpu.fxrstor",
    phase: "fpu.nm_trap",
    ops: [op("restore_fpu", "fxrstor", 1, "fxrstor tsk->thread.i387.fxsave")],
  },
  {
    name: "restore_fpu.frstor",
    phase: "fpu.nm_trap",
    ops: [op("restore_fpu", "frstor", 1)],
  },
  {
    name: "init_fpu",
    phase: "fpu.nm_trap",
    ops: [
      op("init_fpu", "fninit", 1, "__asm__(\"fninit\")"),
      op("init_fpu", "fxrstor", 1, "load_mxcsr(0x1f80) via the init image (FXSR CPUs)"),
      op("init_fpu", "store", 1, "current->used_math = 1"),
    ],
  },
  {
    name: "init_fpu.nofxsr",
    phase: "fpu.nm_trap",
    ops: [op("init_fpu", "fninit", 1), op("init_fpu", "store", 1)],
  },
  {
    name: "math_state_restore.exit",
    phase: "fpu.nm_trap",
    ops: [op("math_state_restore", "store", 1, "current->flags |= PF_USEDFPU"), op("ret_from_exception", "alu", 1)],
  },
  {
    name: "user_fp_op",
    phase: "user",
    ops: [op("user code", "fp_op", 1)],
  },
];
