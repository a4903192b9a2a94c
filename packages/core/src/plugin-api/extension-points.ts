/**
 * The extension points and their tokens are the plugin API's (@siglab/plugin-api); the core
 * implements them and collects the contributions (di/).
 */
export {
  TOKENS,
  SINGLE_VALUED,
  SERVICES,
  type Token,
  type ExtensionPointName,
  type EntryMechanism,
  type SignalFpuPolicy,
  type SwitchFpuPolicy,
  type SignalMaskStore,
  type SyscallContribution,
  type PathContribution,
  type PathTransformContribution,
  type FpuTrapHook,
  type PageFaultHook,
  type InvariantChecker,
  type CpuProfileContribution,
  type ExampleWorkload,
  type Preset,
  type KernelSetupContribution,
  type UserSigmaskService,
  type Scheduler,
  type BlockDevice,
  type BlockDeviceConfig,
} from "@siglab/plugin-api";
