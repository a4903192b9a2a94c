/**
 * The shipped profiles, imported statically so bundlers (Vite), vitest and tsx/Node all inline
 * them: no fs, no fetch. Checked and resolved when this module loads.
 */
import family_p6 from "../profiles/_family-p6.json" with { type: "json" };
import k7_palomino from "../profiles/k7-palomino.json" with { type: "json" };
import p4_northwood from "../profiles/p4-northwood.json" with { type: "json" };
import p5_p54c from "../profiles/p5-p54c.json" with { type: "json" };
import p6_coppermine from "../profiles/p6-coppermine.json" with { type: "json" };
import p6_pentium_pro from "../profiles/p6-pentium-pro.json" with { type: "json" };
import skylake from "../profiles/skylake.json" with { type: "json" };
import skylake_x from "../profiles/skylake-x.json" with { type: "json" };
import zen4 from "../profiles/zen4.json" with { type: "json" };
import zen5 from "../profiles/zen5.json" with { type: "json" };
import { validateProfileSource } from "./parse.js";
import { resolveInheritance } from "./resolve.js";
import type { CpuProfileFile, CpuProfileSource } from "./types.js";

const RAW: Record<string, unknown> = {
  "_family-p6.json": family_p6,
  "p5-p54c.json": p5_p54c,
  "p6-pentium-pro.json": p6_pentium_pro,
  "p6-coppermine.json": p6_coppermine,
  "p4-northwood.json": p4_northwood,
  "k7-palomino.json": k7_palomino,
  "skylake.json": skylake,
  "skylake-x.json": skylake_x,
  "zen4.json": zen4,
  "zen5.json": zen5,
};

/** The shipped profile files as written (abstract family files included), validated. */
export const BUILTIN_PROFILE_SOURCES: readonly CpuProfileSource[] = Object.entries(RAW).map(([file, json]) =>
  validateProfileSource(structuredClone(json), file),
);

/** The shipped runnable profiles, inheritance resolved: every op class costed. */
export const BUILTIN_PROFILE_FILES: CpuProfileFile[] = resolveInheritance(BUILTIN_PROFILE_SOURCES);

/** Ids of the runnable builtins, in display order (oldest CPU first). */
export const BUILTIN_PROFILE_IDS: readonly string[] = BUILTIN_PROFILE_FILES.map((f) => f.id);

/** A builtin by id (a fresh copy, safe to edit). */
export function getBuiltinProfile(id: string): CpuProfileFile | undefined {
  const f = BUILTIN_PROFILE_FILES.find((p) => p.id === id);
  return f ? structuredClone(f) : undefined;
}
