/**
 * The shipped profiles, imported statically so bundlers (Vite), vitest and tsx/Node all inline
 * them: no fs, no fetch. Checked and resolved when this module loads. Each profile with
 * `kind: "fitted"` entries has a generated overlay (profiles/fitted/<id>.json, written by
 * `pnpm siglab calibrate`) that the loader applies on top of the hand-written file.
 */
import family_p6 from "../profiles/_family-p6.json" with { type: "json" };
import k7_palomino from "../profiles/k7-palomino.json" with { type: "json" };
import p4_northwood from "../profiles/p4-northwood.json" with { type: "json" };
import p5_p54c from "../profiles/p5-p54c.json" with { type: "json" };
import p6_coppermine from "../profiles/p6-coppermine.json" with { type: "json" };
import p6_katmai from "../profiles/p6-katmai.json" with { type: "json" };
import p6_pentium_pro from "../profiles/p6-pentium-pro.json" with { type: "json" };
import skylake from "../profiles/skylake.json" with { type: "json" };
import skylake_x from "../profiles/skylake-x.json" with { type: "json" };
import zen4 from "../profiles/zen4.json" with { type: "json" };
import zen5 from "../profiles/zen5.json" with { type: "json" };
import fitted_p4_northwood from "../profiles/fitted/p4-northwood.json" with { type: "json" };
import fitted_p6_coppermine from "../profiles/fitted/p6-coppermine.json" with { type: "json" };
import { applyFittedOverlay, fittedOverlayFileName, validateFittedOverlay, type FittedOverlay } from "./overlay.js";
import { validateProfileSource } from "./parse.js";
import { resolveInheritance } from "./resolve.js";
import type { CpuProfileFile, CpuProfileSource } from "./types.js";

const RAW: Record<string, unknown> = {
  "_family-p6.json": family_p6,
  "p5-p54c.json": p5_p54c,
  "p6-pentium-pro.json": p6_pentium_pro,
  "p6-coppermine.json": p6_coppermine,
  "p6-katmai.json": p6_katmai,
  "p4-northwood.json": p4_northwood,
  "k7-palomino.json": k7_palomino,
  "skylake.json": skylake,
  "skylake-x.json": skylake_x,
  "zen4.json": zen4,
  "zen5.json": zen5,
};

/** The generated overlays, by file name under profiles/ (a new one must be listed here too; a test checks). */
const FITTED_RAW: Record<string, unknown> = {
  [fittedOverlayFileName("p6-coppermine")]: fitted_p6_coppermine,
  [fittedOverlayFileName("p4-northwood")]: fitted_p4_northwood,
};

/** The shipped profile files as written (abstract family files included), validated: fitted entries hold their starting values. */
export const BUILTIN_HANDWRITTEN_SOURCES: readonly CpuProfileSource[] = Object.entries(RAW).map(([file, json]) =>
  validateProfileSource(structuredClone(json), file),
);

/** The generated overlays (profiles/fitted/<id>.json), validated, by profile id. */
export const BUILTIN_FITTED_OVERLAYS: Readonly<Record<string, FittedOverlay>> = Object.fromEntries(
  Object.entries(FITTED_RAW).map(([file, json]) => {
    const o = validateFittedOverlay(structuredClone(json), file);
    return [o.profile, o];
  }),
);

for (const [file, json] of Object.entries(FITTED_RAW)) {
  const id = (json as { profile: string }).profile;
  if (fittedOverlayFileName(id) !== file) throw new Error(`${file}: an overlay for profile "${id}" must be ${fittedOverlayFileName(id)}`);
  if (!BUILTIN_HANDWRITTEN_SOURCES.some((s) => s.id === id)) throw new Error(`${file}: no shipped profile "${id}" to apply it to`);
}

/**
 * The shipped profiles as the simulator uses them: the hand-written files with their fitted
 * overlays applied (fitted entries hold the fitted values; their source names the starting value).
 */
export const BUILTIN_PROFILE_SOURCES: readonly CpuProfileSource[] = BUILTIN_HANDWRITTEN_SOURCES.map((src) => {
  const o = BUILTIN_FITTED_OVERLAYS[src.id];
  return o ? applyFittedOverlay(src, o, fittedOverlayFileName(src.id)) : src;
});

/** The shipped runnable profiles, inheritance resolved: every op class costed. */
export const BUILTIN_PROFILE_FILES: CpuProfileFile[] = resolveInheritance(BUILTIN_PROFILE_SOURCES);

/** Ids of the runnable builtins, in display order (oldest CPU first). */
export const BUILTIN_PROFILE_IDS: readonly string[] = BUILTIN_PROFILE_FILES.map((f) => f.id);

/** A builtin by id (a fresh copy, safe to edit). */
export function getBuiltinProfile(id: string): CpuProfileFile | undefined {
  const f = BUILTIN_PROFILE_FILES.find((p) => p.id === id);
  return f ? structuredClone(f) : undefined;
}
