/** Everything a run needs from the container, injected explicitly by token. */
import { inject, injectable } from "inversify";
import type {
  BlockDevice,
  CpuProfileContribution,
  EntryMechanism,
  FpuTrapHook,
  InvariantChecker,
  KernelSetupContribution,
  PageFaultHook,
  PathContribution,
  PathTransformContribution,
  Scheduler,
  SignalFpuPolicy,
  SignalMaskStore,
  SwitchFpuPolicy,
  SyscallContribution,
} from "../plugin-api/extension-points.js";
import type { UserSigmaskService } from "@siglab/plugin-api";
import type { CorePolicies } from "../kernel/core.js";
import { TOKENS } from "../plugin-api/extension-points.js";
import { CORE_TOKENS } from "./core-module.js";
import type { LibcModel, ThreadLibrary } from "../runtime/thread.js";
import { contributionProviderToken, type ContributionProvider } from "./contribution-provider.js";

const P = contributionProviderToken;

@injectable()
export class KernelAssembly {
  constructor(
    @inject(TOKENS.EntryMechanism) readonly entry: EntryMechanism,
    @inject(TOKENS.SignalFpuPolicy) readonly signalFpu: SignalFpuPolicy,
    @inject(TOKENS.SwitchFpuPolicy) readonly switchFpu: SwitchFpuPolicy,
    @inject(TOKENS.SignalMaskStore) readonly maskStore: SignalMaskStore,
    @inject(TOKENS.ThreadLibrary) readonly threads: ThreadLibrary,
    @inject(TOKENS.Scheduler) readonly scheduler: Scheduler,
    @inject(TOKENS.BlockDevice) readonly blockDevice: BlockDevice,
    @inject(P(TOKENS.LibcModel)) readonly libcs: ContributionProvider<LibcModel>,
    @inject(P(TOKENS.SyscallContribution)) readonly syscalls: ContributionProvider<SyscallContribution>,
    @inject(P(TOKENS.PathContribution)) readonly paths: ContributionProvider<PathContribution>,
    @inject(P(TOKENS.PathTransformContribution)) readonly transforms: ContributionProvider<PathTransformContribution>,
    @inject(P(TOKENS.FpuTrapHook)) readonly fpuTrapHooks: ContributionProvider<FpuTrapHook>,
    @inject(P(TOKENS.PageFaultHook)) readonly pageFaultHooks: ContributionProvider<PageFaultHook>,
    @inject(P(TOKENS.InvariantChecker)) readonly checkers: ContributionProvider<InvariantChecker>,
    @inject(P(TOKENS.CpuProfileContribution)) readonly profiles: ContributionProvider<CpuProfileContribution>,
    @inject(P(TOKENS.KernelSetupContribution)) readonly setups: ContributionProvider<KernelSetupContribution>,
    @inject(P(TOKENS.UserSigmask)) readonly userSigmask: ContributionProvider<UserSigmaskService>,
    @inject(CORE_TOKENS.Baseline) readonly baseline: CorePolicies,
  ) {}
}
