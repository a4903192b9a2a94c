/**
 * "Your machine" and its what-ifs, without a DOM (issue 16's last item): a loaded probe of this
 * machine beside the linux-6 simulation on the CPU profile that matches it, and the same five
 * figures simulated under a what-if ("without page-table isolation", "with a lazy FPU", ...), each
 * with its difference from that baseline simulation.
 *
 * Which mitigations a what-if can take away is not a table here: the linux6 plugin resolves its
 * per-CPU defaults when it checks the CPU and counts each one that is on
 * (`linux6.mitigation.<option>`, `linux6.mitigation.spectreV2.<mode>`), so the baseline runs' own
 * counters say what this profile has. Whether a what-if can run on this stack at all is what the
 * execution host would decide: the plugin must be there and enabled, its options must be valid
 * (core's `resolveOptions`), and no two plugins of the stack may replace the same extension point
 * (core's `checkConflicts`, the check the host makes before a run).
 */
import { hostFigure, signedErrorPercent, type SimulatedFigure, longMode, matchHostProfile, type HostCpu, type ProfileMatch } from "@siglab/core/common";
import { checkConflicts, resolveOptions } from "@siglab/core/plugin-api";
import type { CpuProfileFile, CpuRef, PluginManifest, RunResult, VariantSpec } from "../../common/contracts.js";
import type { PluginEntry, PresetEntry } from "../../common/host-api.js";
import { PLUGIN_CPU_FEATURES } from "../state/cpu-features.js";
import { LMBENCH_BENCHMARKS, type LmbenchBenchmark } from "./lmbench.js";

/** The preset of a current x86-64 kernel (the CLI's MODERN_PRESET, apps/cli/src/commands/suite-host.ts). */
export const MODERN_PRESET = "linux-6";

/** One run of "your machine": a benchmark on the compared profile under one stack. */
export interface MachineRun {
  example: string;
  cpu: CpuRef;
  stack: VariantSpec[];
  params: Record<string, number | string | boolean>;
}

/**
 * The five runs of one stack (baseline or a what-if) on a profile at its clock, each simulated as
 * `siglab suite host` simulates its probe figure (core's HOST_FIGURES): the probe pins both
 * processes of lat_ctx and lat_pipe to one CPU, so those run on a two-CPU machine with lmbench's
 * LMBENCH_SCHED=SINGLE (the examples' `sched`).
 */
export function machineRuns(cpu: { id: string; mhz: number }, stack: VariantSpec[]): MachineRun[] {
  return LMBENCH_BENCHMARKS.map((b) => {
    const how: Partial<SimulatedFigure> = hostFigure(b.probeId) ?? {};
    return { example: b.example, cpu: how.smp ? { ...cpu, smp: how.smp } : { ...cpu }, stack, params: { ...(how.params ?? {}) } };
  });
}

// ---- the profile of this machine ---------------------------------------------------------------------

/** What the probe says about the host's CPU (its JSON's host.vendor, host.cpuid). */
export type ProbeCpu = HostCpu;
export type { ProfileMatch };
export { longMode };

/**
 * The profile of this machine's CPU, as `siglab suite host` picks it (core's matchHostProfile),
 * among x86-64 profiles only: the linux-6 preset runs on no other.
 */
export function matchProbeProfile(host: ProbeCpu, profiles: readonly CpuProfileFile[]): ProfileMatch | null {
  return matchHostProfile(host, profiles, { longModeOnly: true });
}

/** Why a profile cannot run the baseline stack (a plugin needs a CPU feature it lacks), or null. */
export function profileRefusal(profile: CpuProfileFile, stack: readonly VariantSpec[]): string | null {
  for (const v of stack) {
    for (const f of PLUGIN_CPU_FEATURES[v.id] ?? []) {
      if ((profile.features as unknown as Record<string, boolean | undefined>)[f] !== true) return `${profile.name} lacks ${f === "lm" ? "long mode (x86-64)" : f}, which the ${v.id} plugin needs`;
    }
  }
  return null;
}

// ---- the what-ifs ------------------------------------------------------------------------------------

/** A what-if: a button, and the stack its runs use. `reason` set: it cannot run (the tooltip). */
export interface WhatIf {
  id: string;
  /** the button and the row: "without page-table isolation" */
  label: string;
  stack: VariantSpec[];
  /** what it changes, one line (an enabled button's tooltip) */
  description: string;
  reason?: string;
}

/**
 * The linux6 mitigations a what-if can switch off: the plugin's option, the counter the plugin
 * reports when the baseline has it on, and the label. The option names are checked against the
 * plugin's manifest (resolveOptions) before a button is enabled.
 */
export const MITIGATION_WHATIFS: readonly { option: string; label: string; what: string }[] = [
  { option: "pti", label: "without page-table isolation", what: "pti=off: no CR3 switch on kernel entry and exit (the kernel's `pti=off` / `nopti`)" },
  { option: "spectreV2", label: "without the spectre_v2 mitigation", what: "spectreV2=off: no IBRS MSR writes, retpolines or AutoIBRS (`spectre_v2=off`)" },
  { option: "verw", label: "without VERW buffer clearing (MDS)", what: "verw=off: no CLEAR_CPU_BUFFERS before the return to user mode (`mds=off`)" },
  { option: "rsbFill", label: "without RSB filling on context switch", what: "rsbFill=off: no FILL_RETURN_BUFFER in __switch_to_asm" },
  { option: "ibpb", label: "without IBPB on switch", what: "ibpb=off: no indirect branch prediction barrier between address spaces" },
  { option: "retbleedUntrain", label: "without SRSO/retbleed untraining", what: "retbleedUntrain=off: no UNTRAIN_RET at entry and no return thunk (`spec_rstack_overflow=off`)" },
];

/** The built-in plugins' what-ifs that add a plugin to the baseline stack. */
export const PLUGIN_WHATIFS: readonly { id: string; label: string; add: VariantSpec; what: string; whyNot: string }[] = [
  {
    id: "lazy-fpu",
    label: "with a lazy FPU",
    add: { id: "lazy-fpu-frame" },
    what: "lazy-fpu-frame: the signal frame's FP save deferred until the handler touches the FPU",
    whyNot: "Linux 6 has no lazy FPU to switch on: \"Linux starting from 4.9 has no lazy switching code anymore\" (the LazyFP advisory, CVE-2018-3665; kernel-paths.md §6, eager FPU history). The lazy-fpu-frame plugin models 2.4's lazy frame and cannot be stacked on linux6",
  },
  {
    id: "sa-nofp",
    label: "with SA_NOFP",
    add: { id: "sa-nofp", options: { forceAll: true } },
    what: "sa-nofp:forceAll=true: every handler SA_NOFP, no FP image in the frame and none restored at sigreturn",
    whyNot: "Linux 6 has no SA_NOFP: Andi Kleen's flag never went upstream, and x86-64 always XSAVEs into the frame (kernel-paths.md V1, \"Modern status\"). The sa-nofp plugin patches 2.4's frame and cannot be stacked on linux6",
  },
];

/** The counters of the baseline runs, summed (a run that failed adds nothing). */
export function baselineCounters(results: readonly (RunResult | undefined)[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) {
    if (!r || r.error) continue;
    for (const [k, v] of Object.entries(r.counters ?? {})) out[k] = (out[k] ?? 0) + v;
  }
  return out;
}

/** The stack with the linux6 entry's options changed (the other entries kept). */
function withOption(stack: readonly VariantSpec[], plugin: string, option: string, value: string): VariantSpec[] {
  return stack.map((v) => (v.id === plugin ? { id: v.id, options: { ...(v.options ?? {}), [option]: value } } : { ...v }));
}

/**
 * Why a stack cannot run (the host would refuse it), or null: a plugin missing, disabled or
 * refused, an option its manifest does not have, or two plugins replacing the same extension point.
 */
export function stackRefusal(stack: readonly VariantSpec[], plugins: readonly PluginEntry[]): string | null {
  const manifests: PluginManifest[] = [];
  for (const v of stack) {
    const p = plugins.find((x) => x.id === v.id);
    if (!p || !p.manifest) return `the ${v.id} plugin is not installed`;
    if (p.status !== "ok") return `the ${v.id} plugin was refused: ${p.reason ?? "see the Plugins view"}`;
    if (!p.enabled) return `the ${v.id} plugin is not enabled (Plugins view)`;
    try {
      resolveOptions(p.manifest, (v.options ?? {}) as Parameters<typeof resolveOptions>[1]);
    } catch (e) {
      return (e as Error).message;
    }
    manifests.push(p.manifest);
  }
  try {
    checkConflicts(manifests);
  } catch (e) {
    return `the host refuses this stack: ${(e as Error).message}`;
  }
  return null;
}

/**
 * The what-ifs on a baseline stack (the linux-6 preset's), given its runs' counters (null while the
 * baseline has not run: the mitigation what-ifs wait for it) and the plugins. Mitigations the
 * baseline has off are listed, disabled, with that reason; so are plugins the host would refuse.
 */
export function whatIfs(baseline: readonly VariantSpec[], counters: Record<string, number> | null, plugins: readonly PluginEntry[], profileName: string): WhatIf[] {
  const out: WhatIf[] = [];
  const kernel = baseline.find((v) => v.id === "linux6");
  for (const m of MITIGATION_WHATIFS) {
    const stack = kernel ? withOption(baseline, "linux6", m.option, "off") : [...baseline];
    const w: WhatIf = { id: m.option, label: m.label, stack, description: m.what };
    if (!kernel) w.reason = "the baseline stack has no linux6 plugin, whose options these are";
    else if (!counters) w.reason = "waiting for the baseline simulation (it reports which mitigations this profile has on)";
    else {
      const on = m.option === "spectreV2"
        ? Object.keys(counters).find((k) => k.startsWith("linux6.mitigation.spectreV2.") && k !== "linux6.mitigation.spectreV2.off" && counters[k]! > 0)
        : (counters[`linux6.mitigation.${m.option}`] ?? 0) > 0 ? m.option : undefined;
      if (!on) w.reason = `already off in the baseline: the linux6 plugin's default for ${profileName} (the kernel's choice for this CPU) leaves it off, so there is nothing to take away`;
      else {
        if (m.option === "spectreV2") w.description = `${m.what}; the baseline uses ${on.slice("linux6.mitigation.spectreV2.".length)}`;
        const refused = stackRefusal(stack, plugins);
        if (refused) w.reason = refused;
      }
    }
    out.push(w);
  }
  for (const p of PLUGIN_WHATIFS) {
    const stack = [...baseline.map((v) => ({ ...v })), p.add];
    const w: WhatIf = { id: p.id, label: p.label, stack, description: p.what };
    const refused = stackRefusal(stack, plugins);
    if (refused) w.reason = /conflict: both replace/.test(refused) && kernel ? `${p.whyNot}: ${refused}.` : refused;
    out.push(w);
  }
  return out;
}

/** (what-if − baseline) / baseline in percent (core's signedErrorPercent); null without both figures or with a baseline <= 0. */
export function deltaPercent(whatIf: number | null, baseline: number | null): number | null {
  return signedErrorPercent(whatIf, baseline);
}

/** "+0.012 µs", "−0.084 µs" */
export function formatDeltaUs(d: number): string {
  const a = Math.abs(d);
  const t = a >= 100 ? a.toFixed(1) : a >= 1 ? a.toFixed(2) : a.toFixed(3);
  return `${d < 0 ? "−" : d > 0 ? "+" : ""}${t} µs`;
}

export type { LmbenchBenchmark };
