/**
 * Format v0: the pre-release "experiment file" (SigLab 0.0.x). One zip entry, bundle.json:
 *
 *   { "version": 0, "app": "0.0.3", "created": "2026-01-05T10:00:00Z",
 *     "experiment": { "workload": { "id", "file", "source" }, "cpus": [{ "id", "mhz" }],
 *                     "variants": [["sa-nofp", { "id": "sysenter", "options": {...} }], []],
 *                     "params": {...}, "seed": 1 },
 *     "profiles": { "<cpu id>": <CpuProfileFile> },
 *     "plugins": [{ "id": "sa-nofp", "version": "1.0.0" }],          (built-ins only, no hashes)
 *     "results": [ <RunResult, but "cycles" for totalCycles and no simSeconds> ] }
 *
 * No content hashes, no summary, no embedded plugins, no sweep/timeline/budget.
 */
import { Type, type Static } from "@sinclair/typebox";
import type { RunResult } from "../../common/index.js";
import { BundleError } from "../errors.js";
import { CpuRefSchema, ParamValueSchema, VariantSpecSchema } from "../schema.js";
import { checkSchema, parseJson } from "../validate.js";

export const V0_ENTRY = "bundle.json";

const ParamsV0 = Type.Record(Type.String(), ParamValueSchema);
export const BundleV0Schema = Type.Object({
  version: Type.Literal(0),
  app: Type.String({ minLength: 1 }),
  created: Type.String({ minLength: 1 }),
  experiment: Type.Object({
    workload: Type.Object({ id: Type.String(), file: Type.String(), source: Type.String() }),
    cpus: Type.Array(CpuRefSchema, { minItems: 1 }),
    variants: Type.Array(Type.Array(Type.Union([Type.String(), VariantSpecSchema])), { minItems: 1 }),
    params: ParamsV0,
    seed: Type.Number(),
  }),
  profiles: Type.Record(Type.String(), Type.Object({ id: Type.String() })),
  plugins: Type.Array(Type.Object({ id: Type.String(), version: Type.String() })),
  results: Type.Array(
    Type.Object({
      cpu: Type.Object({ id: Type.String(), mhz: Type.Number({ exclusiveMinimum: 0 }) }),
      cycles: Type.Number(),
    }),
  ),
});
export type BundleV0 = Static<typeof BundleV0Schema>;

export function parseV0(files: Map<string, Uint8Array>, file: string): BundleV0 {
  const bytes = files.get(V0_ENTRY);
  if (!bytes) throw new BundleError("missing-entry", file, "required entry is missing", V0_ENTRY);
  for (const name of files.keys()) {
    if (name !== V0_ENTRY) throw new BundleError("inconsistent", file, "unexpected entry in a format v0 bundle", name);
  }
  return checkSchema(BundleV0Schema, parseJson(bytes, file, V0_ENTRY), file, V0_ENTRY);
}

/** A v0 result with its renamed field restored and simSeconds computed (cycles / Hz). */
export function resultFromV0(r: Record<string, unknown> & { cpu: { mhz: number }; cycles: number }): RunResult {
  const { cycles, ...rest } = r;
  return { ...(rest as unknown as RunResult), totalCycles: cycles, simSeconds: cycles / (r.cpu.mhz * 1e6) };
}
