/**
 * sa-nofp: Andi Kleen's SA_NOFP patch (linux-kernel, Aug 2002). A handler that promises not to
 * touch the FPU gets a frame without an FP image: no unlazy_fpu, no conversion, no 624-byte copy,
 * and sigreturn restores nothing. The patch also stopped clearing used_math, so the handler's
 * first FP instruction reloads the *interrupted* state instead of a fresh one.
 */
import { ContainerModule, TOKENS, op, SA_NOFP, stateKey, type CreateModule, type Kernel, type PathDef, type PluginModule, type SigAction, type SignalFpuPolicy, type SignalFrame, type Task } from "@siglab/plugin-api";
import manifest from "../plugin.json" with { type: "json" };

export { SA_NOFP };

/** the frame carries no FP image because of SA_NOFP (sigreturn restores nothing) */
const NOFP = stateKey("sa-nofp.frame", () => false);

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
  constructor(private readonly forceAll: boolean) {}

  saveToFrame(k: Kernel, t: Task, frame: SignalFrame, ka: SigAction): void {
    if (this.forceAll || ka.flags & SA_NOFP) {
      k.run("save_i387.nofp");
      frame.fpstate = null;
      frame.setSlot(NOFP, true);
      k.count("sa_nofp.skipped_saves");
      return;
    }
    k.baseline.signalFpu.saveToFrame(k, t, frame, ka);
  }

  restoreFromFrame(k: Kernel, t: Task, frame: SignalFrame): void {
    if (frame.peekSlot(NOFP)) {
      k.run("restore_i387.nofp");
      return;
    }
    k.baseline.signalFpu.restoreFromFrame(k, t, frame);
  }
}

export const createModule: CreateModule = (options) =>
  new ContainerModule(({ rebind, bind }) => {
    rebind(TOKENS.SignalFpuPolicy).toConstantValue(new NoFpSignalFpu(options["forceAll"] === true));
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => PATHS });
  });

const plugin: PluginModule<typeof manifest> = { manifest, createModule };
export default plugin;
