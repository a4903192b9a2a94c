/**
 * Shape check of a user CPU profile before it is saved or offered to the simulator. The
 * simulator's own loader re-validates it at run time; this check exists so a bad file is refused
 * with its name and the problem at save/list time.
 */
import type { CpuProfileFile } from "../common/contracts.js";
import { OP_CLASSES } from "../../../../packages/cpu-profiles/src/op-classes.js";
import { checkProfileId } from "./names.js";

const PROVENANCE = new Set(["sourced", "derived", "fitted", "estimated"]);

export function checkProfileFile(raw: unknown, file: string): CpuProfileFile {
  const fail = (msg: string): never => {
    throw new Error(`${file}: ${msg}`);
  };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) fail("a CPU profile must be a JSON object");
  const p = raw as Record<string, unknown>;
  for (const key of ["id", "name", "vendor", "description"]) {
    if (typeof p[key] !== "string") fail(`"${key}" must be a string`);
  }
  try {
    checkProfileId(p.id as string);
  } catch (err) {
    fail((err as Error).message);
  }
  const clock = p.clock as Record<string, unknown> | undefined;
  if (!clock || typeof clock !== "object") fail(`"clock" is missing`);
  for (const key of ["defaultMhz", "minMhz", "maxMhz"]) {
    if (typeof clock![key] !== "number" || !((clock![key] as number) > 0)) fail(`"clock.${key}" must be a positive number`);
  }
  if (!Array.isArray(clock!.presets)) fail(`"clock.presets" must be an array of MHz values`);
  if (!p.features || typeof p.features !== "object") fail(`"features" is missing`);
  if (!p.geometry || typeof p.geometry !== "object") fail(`"geometry" is missing`);
  const costs = p.costs as Record<string, unknown> | undefined;
  if (!costs || typeof costs !== "object") fail(`"costs" is missing`);
  for (const op of Object.keys(OP_CLASSES)) {
    const c = costs![op] as Record<string, unknown> | undefined;
    if (!c) fail(`"costs.${op}" is missing (every op class needs a cost)`);
    if (typeof c!.cycles !== "number" || !Number.isFinite(c!.cycles) || (c!.cycles as number) < 0) fail(`"costs.${op}.cycles" must be a number >= 0`);
    if (typeof c!.kind !== "string" || !PROVENANCE.has(c!.kind)) fail(`"costs.${op}.kind" must be one of ${[...PROVENANCE].join(", ")}`);
    if (typeof c!.source !== "string" || c!.source.trim() === "") fail(`"costs.${op}.source" must say where the number comes from`);
  }
  return raw as CpuProfileFile;
}
