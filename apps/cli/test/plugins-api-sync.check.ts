/**
 * Compile-time sync check between the hand-written plugin-API declarations that third parties
 * compile against (src/plugins/template/plugin-api.d.ts) and the simulator's real types. It holds
 * no runtime code: the root typecheck compiles it, and plugins-api-sync.test.ts compiles it again
 * so that a vitest run catches drift too.
 *
 * Directions: what the simulator hands a plugin (Kernel, Task, frames, ...) must be assignable to
 * the declared view; what a plugin hands back (extension-point implementations, paths, manifests)
 * must be assignable to what the simulator consumes. Closed sets (op classes, syscall numbers,
 * versions, Sigset) must match both ways.
 */
import type * as Api from "../src/plugins/template/plugin-api.js";
import type * as Core from "@siglab/core";
import type * as CoreSignal from "@siglab/core/kernel/signal.js";
import type * as CoreI387 from "@siglab/core/kernel/i387.js";
import type * as CoreSched from "@siglab/core/kernel/sched.js";
import type { PathTransform as CorePathTransform } from "@siglab/core/exec/registry.js";
import type { CpuProfileFile, OpClass, ResolvedProfile } from "@siglab/cpu-profiles";

/** `x` is used only for its type. */
declare function same<A, B>(a: [A] extends [B] ? ([B] extends [A] ? true : false) : false): void;
declare const give: <T>() => T;

// A method's parameters are compared bivariantly: what lets core's functions (taking the full
// Kernel) stand for the declared ones (taking the view of it).
type Bivariant<F> = F extends (...a: infer A) => infer R ? { m(...a: A): R }["m"] : F;
type NsView<T> = { [K in keyof T]: Bivariant<T[K]> };

// ---- closed sets: equal both ways ---------------------------------------------------------------
same<Api.OpClass, OpClass>(true);
same<typeof Api.PLUGIN_API_VERSION, typeof Core.PLUGIN_API_VERSION>(true);
same<typeof Api.NR, typeof Core.NR>(true);
same<keyof typeof Api.TOKENS, keyof typeof Core.TOKENS>(true);
same<Api.CorePhase, (typeof Core.CORE_PHASES)[number]>(true);
export const sigsetCtor: typeof Api.Sigset = give<typeof Core.Sigset>();
export const sigsetCtorBack: typeof Core.Sigset = give<typeof Api.Sigset>();

// ---- simulator -> plugin: core's objects fit the declared views -------------------------------------
export const kernel: Api.Kernel = give<Core.Kernel>();
export const task: Api.Task = give<Core.Task>();
export const frame: Api.SignalFrameK = give<Core.SignalFrameK>();
export const action: Api.SigAction = give<Core.SigAction>();
export const fpu: Api.FpuRegs = give<InstanceType<typeof Core.FpuRegs>>();
export const profile: Api.ResolvedProfile = give<ResolvedProfile>();
export const tokens: typeof Api.TOKENS = give<typeof Core.TOKENS>();
export const loadOptions: Api.ContainerModuleLoadOptions = give<Parameters<ReturnType<Core.LoadedPlugin["module"]>["load"]>[0]>();
export const opFn: typeof Api.op = give<typeof Core.op>();
export const signalNs: NsView<typeof Api.signal> = give<typeof CoreSignal>();
export const i387Ns: NsView<typeof Api.i387> = give<typeof CoreI387>();
export const schedNs: NsView<typeof Api.sched> = give<typeof CoreSched>();
export const pathDefIn: Api.PathDef = give<Core.PathDef>();
export const findingIn: Api.Finding = give<Core.RunResult["findings"][number]>();

// ---- plugin -> simulator: what a plugin implements is what core consumes --------------------------
export const entry: Core.EntryMechanism = give<Api.EntryMechanism>();
export const signalFpu: Core.SignalFpuPolicy = give<Api.SignalFpuPolicy>();
export const switchFpu: Core.SwitchFpuPolicy = give<Api.SwitchFpuPolicy>();
export const maskStore: Core.SignalMaskStore = give<Api.SignalMaskStore>();
export const syscall: Core.SyscallContribution = give<Api.SyscallContribution>();
export const paths: Core.PathContribution = give<Api.PathContribution>();
export const transforms: Core.PathTransformContribution = give<Api.PathTransformContribution>();
export const transform: CorePathTransform = give<Api.PathTransform>();
export const nmHook: Core.FpuTrapHook = give<Api.FpuTrapHook>();
export const pfHook: Core.PageFaultHook = give<Api.PageFaultHook>();
export const checker: Core.InvariantChecker = give<Api.InvariantChecker>();
export const profiles: Core.CpuProfileContribution = give<Api.CpuProfileContribution>();
export const profileFile: CpuProfileFile = give<Api.CpuProfileFile>();
export const examples: Core.ExampleWorkloadContribution = give<Api.ExampleWorkloadContribution>();
export const setup: Core.KernelSetupContribution = give<Api.KernelSetupContribution>();
export const pathDefOut: Core.PathDef = give<Api.PathDef>();
export const manifest: Core.PluginManifest = give<Api.PluginManifest>();
export const optionSpec: Core.PluginOptionSpec = give<Api.PluginOptionSpec>();
export const finding: Core.RunResult["findings"][number] = give<Api.Finding>();
