/**
 * The kernel's functions as plugins reach them (the plugin API's SignalFunctions, FpuFunctions,
 * ...): Linux's names, bound to one run's kernel, as a module sees the kernel's EXPORT_SYMBOLs
 * (kernel/ksyms.c in 2.4). Core code calls the functions directly.
 */
import type { FileFunctions, FpuFunctions, MmFunctions, SchedFunctions, SignalFunctions } from "@siglab/plugin-api";
import { flush_tlb_page } from "./smp.js";
import { configureDevice, deviceOf } from "../drivers/siglab-disk.js";
import { cloneFpstate, do_device_not_available, fpstateFromRegs, regsFromFpstate, restore_i387, unlazy_fpu, userFpuView } from "../arch/i386/i387.js";
import type { KernelCore } from "./core.js";
import { SimError } from "./sim-error.js";
import { ownFrame, ownRegs, ownTask } from "./own.js";
import { do_page_fault } from "../arch/i386/mm/fault.js";
import { filesOf } from "../fs/file.js";
import { add_to_runqueue, del_from_runqueue, schedule } from "./sched.js";
import { roundUpToTick } from "./timer.js";
import { dequeue_signal, force_sig_info, send_sig_info } from "./signal.js";

export function signalFunctions(k: KernelCore): SignalFunctions {
  return {
    send_sig_info: (sig, info, t) => send_sig_info(k, sig, info, ownTask(t)),
    force_sig_info: (sig, info, t) => force_sig_info(k, sig, info, ownTask(t)),
    dequeue_signal: (t, mask) => dequeue_signal(k, ownTask(t), mask),
    recalc_sigpending: (t) => k.recalcSigpending(ownTask(t)),
    blockedOf: (t) => k.blockedOf(ownTask(t)),
  };
}

export function fpuFunctions(k: KernelCore): FpuFunctions {
  return {
    unlazy_fpu: (t, pathFxsr, pathFsave) => unlazy_fpu(k, ownTask(t), pathFxsr, pathFsave),
    restore_i387: (t, frame) => restore_i387(k, ownTask(t), ownFrame(frame)),
    do_device_not_available: (t) => do_device_not_available(k, ownTask(t)),
    userFpuView: (t) => userFpuView(k, ownTask(t)),
    fpstateFromRegs: (f) => fpstateFromRegs(k, ownRegs(f)),
    regsFromFpstate: (s, into) => regsFromFpstate(k, s, ownRegs(into)),
    cloneFpstate: (s) => cloneFpstate(s),
    take: (src) => k.fpuPool.take(ownRegs(src)),
    blank: () => {
      const f = k.fpuPool.take(k.cpu.fpu);
      f.init();
      return f;
    },
    give: (f) => k.fpuPool.give(f ? ownRegs(f) : f),
  };
}

export function schedFunctions(k: KernelCore): SchedFunctions {
  return {
    schedule: () => schedule(k),
    wake_up: (t) => k.wakeUp(ownTask(t)),
    add_to_runqueue: (t) => add_to_runqueue(k, ownTask(t)),
    del_from_runqueue: (t) => del_from_runqueue(k, ownTask(t)),
    roundUpToTick: (cycle) => roundUpToTick(k, cycle),
  };
}

export function mmFunctions(k: KernelCore): MmFunctions {
  /** who mapped the run's vDSO (k.setupBy then) */
  let mappedBy = "the core";
  return {
    do_page_fault: (t, addr, write, code) => do_page_fault(k, ownTask(t), addr, write, code),
    flush_tlb_page: (t, addr) => flush_tlb_page(k, ownTask(t).mm, addr),
    setPcid: (on) => {
      if (on && !k.profile.features.pcid) throw new SimError("plugin", `setPcid: CPU profile '${k.profile.id}' has no PCID`);
      k.pcid = on === true;
    },
    setTlbFlushCeiling: (pages) => {
      if (!Number.isInteger(pages) || pages < 0) throw new SimError("plugin", `setTlbFlushCeiling: ${String(pages)} is not a page count (an integer >= 0)`);
      k.tlbFlushCeiling = pages;
    },
    map_vdso: (vdso) => {
      const by = k.setupBy ?? "the core";
      if (k.vdso) throw new SimError("plugin", `${by} maps a vDSO, but ${mappedBy} mapped one ('${String(k.vdso.id)}') already: a run has one vDSO (run one of them without the other)`);
      const f = vdso?.gettimeofday;
      if (typeof f !== "function") throw new SimError("plugin", `${by}: map_vdso: the vDSO must have a gettimeofday(th) generator function`);
      // the function as it was when mapped (a getter cannot swap it later)
      k.vdso = { id: String(vdso.id), gettimeofday: (th) => f.call(vdso, th) };
      mappedBy = by;
    },
  };
}

export function fileFunctions(k: KernelCore): FileFunctions {
  return {
    file: (t, fd) => filesOf(ownTask(t)).get(fd) ?? undefined,
    disk: () => deviceOf(k),
    configureDisk: (cfg, who) => configureDevice(k, cfg, who),
  };
}
