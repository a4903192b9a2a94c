/**
 * `siglab calibrate --from-probe`: a user profile of this machine, fitted to part of its probe's
 * figures. The profile is a clone of the built-in profile that matches the probe's CPU; three
 * groups of its costs get one scale each (as the built-in calibration's groups do, plan.ts), each
 * fixed by one probe figure; every other figure the probe measured is predicted, and each fitted
 * figure is also predicted by a fit that left it out (leave-one-out), so the errors say what the
 * profile knows rather than what it was told.
 */
import type { VariantSpec } from "@siglab/core";
import { resolveProfile, type CostEntry, type CpuProfileFile, type CpuProfileSource, type OpClass } from "@siglab/cpu-profiles";
import { exampleParams, executedOps, runExample, SCALE_BOUNDS, solveScale } from "@siglab/calibration";
import { hostFigure, signedErrorPercent, virtualizationLabel, type HostVirtualization } from "@siglab/core/common";
import { round2 } from "./host-compare.js";
import type { ProbeFigure } from "./probe/figures.js";

/** One free parameter: a scale on the starting costs of these ops, fixed by one probe figure. */
export interface ProbeFitGroup {
  id: string;
  figure: string;
  /** candidate ops; the group keeps those the figure's run executes and the CPU has */
  ops: readonly OpClass[];
  why: string;
}

export const PROBE_FIT_GROUPS: readonly ProbeFitGroup[] = [
  { id: "entry", figure: "lat_syscall_null", ops: ["int_gate", "iret_user", "sysenter", "sysexit", "syscall", "sysret"], why: "the privilege transitions of a system call round trip" },
  { id: "signal", figure: "lat_sig_catch", ops: ["fsave", "frstor", "fxsave", "fxrstor", "xsave_chunk", "xrstor_chunk", "fxsr_convert_reg", "copy_user_setup", "copy_user_line"], why: "the FP state and the frame copied at signal delivery and sigreturn" },
  { id: "switch", figure: "lat_ctx_2p_0k", ops: ["mov_cr3", "tlb_miss"], why: "the address-space switch and the TLB refills after it" },
];

export interface ProbeFitOptions {
  base: CpuProfileFile;
  mhz: number;
  id: string;
  name: string;
  figures: readonly ProbeFigure[];
  /** the variant stack every simulation runs (the linux-6 preset when installed) */
  stack: VariantSpec[];
  /** workload parameters of every simulation (tests keep runs short) */
  params?: Record<string, number>;
  /** what the probe measured, for the sources of the fitted costs */
  hostName: string;
  /** the probe's host.virtualization: a virtual machine is named in the profile's notes and sources */
  virtualization?: HostVirtualization | null;
  log?: (line: string) => void;
}

export interface ProbeFitGroupResult {
  id: string;
  figure: string;
  ops: OpClass[];
  status: "fitted" | "unreachable" | "not measured";
  scale: number;
}

export interface ProbeFitRow {
  id: string;
  measured: number;
  /** simulated with every group fitted */
  simulated: number | null;
  errorPercent: number | null;
  /** the figure fixed a group (its in-sample error is 0 by construction; see looErrorPercent) */
  fitted: boolean;
  /** fitted figures: predicted by a fit that left this figure's group at its starting scale */
  looSimulated?: number | null;
  looErrorPercent?: number | null;
}

export interface ProbeFitResult {
  profile: CpuProfileSource;
  groups: ProbeFitGroupResult[];
  rows: ProbeFitRow[];
}

/** The error in percent to two decimals, as `suite host` gives it; null when measured <= 0. */
const pct = (sim: number | null, measured: number): number | null => round2(signedErrorPercent(sim, measured));

/** The profile with each group's ops at start × scale. */
function withScales(base: CpuProfileFile, id: string, groups: readonly { ops: readonly OpClass[] }[], scales: readonly number[]): CpuProfileFile {
  const f = structuredClone(base);
  f.id = id;
  groups.forEach((g, i) => {
    for (const op of g.ops) f.costs[op] = { ...f.costs[op], cycles: Math.max(0, Math.round(base.costs[op].cycles * scales[i]! * 100) / 100) };
  });
  return f;
}

export async function fitProfileToProbe(o: ProbeFitOptions): Promise<ProbeFitResult> {
  const log = o.log ?? (() => {});
  const measured = new Map(o.figures.map((f) => [f.id, f.median]));
  const simulate = async (profile: CpuProfileFile, figure: string): Promise<{ value: number; ops: Set<string> }> => {
    const s = hostFigure(figure)!;
    const declared = await exampleParams(s.example);
    const extra = Object.fromEntries(Object.entries(o.params ?? {}).filter(([k]) => k in declared));
    const r = await runExample({ workload: s.example, cpu: profile.id, mhz: o.mhz, ...(s.smp ? { smp: s.smp } : {}), variants: o.stack, params: { ...(s.params ?? {}), ...extra } }, [profile]);
    const m = r.metrics.find((x) => x.name === s.metric);
    if (!m) throw new Error(`${s.example}: no metric '${s.metric}'`);
    return { value: m.value, ops: executedOps(r) };
  };
  const baseFile = withScales(o.base, o.id, [], []);
  // each group keeps the candidate ops its figure's run executes and the CPU has
  const groups: { g: ProbeFitGroup; ops: OpClass[]; measured: number | undefined }[] = [];
  for (const g of PROBE_FIT_GROUPS) {
    const m = measured.get(g.figure);
    const ran = m === undefined ? new Set<string>() : (await simulate(baseFile, g.figure)).ops;
    // an op whose cost is defined relative to another follows that op (the loader recomputes it):
    // scaling it would be undone, so only the ops with values of their own are the group's
    groups.push({ g, ops: g.ops.filter((op) => ran.has(op) && !o.base.costs[op].unavailable && !o.base.costs[op].relativeTo && o.base.costs[op].cycles > 0), measured: m });
  }
  /** coordinate descent over the groups' scales; `skip` stays at 1 */
  const fitScales = async (skip: number): Promise<{ scales: number[]; status: ProbeFitGroupResult["status"][] }> => {
    const scales = groups.map(() => 1);
    const status: ProbeFitGroupResult["status"][] = groups.map((x) => (x.measured === undefined || !x.ops.length ? "not measured" : "fitted"));
    for (let sweep = 0; sweep < 3; sweep++) {
      let moved = false;
      for (let i = 0; i < groups.length; i++) {
        const x = groups[i]!;
        if (i === skip || status[i] === "not measured") continue;
        const fn = async (s: number) => {
          const trial = [...scales];
          trial[i] = s;
          return (await simulate(withScales(o.base, o.id, groups, trial), x.g.figure)).value - x.measured!;
        };
        const key = (s: number) => x.ops.map((op) => Math.round(o.base.costs[op].cycles * s * 100)).join(",");
        const r = await solveScale(fn, { lo: SCALE_BOUNDS[0], hi: SCALE_BOUNDS[1], tolerance: x.measured! * 0.002, key, maxEvaluations: 24 });
        const next = r.status === "solved" ? r.best.s : 1;
        status[i] = r.status === "solved" ? "fitted" : "unreachable";
        if (Math.abs(next - scales[i]!) > 1e-3) moved = true;
        scales[i] = next;
        log(`  sweep ${sweep + 1} ${x.g.id}: ${status[i]} x${next.toFixed(3)}`);
      }
      if (!moved) break;
    }
    return { scales, status };
  };
  log("fitting every group");
  const all = await fitScales(-1);
  const fitted = withScales(o.base, o.id, groups, all.scales);
  const rows: ProbeFitRow[] = [];
  for (const f of o.figures) {
    if (!hostFigure(f.id)) continue;
    const gi = groups.findIndex((x) => x.g.figure === f.id && all.status[groups.indexOf(x)] === "fitted");
    const sim = (await simulate(fitted, f.id)).value;
    const row: ProbeFitRow = { id: f.id, measured: f.median, simulated: sim, errorPercent: pct(sim, f.median), fitted: gi >= 0 };
    if (gi >= 0) {
      log(`leaving ${f.id} out`);
      const loo = await fitScales(gi);
      const v = (await simulate(withScales(o.base, o.id, groups, loo.scales), f.id)).value;
      row.looSimulated = v;
      row.looErrorPercent = pct(v, f.median);
    }
    rows.push(row);
  }
  // the profile: a clone of the base with the fitted groups' costs as kind "fitted", naming the figure
  const profile = structuredClone(o.base) as unknown as CpuProfileSource & { costs: Record<OpClass, CostEntry> };
  profile.id = o.id;
  profile.name = o.name;
  const vm = virtualizationLabel(o.virtualization);
  profile.notes = [...(o.base.notes ?? []), `Fitted by \`siglab calibrate --from-probe\` to ${o.hostName}: a clone of "${o.base.id}" with ${groups.filter((_, i) => all.status[i] === "fitted").map((x) => x.g.id).join(", ") || "no"} group(s) scaled to the probe's figures.`];
  if (vm) profile.notes.push(`The probe was measured in ${vm}; evidence: ${o.virtualization!.evidence.join("; ") || "none recorded"}. Its figures include the hypervisor's exits, so the fitted costs are this VM's, not its CPU's on bare metal.`);
  delete (profile as unknown as Record<string, unknown>)["inheritedFrom"];
  for (const e of Object.values(profile.costs) as CostEntry[]) delete e.inheritedFrom;
  groups.forEach((x, i) => {
    if (all.status[i] !== "fitted") return;
    for (const op of x.ops) {
      const start = o.base.costs[op];
      profile.costs[op] = {
        cycles: fitted.costs[op].cycles,
        kind: "fitted",
        fittedTo: [x.g.figure],
        source: `Fitted to this machine's ${x.g.figure} (${measured.get(x.g.figure)} µs, siglab probe on ${o.hostName}${vm ? `, ${vm}: the hypervisor's exits are in it` : ""}): group ${x.g.id} (${x.g.why}) scaled x${all.scales[i]!.toFixed(3)} from ${o.base.id}'s ${start.cycles} (${start.kind}: ${start.source})`,
      };
    }
  });
  resolveProfile(profile as unknown as CpuProfileFile, o.mhz); // refuses anything the loader would
  return { profile, groups: groups.map((x, i) => ({ id: x.g.id, figure: x.g.figure, ops: x.ops, status: all.status[i]!, scale: all.scales[i]! })), rows };
}
