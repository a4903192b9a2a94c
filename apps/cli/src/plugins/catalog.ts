/** Presets and plugin-contributed examples, for argument resolution in the main process. */
import type { VariantSpec } from "@siglab/core";
import { UsageError } from "../catalog.js";

/** Named variant stacks shipped with SigLab. */
export const PRESETS: Record<string, { description: string; stack: VariantSpec[] }> = {
  "linux-2.4.18": { description: "Linux 2.4.18 (i386): int $0x80, cli in the exit path, lazy FPU, eager FXSR frames", stack: [] },
};

export async function findPreset(name: string, _dirs: string[]): Promise<VariantSpec[]> {
  const p = PRESETS[name];
  if (!p) throw new UsageError(`unknown preset '${name}' (presets: ${Object.keys(PRESETS).join(", ")})`);
  return p.stack;
}

export async function pluginExamples(_dirs: string[]): Promise<{ id: string; file: string; source: string }[]> {
  return [];
}
