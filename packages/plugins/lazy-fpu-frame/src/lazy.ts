/**
 * Deferred FP save at signal delivery (Jamie Lokier's TS idea; Andi Kleen's unmapped-page variant).
 *
 * Delivery writes nothing: the interrupted FP state stays parked where it is (the registers, with
 * CR0.TS set, or thread.i387) and a record is pushed on a per-task stack. The first #NM while a
 * record is on top and untrapped saves the parked state into that record's frame area and gives
 * the FPU instruction an initialised FPU. sigreturn takes a
 * record off: if it was saved, restore_i387 loads the frame's image (sc->fpstate); otherwise the
 * state never left and is simply handed back.
 *
 * "ts" knows only depth: sigreturn pops the top record, whatever longjmp did to the user stack.
 * "unmapped-page" also unmaps the page the frame's FP area points at (one page per nesting level,
 * in a per-task region), so any touch of the area — the handler reading or editing fpstate —
 * faults and forces the save; and since every record is its page, sigreturn finds the record of
 * its own frame and drops those a longjmp abandoned.
 */
import {
  FP_FRAME_BYTES_FSAVE,
  FP_FRAME_BYTES_FXSR,
  PAGE_SIZE as PAGE,
  SEGV_MAPERR,
  stateKey,
  type FpuRegs,
  type FpuTrapHook,
  type Kernel,
  type PageFaultHook,
  type SigAction,
  type SignalFpuPolicy,
  type SignalFrame,
  type Task,
} from "@siglab/plugin-api";

export type LazyMode = "ts" | "unmapped-page";

const PROT_RW = 3;

/** One delivery's parked FP state. */
export interface LazyRecord {
  frame: SignalFrame;
  /** the frame's FP area now holds the parked state */
  saved: boolean;
  /** the handler has been given its fresh FPU (the #NM of its first FP instruction) */
  trapped: boolean;
  /** unmapped-page: the area's address and whether its page is mapped */
  addr: number;
  mapped: boolean;
}

/** per task: the records of the deliveries whose FP state is parked, innermost last */
const RECORDS = stateKey("lazy-fpu-frame.records", (): LazyRecord[] => []);
/** per task (unmapped-page): the FP area pages, one per nesting level */
const PAGES = stateKey("lazy-fpu-frame.pages", (): number[] => []);
/** per frame: this delivery parked the FP state (sigreturn has a record to take off) */
const PARKED = stateKey("lazy-fpu-frame.parked", () => false);
/** per run: what a reserved, never-written FP area reads as */
const UNWRITTEN = stateKey<FpuRegs | null>("lazy-fpu-frame.unwritten", () => null);

function unwritten(k: Kernel): FpuRegs {
  let f = k.peekSlot(UNWRITTEN);
  if (!f) {
    f = k.fpu.blank();
    f.fcw = 0;
    f.mxcsr = 0;
    k.setSlot(UNWRITTEN, f);
  }
  return f;
}

export function recordsOf(t: Task): LazyRecord[] {
  return t.slot(RECORDS);
}

/** The parked state is live in the registers (TS set over it), not in thread.i387. */
function parkedInRegs(k: Kernel, t: Task): boolean {
  return k.cpu.fpuOwner === t && t.usedFpu;
}

export class LazyFrameFpu implements SignalFpuPolicy, FpuTrapHook, PageFaultHook {
  readonly id: string;
  constructor(readonly mode: LazyMode) {
    this.id = `lazy-fpu-frame:${mode}`;
  }

  // ---- delivery -------------------------------------------------------------------------------

  saveToFrame(k: Kernel, t: Task, frame: SignalFrame, _ka: SigAction): void {
    k.run("save_i387.lazy");
    if (!t.usedMath) {
      frame.fpstate = null; // never used the FPU: no image, no record (as 2.4)
      return;
    }
    if (parkedInRegs(k, t) && !k.cpu.TS) {
      k.run("lazy_fp.park");
      k.cpu.TS = true;
    }
    // used_math stays 1: thread.i387 / the registers still hold a real FP context (the parked one);
    // the record on top, not used_math, tells the #NM handler to hand the handler a fresh FPU
    frame.fpImage = k.fpu.take(unwritten(k));
    const stack = recordsOf(t);
    const rec: LazyRecord = { frame, saved: false, trapped: false, addr: 0, mapped: true };
    if (this.mode === "unmapped-page") this.unmapArea(k, t, rec, stack.length);
    stack.push(rec);
    frame.setSlot(PARKED, true);
    k.count("lazy_fpu.parked");
  }

  /** One page per nesting level, in a region of the task's address space reserved on first use. */
  private unmapArea(k: Kernel, t: Task, rec: LazyRecord, depth: number): void {
    const pages = t.slot(PAGES);
    while (pages.length <= depth) pages.push(t.mm.mmapAnon(PAGE, PROT_RW));
    rec.addr = pages[depth]!;
    k.run("lazy_fp.unmap");
    t.mm.pages.delete(rec.addr >>> 12);
    rec.mapped = false;
    k.count("lazy_fpu.unmaps");
    // the PTE changed: on SMP every other CPU running this mm must drop the page (a shootdown on
    // the signal path, the hazard the 2002 thread named for this design)
    const ipis = k.mm.flush_tlb_page?.(t, rec.addr) ?? 0;
    if (ipis > 0) {
      k.count("lazy_fpu.tlb_shootdowns");
      k.report({
        kind: "lazy-fpu-tlb-shootdown",
        severity: "warning",
        message: `unmapping the FP page of a signal frame of task ${t.pid} needed a TLB shootdown: ${ipis} other CPU(s) run this address space, and the sender waits for each to flush (on every signal)`,
        evidence: { task: t.pid, cpus: ipis, cycle: k.cycles },
      });
    }
    // the handler's (or libc's) first touch of frame->fpstate faults: model the access through a getter
    const proto = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(rec.frame), "fpstate")!;
    Object.defineProperty(rec.frame, "fpstate", {
      configurable: true,
      enumerable: true,
      get: () => {
        if (k.cpu.cpl === 3 && !rec.mapped) this.userTouch(k, t, rec);
        return proto.get!.call(rec.frame);
      },
      set: (v) => proto.set!.call(rec.frame, v),
    });
  }

  /** A user access to an unmapped FP page: #PF, our hook saves and maps, the access is retried. */
  private userTouch(k: Kernel, t: Task, rec: LazyRecord): void {
    const cpl = k.cpu.cpl;
    k.mm.do_page_fault(t, rec.addr, false, SEGV_MAPERR);
    // ret_from_exception; the exit work check is not run from inside a memory access
    k.run("ret_from_exception");
    if (k.cpu.IF === 0) k.run("iret_sti");
    k.run("restore_all");
    k.cpu.cpl = cpl;
  }

  // ---- the save, on #NM or #PF ------------------------------------------------------------------

  /** Save the parked state into the record's frame area (mapping the page first if needed). */
  private saveParked(k: Kernel, t: Task, rec: LazyRecord): void {
    if (!rec.mapped) this.remap(k, t, rec);
    if (parkedInRegs(k, t)) {
      // from #PF the kernel must clts to fxsave, and set TS again: the registers are no longer live
      const ts = k.cpu.TS;
      if (ts) k.run("lazy_fp.clts");
      k.run(k.profile.features.fxsr ? "lazy_fp.fxsave" : "lazy_fp.fnsave");
      t.fpu.copyFrom(k.cpu.fpu);
      if (!k.profile.features.fxsr) k.cpu.fpu.init(); // fnsave reinitialises the FPU
      t.usedFpu = false;
      k.cpu.fpuOwner = null;
      if (ts) k.run("lazy_fp.park");
    }
    const line = k.profile.cacheLineBytes;
    if (k.profile.features.fxsr) {
      k.run("convert_fxsr_to_user");
      k.runN("fxsr_reg_to_user", 8);
      k.runN("copy.signal.fpu_save", Math.ceil(512 / line));
      k.count("bytes.copied", FP_FRAME_BYTES_FXSR);
    } else {
      k.run("save_i387_fsave");
      k.runN("copy.signal.fpu_save", Math.ceil(FP_FRAME_BYTES_FSAVE / line));
      k.count("bytes.copied", FP_FRAME_BYTES_FSAVE);
    }
    writeArea(k, rec.frame, t.fpu);
    rec.saved = true;
    k.count("lazy_fpu.saves");
  }

  private remap(k: Kernel, t: Task, rec: LazyRecord): void {
    k.run("lazy_fp.remap");
    t.mm.pages.set(rec.addr >>> 12, PROT_RW);
    rec.mapped = true;
  }

  /** #NM: the first FPU instruction of a handler whose record is on top. */
  onDeviceNotAvailable(k: Kernel, t: Task): boolean {
    const stack = recordsOf(t);
    const top = stack[stack.length - 1];
    if (!top || top.trapped) return false; // math_state_restore as usual
    k.run("device_not_available"); // entry, clts
    k.run("lazy_fp.nm_save");
    k.cpu.TS = false;
    if (!top.saved) this.saveParked(k, t, top);
    // the handler starts with an initialised FPU
    k.run(k.profile.features.fxsr ? "init_fpu" : "init_fpu.nofxsr");
    k.cpu.fpu.init();
    k.cpu.TS = false;
    k.cpu.fpuOwner = t;
    t.usedFpu = true;
    t.usedMath = true;
    k.run("math_state_restore.exit");
    top.trapped = true;
    k.count("lazy_fpu.nm_saves");
    return true;
  }

  /** #PF on a lazy FP page (unmapped-page mode): force the save of the record that owns it. */
  onPageFault(k: Kernel, t: Task, addr: number, _write: boolean): boolean {
    if (this.mode !== "unmapped-page") return false;
    const stack = recordsOf(t);
    const page = addr >>> 12;
    for (let i = stack.length - 1; i >= 0; i--) {
      const rec = stack[i]!;
      if (rec.mapped || rec.addr >>> 12 !== page) continue;
      k.run("lazy_fp.fault");
      if (rec.saved) this.remap(k, t, rec);
      else this.saveParked(k, t, rec);
      k.count("lazy_fpu.fault_saves");
      return true;
    }
    return false;
  }

  // ---- sigreturn ----------------------------------------------------------------------------------

  restoreFromFrame(k: Kernel, t: Task, frame: SignalFrame): void {
    if (!frame.peekSlot(PARKED)) return; // no FP image (never-used FPU at delivery)
    k.run("restore_i387.lazy");
    const rec = this.mode === "ts" ? this.popTop(k, t, frame) : this.popOwn(k, t, frame);
    if (!rec) return;
    if (rec.saved) this.restoreSaved(k, t, frame);
    else this.unpark(k, t);
    if (!rec.mapped) this.remap(k, t, rec);
  }

  /** ts: the kernel only knows "one handler deeper": sigreturn pops the top record, whichever frame it was pushed for. */
  private popTop(k: Kernel, t: Task, frame: SignalFrame): LazyRecord | undefined {
    const rec = recordsOf(t).pop();
    if (rec) k.count("lazy_fpu.popped");
    if (rec && rec.frame !== frame) k.count("lazy_fpu.foreign_pops"); // invisible to the kernel; the simulator counts it
    return rec;
  }

  /**
   * unmapped-page: every record is its page, so sigreturn finds the record of sc->fpstate and drops
   * the records of frames a longjmp abandoned (those at or below this frame on the stack).
   */
  private popOwn(k: Kernel, t: Task, frame: SignalFrame): LazyRecord | undefined {
    const stack = recordsOf(t);
    const own = stack.findIndex((r) => r.frame === frame);
    if (own < 0) return undefined;
    const rec = stack[own]!;
    for (let i = stack.length - 1; i >= 0; i--) {
      const r = stack[i]!;
      if (r === rec || r.frame.address > frame.address) continue;
      stack.splice(i, 1);
      if (!r.mapped) this.remap(k, t, r);
      k.count("lazy_fpu.abandoned_records");
    }
    stack.splice(stack.indexOf(rec), 1);
    k.count("lazy_fpu.popped");
    return rec;
  }

  /** restore_i387 from the frame being returned from (sc->fpstate): the 2.4 code. */
  private restoreSaved(k: Kernel, t: Task, frame: SignalFrame): void {
    k.fpu.restore_i387(t, frame);
  }

  /**
   * The parked state never left (as far as the record says): it is in the registers behind TS, or
   * in thread.i387. The interrupted context owns it again.
   */
  private unpark(k: Kernel, t: Task): void {
    t.usedMath = true;
    if (parkedInRegs(k, t) && k.cpu.TS) {
      k.run("lazy_fp.unpark");
      k.cpu.TS = false;
    }
  }
}

/** The kernel writes `src` into the frame's FP area (in place, if the handler already holds a view of it). */
function writeArea(k: Kernel, frame: SignalFrame, src: FpuRegs): void {
  if (frame.fpImage) frame.fpImage.copyFrom(src);
  else frame.fpImage = k.fpu.take(src);
  const view = frame.materialisedView();
  if (!view) return;
  const s = k.fpu.fpstateFromRegs(src);
  view.cw = s.cw;
  view.sw = s.sw;
  view.tag = s.tag;
  view.magic = s.magic;
  for (let i = 0; i < 8; i++) view.st[i] = s.st[i]!;
  if (s.mxcsr !== undefined) view.mxcsr = s.mxcsr;
  // in place: the handler's view of the frame reads these very arrays
  if (s.xmm && view.xmm) for (let i = 0; i < s.xmm.length; i++) for (let l = 0; l < s.xmm[i]!.length; l++) view.xmm[i]![l] = s.xmm[i]![l]!;
  frame.original.fpstate = k.fpu.cloneFpstate(view);
}
