/**
 * Which CPU features a workload and its variant stacks need, and a CPU selection that has them.
 * Pure functions (no DOM): the app calls them when a document opens, when a variant stack is added
 * and before a run, so the first click on an SSE or SYSENTER example does not fail on a CPU that
 * cannot run it.
 */
import type { CpuRef, VariantSpec } from "../../common/contracts.js";

/** The CLI's default CPU (apps/cli/src/commands/run.ts DEFAULT_CPU, at the profile's default clock). */
export const DEFAULT_CPU: CpuRef = { id: "p4-northwood", mhz: 2200 };

export type CpuFeature = "sse" | "avx" | "avx512" | "sep" | "lm";

/** What each feature is, as the banner says it. */
export const FEATURE_NAMES: Record<CpuFeature, string> = {
  sse: "SSE registers",
  avx: "AVX registers",
  avx512: "AVX-512 registers",
  sep: "SEP (SYSENTER/SYSEXIT)",
  lm: "long mode (x86-64)",
};

/**
 * CPU features a plugin cannot run without (the plugin refuses other CPUs in its checkCpu).
 * Plugin manifests do not declare this yet, so the app keeps the table for the built-in ones.
 */
export const PLUGIN_CPU_FEATURES: Record<string, CpuFeature[]> = {
  sysenter: ["sep"],
  linux6: ["lm"],
};

export interface FeatureNeed {
  feature: CpuFeature;
  /** why: "xmm0" (a register the program uses) or "sysenter" (a variant of a stack) */
  because: string;
  from: "workload" | "variant";
}

const REGISTER_FEATURE: [RegExp, CpuFeature][] = [
  [/^(xmm\d+|mxcsr)$/, "sse"],
  [/^ymm\d+$/, "avx"],
  [/^zmm\d+$/, "avx512"],
];

/**
 * Register names (string literals such as "xmm0") the workload uses outside a `try` block. A use
 * inside `try { … }` is the workload's own fallback for CPUs without the register (the UML examples
 * do that), so it does not make the CPU a requirement. A small scanner: comments, strings and
 * template literals are skipped correctly; regular-expression literals are not recognised (a quote
 * inside one may hide a later register name, which only means no preselection).
 */
export function registersUsed(source: string): string[] {
  const found = new Set<string>();
  const braces: boolean[] = []; // true = the block of a `try`
  let tryDepth = 0;
  let pendingTry = false;
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    if (c === "/" && source[i + 1] === "/") {
      while (i < n && source[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      let text = "";
      while (j < n && source[j] !== c) {
        if (source[j] === "\\") {
          text += source[j + 1] ?? "";
          j += 2;
          continue;
        }
        if (c !== "`" && source[j] === "\n") break;
        text += source[j];
        j++;
      }
      if (tryDepth === 0 && REGISTER_FEATURE.some(([re]) => re.test(text))) found.add(text);
      i = j + 1;
      pendingTry = false;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w$]/.test(source[j]!)) j++;
      pendingTry = source.slice(i, j) === "try";
      i = j;
      continue;
    }
    if (c === "{") {
      braces.push(pendingTry);
      if (pendingTry) tryDepth++;
      pendingTry = false;
    } else if (c === "}") {
      if (braces.pop()) tryDepth--;
    } else if (!/\s/.test(c)) pendingTry = false;
    i++;
  }
  return [...found];
}

/** The features the workload's source and the variant stacks need, each with its reason. */
export function featureNeeds(source: string, stacks: VariantSpec[][]): FeatureNeed[] {
  const out: FeatureNeed[] = [];
  const seen = new Set<CpuFeature>();
  for (const reg of registersUsed(source)) {
    const f = REGISTER_FEATURE.find(([re]) => re.test(reg))![1];
    if (!seen.has(f)) {
      seen.add(f);
      out.push({ feature: f, because: reg, from: "workload" });
    }
  }
  for (const v of stacks.flat()) {
    for (const f of PLUGIN_CPU_FEATURES[v.id] ?? []) {
      if (!seen.has(f)) {
        seen.add(f);
        out.push({ feature: f, because: v.id, from: "variant" });
      }
    }
  }
  return out;
}

export interface ProfileLike {
  id: string;
  name: string;
  clock: { defaultMhz: number };
  features: { [K in CpuFeature]?: boolean };
}

export interface CpuAdjustment {
  cpus: CpuRef[];
  /** CPUs taken out of the selection (they lack a needed feature) */
  removed: { cpu: CpuRef; lacks: CpuFeature[] }[];
  /** the CPU selected instead, when none of the chosen ones could run it */
  added: CpuRef | null;
  /** no profile has every needed feature: the selection is left alone */
  impossible: boolean;
}

const lacking = (p: ProfileLike | undefined, needs: FeatureNeed[]): CpuFeature[] => (p ? needs.filter((n) => p.features[n.feature] !== true).map((n) => n.feature) : []);

/**
 * A CPU selection that can run `needs`: chosen CPUs without a needed feature are dropped, and when
 * none is left the CLI's default CPU (or the first profile with every feature) is selected. Returns
 * the selection unchanged (removed = [], added = null) when every chosen CPU has what is needed.
 */
export function adjustCpus(cpus: CpuRef[], profiles: ProfileLike[], needs: FeatureNeed[]): CpuAdjustment {
  const same: CpuAdjustment = { cpus, removed: [], added: null, impossible: false };
  if (needs.length === 0) return same;
  const byId = (id: string): ProfileLike | undefined => profiles.find((p) => p.id === id);
  const removed = cpus.map((cpu) => ({ cpu, lacks: lacking(byId(cpu.id), needs) })).filter((x) => x.lacks.length > 0);
  if (removed.length === 0) return same;
  const kept = cpus.filter((c) => !removed.some((r) => r.cpu === c));
  if (kept.length > 0) return { cpus: kept, removed, added: null, impossible: false };
  const def = byId(DEFAULT_CPU.id);
  const capable = def && lacking(def, needs).length === 0 ? def : profiles.find((p) => lacking(p, needs).length === 0);
  if (!capable) return { ...same, impossible: true };
  const added: CpuRef = capable.id === DEFAULT_CPU.id ? { ...DEFAULT_CPU } : { id: capable.id, mhz: capable.clock.defaultMhz };
  return { cpus: [added], removed, added, impossible: false };
}

/** One sentence for the banner: what is needed, which CPUs lacked it, what was selected. */
export function describeAdjustment(a: CpuAdjustment, needs: FeatureNeed[], profiles: ProfileLike[], cpuName: (c: CpuRef) => string): string {
  const why = (f: CpuFeature): string => {
    const n = needs.find((x) => x.feature === f)!;
    return n.from === "workload" ? `${FEATURE_NAMES[f]} (the workload uses ${n.because})` : `${FEATURE_NAMES[f]} (for the ${n.because} variant)`;
  };
  if (a.impossible) {
    return `This needs ${needs.map((n) => why(n.feature)).join(" and ")}, and no CPU profile has ${needs.length > 1 ? "them all" : "it"}.`;
  }
  const feats = [...new Set(a.removed.flatMap((r) => r.lacks))];
  const names = a.removed.map((r) => profiles.find((p) => p.id === r.cpu.id)?.name ?? r.cpu.id);
  const lack = `${names.join(", ")} ${names.length > 1 ? "lack" : "lacks"} ${feats.map(why).join(" and ")}`;
  return a.added ? `${lack}: selected ${cpuName(a.added)} instead.` : `${lack}: ${names.length > 1 ? "they were" : "it was"} taken out of the CPU selection.`;
}
