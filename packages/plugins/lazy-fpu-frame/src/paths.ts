/** The kernel paths of the lazy signal-frame FPU save (kernel-paths.md V2, V3). */
import { op, type PathDef } from "@siglab/plugin-api";

export const ORIGIN = "lazy-fpu-frame";

export const LAZY_PATHS: PathDef[] = [
  {
    name: "save_i387.lazy",
    phase: "signal.fpu_save",
    origin: ORIGIN,
    ops: [
      op("save_i387", "alu", 3, "if (!current->used_math) return 0; cpu_has_fxsr"),
      op("save_i387_lazy", "alu", 1, "PF_USEDFPU: the interrupted state stays where it is (registers or thread.i387)"),
      op("save_i387_lazy", "store", 2, "push {frame->fpstate, depth} on current->thread.lazy_fp"),
      op("setup_sigcontext", "put_user", 1, "sc->fpstate = &frame->fpstate: reserved, not written"),
    ],
  },
  {
    name: "lazy_fp.park",
    phase: "signal.fpu_save",
    origin: ORIGIN,
    ops: [op("stts", "read_cr0", 1), op("stts", "write_cr0", 1, "CR0.TS = 1: the handler's first FPU instruction traps (#NM)")],
  },
  {
    name: "lazy_fp.unmap",
    phase: "signal.fpu_save",
    origin: ORIGIN,
    ops: [
      op("lazy_fp_unmap", "alu", 6, "find_vma; split the VMA around this nesting level's FP page (a hole)"),
      op("lazy_fp_unmap", "slab_alloc", 1, "vm_area_struct for the split"),
      op("lazy_fp_unmap", "store", 1, "pte_clear: the FP page is not present"),
      op("__flush_tlb_one", "invlpg", 1, "drop the page's TLB entry (on SMP: an IPI to every CPU running this mm)"),
    ],
  },
  {
    name: "lazy_fp.nm_save",
    phase: "fpu.nm_trap",
    origin: ORIGIN,
    ops: [op("math_state_restore_lazy", "alu", 3, "top lazy record not yet saved: save the parked state into its frame, then init the FPU")],
  },
  {
    name: "lazy_fp.fxsave",
    phase: "signal.fpu_save",
    origin: ORIGIN,
    ops: [op("save_init_fpu", "fxsave", 1, "the parked state, still in the registers, to thread.i387"), op("save_init_fpu", "fnclex", 1)],
  },
  {
    name: "lazy_fp.fnsave",
    phase: "signal.fpu_save",
    origin: ORIGIN,
    ops: [op("save_init_fpu", "fsave", 1, "the parked state, still in the registers, to thread.i387"), op("save_init_fpu", "fwait", 1)],
  },
  {
    name: "lazy_fp.clts",
    phase: "signal.fpu_save",
    origin: ORIGIN,
    ops: [op("clts", "clts", 1, "so that fxsave does not trap")],
  },
  {
    name: "lazy_fp.fault",
    phase: "fault.page_fault",
    origin: ORIGIN,
    ops: [op("do_page_fault", "alu", 4, "the address is a lazy FP page of this task: save the parked state into it, map it, retry")],
  },
  {
    name: "lazy_fp.remap",
    phase: "signal.fpu_save",
    origin: ORIGIN,
    ops: [
      op("lazy_fp_remap", "alu", 4, "merge the VMA back"),
      op("lazy_fp_remap", "store", 1, "set_pte: not present -> present (no TLB flush needed)"),
    ],
  },
  {
    name: "restore_i387.lazy",
    phase: "signal.fpu_restore",
    origin: ORIGIN,
    ops: [
      op("restore_i387_lazy", "store", 1, "pop the top lazy record"),
      op("restore_i387_lazy", "alu", 2, "saved? restore_i387(sc->fpstate) : the parked state is still parked"),
    ],
  },
  {
    name: "lazy_fp.unpark",
    phase: "signal.fpu_restore",
    origin: ORIGIN,
    ops: [op("restore_i387_lazy", "clts", 1, "the interrupted state never left the registers: clear TS again")],
  },
];
