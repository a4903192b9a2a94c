/** The built-in plugins and the named variant stacks (presets) shipped with SigLab. */
import type { LoadedPlugin, VariantSpec } from "@siglab/core";
import saNofp from "@siglab/plugin-sa-nofp";

export const BUILTIN_PLUGINS: LoadedPlugin[] = [saNofp];

export interface Preset {
  id: string;
  name: string;
  description: string;
  stack: VariantSpec[];
}

export const PRESETS: Preset[] = [
  { id: "linux-2.4.18", name: "Linux 2.4.18 (i386)", description: "the baseline: int $0x80, cli in ret_from_sys_call, lazy FPU, eager FXSR signal frames", stack: [] },
];
