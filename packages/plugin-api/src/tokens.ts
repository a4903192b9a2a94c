/**
 * The inversify tokens of the extension points. A token's type parameter is what it is bound to,
 * so `bind(TOKENS.SyscallContribution).toConstantValue(x)` checks `x`. The manifest lists every
 * point a plugin binds (`contributes`) and every single-valued point it rebinds (`replaces`); the
 * host refuses anything else at bind time.
 */
import type {
  CpuProfileContribution,
  FpuTrapHook,
  InvariantChecker,
  KernelSetupContribution,
  PageFaultHook,
  PathContribution,
  PathTransformContribution,
  SyscallContribution,
  ThreadLibrary,
} from "./extension-points.js";
import type { BlockDevice, EntryMechanism, LibcModel, Scheduler, SignalFpuPolicy, SignalMaskStore, SwitchFpuPolicy, UserSigmaskService } from "./model.js";

/** A token for values of type T (a symbol at run time). */
export type Token<T> = symbol & { readonly __bound?: T };

const token = <T>(name: string): Token<T> => Symbol.for(`siglab.${name}`) as Token<T>;

export const TOKENS = Object.freeze({
  // single-valued: rebind (and list in `replaces`)
  EntryMechanism: token<EntryMechanism>("EntryMechanism"),
  SignalFpuPolicy: token<SignalFpuPolicy>("SignalFpuPolicy"),
  SwitchFpuPolicy: token<SwitchFpuPolicy>("SwitchFpuPolicy"),
  SignalMaskStore: token<SignalMaskStore>("SignalMaskStore"),
  ThreadLibrary: token<ThreadLibrary>("ThreadLibrary"),
  /** since plugin API 2.1 */
  Scheduler: token<Scheduler>("Scheduler"),
  /** since plugin API 2.1 */
  BlockDevice: token<BlockDevice>("BlockDevice"),
  // multi-valued: bind to add
  LibcModel: token<LibcModel>("LibcModel"),
  SyscallContribution: token<SyscallContribution>("SyscallContribution"),
  PathContribution: token<PathContribution>("PathContribution"),
  PathTransformContribution: token<PathTransformContribution>("PathTransformContribution"),
  FpuTrapHook: token<FpuTrapHook>("FpuTrapHook"),
  PageFaultHook: token<PageFaultHook>("PageFaultHook"),
  InvariantChecker: token<InvariantChecker>("InvariantChecker"),
  CpuProfileContribution: token<CpuProfileContribution>("CpuProfileContribution"),
  KernelSetupContribution: token<KernelSetupContribution>("KernelSetupContribution"),
  // services one plugin provides and others use (bind; at most one per run)
  UserSigmask: token<UserSigmaskService>("UserSigmask"),
});

export type ExtensionPointName = keyof typeof TOKENS;

/** The single-valued points: a plugin that binds one must `rebind` it and list it in `replaces`. */
export const SINGLE_VALUED: readonly ExtensionPointName[] = Object.freeze(["EntryMechanism", "SignalFpuPolicy", "SwitchFpuPolicy", "SignalMaskStore", "ThreadLibrary", "Scheduler", "BlockDevice"]);

/** Services: bound by at most one plugin of a stack. */
export const SERVICES: readonly ExtensionPointName[] = Object.freeze(["UserSigmask"]);
