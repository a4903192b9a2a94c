/**
 * The baseline kernel (Linux 2.4.18 on i386) wired as a ContainerModule. Plugins load after it and
 * rebind single-valued extension points or add contributions to multi-valued ones.
 */
import { ContainerModule } from "inversify";
import { CORE_CHECKERS } from "../findings/checkers.js";
import { Int80Entry, TaskBlockedMaskStore } from "../kernel/baseline.js";
import { I387SignalFpu, LazySwitchFpu } from "../kernel/i387.js";
import { TOKENS } from "../plugin-api/extension-points.js";
import { LinuxThreads, LIBC_MODELS } from "../runtime/libraries.js";
import { bindContributionProvider } from "./contribution-provider.js";

/** Multi-valued points: collected through contribution providers. */
export const MULTI_POINTS = [
  TOKENS.SyscallContribution,
  TOKENS.PathContribution,
  TOKENS.PathTransformContribution,
  TOKENS.FpuTrapHook,
  TOKENS.PageFaultHook,
  TOKENS.InvariantChecker,
  TOKENS.CpuProfileContribution,
  TOKENS.ExampleWorkloadContribution,
  TOKENS.KernelSetupContribution,
  TOKENS.LibcModel,
] as const;

export const coreModule = new ContainerModule(({ bind }) => {
  bind(TOKENS.EntryMechanism).toConstantValue(new Int80Entry());
  bind(TOKENS.SignalFpuPolicy).toConstantValue(new I387SignalFpu());
  bind(TOKENS.SwitchFpuPolicy).toConstantValue(new LazySwitchFpu());
  bind(TOKENS.SignalMaskStore).toConstantValue(new TaskBlockedMaskStore());
  bind(TOKENS.ThreadLibrary).toConstantValue(new LinuxThreads());
  for (const m of Object.values(LIBC_MODELS)) bind(TOKENS.LibcModel).toConstantValue(m);
  // checkers hold per-run state: a fresh instance per resolution
  for (const make of CORE_CHECKERS) bind(TOKENS.InvariantChecker).toDynamicValue(make);
  for (const p of MULTI_POINTS) bindContributionProvider(bind, p);
});
