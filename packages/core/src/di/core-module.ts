/**
 * The baseline kernel (Linux 2.4.18 on i386) wired as a ContainerModule. Plugins load after it
 * (each through its manifest's guard, di/plugin-binding.ts) and rebind single-valued extension
 * points or add contributions to multi-valued ones. The baseline mechanisms stay reachable under
 * their own token, for variants that delegate to them (Kernel.baseline).
 */
import { ContainerModule } from "inversify";
import { CORE_CHECKERS } from "../findings/checkers.js";
import { Int80Entry } from "../arch/i386/int80.js";
import { TaskBlockedMaskStore } from "../kernel/signal.js";
import { LatencyDevice } from "../drivers/siglab-disk.js";
import { I387SignalFpu, LazySwitchFpu } from "../arch/i386/i387.js";
import type { CorePolicies } from "../kernel/core.js";
import { Goodness24Scheduler } from "../kernel/sched.js";
import { TOKENS } from "../plugin-api/extension-points.js";
import { LinuxThreads, LIBC_MODELS } from "../runtime/libraries.js";
import { UThreadsBlockedChecker } from "../runtime/uthreads.js";
import { bindContributionProvider } from "./contribution-provider.js";

/** The core's own tokens (not part of the plugin API). */
export const CORE_TOKENS = {
  /** Linux 2.4's single-valued mechanisms, whatever plugins rebind */
  Baseline: Symbol.for("siglab.core.Baseline"),
} as const;

/** Multi-valued points: collected through contribution providers. */
export const MULTI_POINTS = [
  TOKENS.SyscallContribution,
  TOKENS.PathContribution,
  TOKENS.PathTransformContribution,
  TOKENS.FpuTrapHook,
  TOKENS.PageFaultHook,
  TOKENS.InvariantChecker,
  TOKENS.CpuProfileContribution,
  TOKENS.KernelSetupContribution,
  TOKENS.LibcModel,
  TOKENS.UserSigmask,
] as const;

// loaded into each run's container: the baseline's per-run state (the disk's queue) is per run
export const coreModule = new ContainerModule(({ bind }) => {
  const baseline: CorePolicies = Object.freeze({
    entry: new Int80Entry(),
    signalFpu: new I387SignalFpu(),
    switchFpu: new LazySwitchFpu(),
    maskStore: new TaskBlockedMaskStore(),
    scheduler: new Goodness24Scheduler(),
    blockDevice: new LatencyDevice(),
  });
  bind(CORE_TOKENS.Baseline).toConstantValue(baseline);
  bind(TOKENS.EntryMechanism).toConstantValue(baseline.entry);
  bind(TOKENS.SignalFpuPolicy).toConstantValue(baseline.signalFpu);
  bind(TOKENS.SwitchFpuPolicy).toConstantValue(baseline.switchFpu);
  bind(TOKENS.SignalMaskStore).toConstantValue(baseline.maskStore);
  bind(TOKENS.Scheduler).toConstantValue(baseline.scheduler);
  bind(TOKENS.BlockDevice).toConstantValue(baseline.blockDevice);
  bind(TOKENS.ThreadLibrary).toConstantValue(new LinuxThreads());
  for (const m of Object.values(LIBC_MODELS)) bind(TOKENS.LibcModel).toConstantValue(m);
  // checkers hold per-run state: a fresh instance per resolution
  for (const make of CORE_CHECKERS) bind(TOKENS.InvariantChecker).toDynamicValue(make);
  // the user-level thread runtime's hazard (one LWP blocked in an unwrapped syscall); silent
  // unless a thread library multiplexes user-level threads
  bind(TOKENS.InvariantChecker).toDynamicValue(() => new UThreadsBlockedChecker());
  for (const p of MULTI_POINTS) bindContributionProvider(bind, p);
});
