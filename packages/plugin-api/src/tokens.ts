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

/**
 * A token for values of type T (a symbol at run time): what `bind`/`rebind` take, so the value
 * bound is checked against T.
 * @category Extension points
 */
export type Token<T> = symbol & {
  /** Type-only: the type of what the token is bound to (never present at run time). */
  readonly __bound?: T;
};

const token = <T>(name: string): Token<T> => Symbol.for(`siglab.${name}`) as Token<T>;

/**
 * The tokens of the extension points, by name: `bind(TOKENS.SyscallContribution)` adds to a
 * multi-valued point, `rebind(TOKENS.EntryMechanism)` replaces a single-valued one (SINGLE_VALUED),
 * `bind(TOKENS.UserSigmask)` provides a service (SERVICES).
 * @category Extension points
 */
export const TOKENS = Object.freeze({
  // single-valued: rebind (and list in `replaces`)
  /** How system calls enter and leave the kernel (single-valued: rebind). */
  EntryMechanism: token<EntryMechanism>("EntryMechanism"),
  /** What a signal frame does with the FPU state (single-valued: rebind). */
  SignalFpuPolicy: token<SignalFpuPolicy>("SignalFpuPolicy"),
  /** The FPU at context switch and on #NM (single-valued: rebind). */
  SwitchFpuPolicy: token<SwitchFpuPolicy>("SwitchFpuPolicy"),
  /** Where the blocked mask lives (single-valued: rebind). */
  SignalMaskStore: token<SignalMaskStore>("SignalMaskStore"),
  /** The pthread library workloads' `t.pthread` calls go to (single-valued: rebind). */
  ThreadLibrary: token<ThreadLibrary>("ThreadLibrary"),
  /** since plugin API 2.1 */
  Scheduler: token<Scheduler>("Scheduler"),
  /** since plugin API 2.1 */
  BlockDevice: token<BlockDevice>("BlockDevice"),
  // multi-valued: bind to add
  /** A libc model a workload may select by id (multi-valued: bind). */
  LibcModel: token<LibcModel>("LibcModel"),
  /** A system call in a free slot of the table (multi-valued: bind). */
  SyscallContribution: token<SyscallContribution>("SyscallContribution"),
  /** New kernel or user paths (multi-valued: bind). */
  PathContribution: token<PathContribution>("PathContribution"),
  /** Changes to existing paths (multi-valued: bind). */
  PathTransformContribution: token<PathTransformContribution>("PathTransformContribution"),
  /** Code run on #NM before the switch policy (multi-valued: bind). */
  FpuTrapHook: token<FpuTrapHook>("FpuTrapHook"),
  /** Code run on #PF before the default handling (multi-valued: bind). */
  PageFaultHook: token<PageFaultHook>("PageFaultHook"),
  /** A checker that reports findings (multi-valued: bind). */
  InvariantChecker: token<InvariantChecker>("InvariantChecker"),
  /** CPU profiles the plugin adds (multi-valued: bind). */
  CpuProfileContribution: token<CpuProfileContribution>("CpuProfileContribution"),
  /** Code run when a run's kernel is made (multi-valued: bind). */
  KernelSetupContribution: token<KernelSetupContribution>("KernelSetupContribution"),
  // services one plugin provides and others use (bind; at most one per run)
  /** The user-space signal mask service (bind; at most one plugin of a stack provides it). */
  UserSigmask: token<UserSigmaskService>("UserSigmask"),
});

/**
 * The name of an extension point (a key of TOKENS): what a manifest lists in `contributes` and
 * `replaces`.
 * @category Extension points
 */
export type ExtensionPointName = keyof typeof TOKENS;

/**
 * The single-valued points: a plugin that binds one must `rebind` it and list it in `replaces`.
 * @category Extension points
 */
export const SINGLE_VALUED: readonly ExtensionPointName[] = Object.freeze(["EntryMechanism", "SignalFpuPolicy", "SwitchFpuPolicy", "SignalMaskStore", "ThreadLibrary", "Scheduler", "BlockDevice"]);

/**
 * Services: bound by at most one plugin of a stack.
 * @category Extension points
 */
export const SERVICES: readonly ExtensionPointName[] = Object.freeze(["UserSigmask"]);
