/**
 * linux6: the paths of a Linux 6.x x86-64 kernel (kernel-paths.md §4, §6, §7.2) on the modern
 * CPU profiles: entry_SYSCALL_64 with SYSCALL/SYSRET (IRET when pt_regs changed), the
 * mitigations with the defaults the kernel picks for the CPU (each switchable), XSAVE signal
 * frames sized by the CPU's XSAVE features, eager FPU with the restore deferred to the return to
 * user mode, switch_mm with PCID, the sigaltstack-overflow hazard of large XSAVE frames, the
 * vDSO's gettimeofday (no kernel entry) and CFS (vruntime, skip buddy, wake-up granularity) in
 * place of 2.4's goodness().
 */
import { ContainerModule, TOKENS, type CreateModule, type PluginModule, type ResolvedProfile } from "@siglab/plugin-api";
import manifest from "../plugin.json" with { type: "json" };
import { Syscall64Entry } from "./entry.js";
import { LINUX6_EXAMPLES } from "./examples.js";
import { EagerSwitchFpu, restoreUserRegs, XsaveSignalFpu } from "./fpu.js";
import { resolveMitigations, type Mitigations } from "./mitigations.js";
import { mmTransforms, TLB_SINGLE_PAGE_FLUSH_CEILING } from "./mm.js";
import { linux6Paths, linux6Transforms } from "./paths.js";
import { pipeTransforms } from "./pipe.js";
import { FairScheduler, fairPaths, fairTransforms } from "./sched-fair.js";
import { signalGenTransforms } from "./signal-gen.js";
import { Linux6Vdso, updateVsyscall, vdsoPaths } from "./vdso.js";

export { resolveMitigations, type Mitigations } from "./mitigations.js";
export { sigframeBottom, xsaveChunks } from "./fpu.js";

export const createModule: CreateModule = (options) =>
  new ContainerModule(({ rebind, bind }) => {
    // createModule runs once per run; the per-CPU defaults are resolved when the core checks the
    // CPU (EntryMechanism.checkCpu), which it does before it builds the kernel's paths
    let resolved: Mitigations | null = null;
    const cfg = (): Mitigations => {
      if (!resolved) throw new Error("plugin 'linux6': the kernel's paths were requested before EntryMechanism.checkCpu(profile) ran, so the per-CPU mitigation defaults are unknown");
      return resolved;
    };
    const entry = new Syscall64Entry((p: ResolvedProfile) => (resolved = resolveMitigations(options, p)), cfg);
    rebind(TOKENS.EntryMechanism).toConstantValue(entry);
    rebind(TOKENS.SignalFpuPolicy).toConstantValue(new XsaveSignalFpu());
    rebind(TOKENS.SwitchFpuPolicy).toConstantValue(new EagerSwitchFpu({ rsbFill: () => cfg().rsbFill, ibpb: () => cfg().ibpb }));
    const cfs = options["sched"] !== "2.4";
    const vdso = options["vdso"] !== "off";
    const pipe6 = options["pipe"] !== "2.4";
    // CFS per run: its state lives in the kernel's and tasks' slots, the object holds none
    if (cfs) rebind(TOKENS.Scheduler).toConstantValue(new FairScheduler());
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => [...linux6Paths(cfg()), ...(cfs ? fairPaths() : []), ...(vdso ? vdsoPaths() : [])] });
    bind(TOKENS.PathTransformContribution).toConstantValue({ transforms: () => [...linux6Transforms(cfg()), ...(cfs ? fairTransforms() : []), ...signalGenTransforms(), ...(pipe6 ? pipeTransforms(cfg()) : []), ...mmTransforms(cfg())] });
    bind(TOKENS.KernelSetupContribution).toConstantValue({
      setup: (k) => {
        const m = cfg();
        for (const [key, on] of [["pti", m.pti], ["pcid", m.pcid], ["rsbFill", m.rsbFill], ["ibpb", m.ibpb], ["verw", m.verw], ["retbleedUntrain", m.retbleedUntrain]] as const) {
          if (on) k.count(`linux6.mitigation.${key}`, 1);
        }
        k.count(`linux6.mitigation.spectreV2.${m.spectreV2}`, 1);
        // switch_mm loads CR3 with the next mm's PCID and NOFLUSH: its TLB entries survive
        k.mm.setPcid?.(m.pcid);
        // flush_tlb_mm_range: up to tlb_single_page_flush_ceiling (33) pages an INVLPG each, so a
        // small mprotect evicts only its pages' entries; above it a full flush
        // (a host without it flushes whole, as before)
        k.mm.setTlbFlushCeiling?.(TLB_SINGLE_PAGE_FLUSH_CEILING);
        // every return to user mode from an interrupt or exception (the syscall exits restore in
        // the entry mechanism's leave): arch_exit_to_user_mode_prepare's TIF_NEED_FPU_LOAD test
        k.events.on("return.user", (t) => restoreUserRegs(k, t));
        if (vdso) {
          // arch_setup_additional_pages -> map_vdso: every process gets the vDSO and its vvar page;
          // the tick's timekeeping updates the vvar page (update_vsyscall)
          if (!k.mm.map_vdso) throw new Error("plugin 'linux6': the host has no k.mm.map_vdso (plugin API 2.2): run with vdso=off");
          k.mm.map_vdso(new Linux6Vdso());
          k.events.on("tick", () => updateVsyscall(k));
        }
        // CFS chooses, on one CPU and on SMP (a cfs_rq per CPU)
        if (cfs) k.count("linux6.sched.cfs", 1);
      },
    });
  });

const plugin: PluginModule<typeof manifest> = { manifest, createModule, examples: LINUX6_EXAMPLES };
export default plugin;
