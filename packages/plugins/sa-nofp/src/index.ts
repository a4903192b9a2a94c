/**
 * sa-nofp: Andi Kleen's SA_NOFP patch (linux-kernel, Aug 2002). A handler that promises not to
 * touch the FPU gets a frame without an FP image: no unlazy_fpu, no conversion, no 624-byte copy,
 * and sigreturn restores nothing. The patch also stopped clearing used_math, so the handler's
 * first FP instruction reloads the *interrupted* state instead of a fresh one.
 */
import { ContainerModule } from "inversify";
import { i387, signal, TOKENS, op, validateManifest, type Kernel, type LoadedPlugin, type PathDef, type SigAction, type SignalFpuPolicy, type SignalFrameK, type Task } from "@siglab/core";
import manifestJson from "../plugin.json" with { type: "json" };

const manifest = validateManifest(manifestJson, "packages/plugins/sa-nofp/plugin.json");

export const SA_NOFP = signal.SA_NOFP;

const PATHS: PathDef[] = [
  {
    name: "save_i387.nofp",
    phase: "signal.fpu_save",
    origin: "sa-nofp",
    ops: [op("setup_frame", "alu", 2, "if (ka->sa.sa_flags & SA_NOFP): skip save_i387, fpstate = NULL, used_math untouched")],
  },
  {
    name: "restore_i387.nofp",
    phase: "signal.fpu_restore",
    origin: "sa-nofp",
    ops: [op("restore_sigcontext", "alu", 1, "fpstate == NULL: restore_i387 skipped; the FPU keeps what the handler left")],
  },
];

export class NoFpSignalFpu implements SignalFpuPolicy {
  readonly id = "sa-nofp";
  private readonly base = new i387.I387SignalFpu();
  constructor(private readonly forceAll: boolean) {}

  saveToFrame(k: Kernel, t: Task, frame: SignalFrameK, ka: SigAction): void {
    if (this.forceAll || ka.flags & SA_NOFP) {
      k.run("save_i387.nofp");
      frame.fpstate = null;
      frame.ext["nofp"] = true;
      k.count("sa_nofp.skipped_saves");
      return;
    }
    this.base.saveToFrame(k, t, frame);
  }

  restoreFromFrame(k: Kernel, t: Task, frame: SignalFrameK): void {
    if (frame.ext["nofp"]) {
      k.run("restore_i387.nofp");
      return;
    }
    this.base.restoreFromFrame(k, t, frame);
  }
}

export const plugin: LoadedPlugin = {
  manifest,
  builtin: true,
  module: (options) =>
    new ContainerModule(({ rebind, bind }) => {
      rebind<SignalFpuPolicy>(TOKENS.SignalFpuPolicy).toConstantValue(new NoFpSignalFpu(options["forceAll"] === true));
      bind(TOKENS.PathContribution).toConstantValue({ paths: () => PATHS });
    }),
};

export default plugin;
