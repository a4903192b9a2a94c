/**
 * Check of a user CPU profile before it is saved or offered to the simulator: the profile
 * package's own schema and rules (validateProfileSource), plus self-containment (a user profile
 * carries a cost for every op class, so it runs without its parent).
 */
import { OP_CLASSES, validateProfileSource, type CpuProfileFile } from "@siglab/cpu-profiles";

export function checkProfileFile(raw: unknown, file: string): CpuProfileFile {
  const src = validateProfileSource(raw, file);
  if (src.inherits) throw new Error(`${file}: a saved user profile must be self-contained (remove "inherits")`);
  if (src.abstract) throw new Error(`${file}: a user profile cannot be abstract`);
  const costs = (src.costs ?? {}) as Record<string, unknown>;
  const missing = Object.keys(OP_CLASSES).filter((op) => !costs[op]);
  if (missing.length) throw new Error(`${file}: "costs.${missing[0]}" is missing (every op class needs a cost; ${missing.length} missing)`);
  for (const key of ["name", "clock", "features", "geometry"] as const) {
    if ((src as unknown as Record<string, unknown>)[key] === undefined) throw new Error(`${file}: "${key}" is missing`);
  }
  return src as CpuProfileFile;
}
