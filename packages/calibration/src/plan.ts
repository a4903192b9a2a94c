/**
 * The free parameters. Each fit group is a set of `kind: "fitted"` costs of one profile that a
 * single target constrains; the group has ONE free parameter, a scale s applied to the starting
 * values (so the split between the ops, which comes from a source, is kept). The starting values
 * are the `cycles` of the hand-written profile files (BUILTIN_HANDWRITTEN_SOURCES: independent
 * estimates, each entry's `source` giving its reason); the fitted values live in the generated
 * overlays (profiles/fitted/<id>.json). Every fitted entry of every profile must belong to exactly
 * one group (checked against the files, see validate.ts).
 */
import { BUILTIN_HANDWRITTEN_SOURCES, type CpuProfileSource, type OpClass } from "@siglab/cpu-profiles";

export interface FitGroup {
  id: string;
  /** the profile whose own file defines the fitted entries */
  profile: string;
  /** op -> starting value in cycles (the reference the scale multiplies): the hand-written profile's cycles */
  start: Partial<Record<OpClass, number>>;
  /** the calibration target (targets.ts) that fixes the scale */
  target: string;
  /** what ties the figure to these ops */
  why: string;
}

/**
 * A fit may move a group by up to 4x either way from its reasoned starting values. A figure that
 * needs more is not reached by these parameters: the gap is elsewhere in the model, and moving a
 * parameter to the edge of its range would only hide it, so the starting values are kept.
 */
export const SCALE_BOUNDS: readonly [number, number] = [0.25, 4];

/**
 * A scale outside this range is still a fit, but a large correction of a reasoned estimate: the
 * parameter probably absorbs work the model's paths lack. Reports flag it.
 */
export const LARGE_CORRECTION: readonly [number, number] = [0.5, 2];

export function isLargeCorrection(scale: number | undefined): boolean {
  return scale !== undefined && (scale < LARGE_CORRECTION[0] || scale > LARGE_CORRECTION[1]);
}

/** Order matters only for speed: groups whose target is a difference come before the sums. */
const PLAN: readonly (Omit<FitGroup, "start"> & { ops: readonly OpClass[] })[] = [
  {
    id: "p3-cli",
    profile: "p6-coppermine",
    ops: ["cli", "iret_if_change"],
    target: "p3-cli-saving",
    why: "dropping the cli from ret_from_sys_call removes the cli and the IF change on iret: the getpid loop difference is exactly their sum",
  },
  {
    id: "p3-syscall-gate",
    profile: "p6-coppermine",
    ops: ["int_gate", "iret_user"],
    target: "p3-getpid-loop-cli",
    why: "the int $0x80 gate and the iret are most of a getpid round trip; the rest of the path is sourced or estimated",
  },
  {
    id: "p4-int80-gate",
    profile: "p4-northwood",
    ops: ["int_gate", "iret_user"],
    target: "p4-int80-vs-sysenter/int80",
    why: "the gate and the iret are most of the 1568-cycle int $0x80 system call",
  },
  {
    id: "p4-sysenter",
    profile: "p4-northwood",
    ops: ["sysenter", "sysexit"],
    target: "p4-int80-vs-sysenter/sysenter",
    why: "sysenter and sysexit replace the gate and the iret in the 428-cycle system call",
  },
  {
    id: "p4-cr3",
    profile: "p4-northwood",
    ops: ["mov_cr3"],
    target: "p4-lat-ctx-2p-0k",
    why: "switch_mm's CR3 write (and the TLB flush it implies) is the one serializing op of a switch between two processes that do not use the FPU",
  },
  {
    id: "p4-signal-fpu",
    profile: "p4-northwood",
    ops: ["fxsr_convert_reg", "copy_user_setup"],
    target: "p4-lat-sig-catch",
    why: "lat_sig catch's task has an FPU context but does not own the FPU when it signals: per signal, convert_fxsr_to_user/from_user classify and copy 8 registers each way and ~20 small __copy_*_user calls move the 624-byte image — the part of the delivery no other figure fixes (lmbench subtracts the kill() system call, so the figure is the delivery, the handler and sigreturn)",
  },
];

/**
 * The starting values of `ops`: the cycles of the profile's own (hand-written) entries. A missing
 * entry gives NaN, which validatePlan reports with the file named.
 */
export function startValues(profile: string, ops: readonly OpClass[], sources: readonly CpuProfileSource[] = BUILTIN_HANDWRITTEN_SOURCES): Partial<Record<OpClass, number>> {
  const src = sources.find((s) => s.id === profile);
  const out: Partial<Record<OpClass, number>> = {};
  for (const op of ops) out[op] = src?.costs?.[op]?.cycles ?? Number.NaN;
  return out;
}

export const FIT_GROUPS: readonly FitGroup[] = PLAN.map(({ ops, ...g }) => ({ ...g, start: startValues(g.profile, ops) }));

export function getGroup(id: string): FitGroup {
  const g = FIT_GROUPS.find((x) => x.id === id);
  if (!g) throw new Error(`calibration: no fit group '${id}' (groups: ${FIT_GROUPS.map((x) => x.id).join(", ")})`);
  return g;
}

/** The group's op values at scale s, rounded to whole cycles (what the profile will hold). */
export function groupValues(g: FitGroup, s: number): Partial<Record<OpClass, number>> {
  const out: Partial<Record<OpClass, number>> = {};
  for (const [op, v] of Object.entries(g.start) as [OpClass, number][]) out[op] = Math.max(0, Math.round(v * s));
  return out;
}
