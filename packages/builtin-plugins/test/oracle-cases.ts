/**
 * The equivalence oracle's cases (issue 12): every shipped example and every built-in plugin's
 * example, each with no variant and with its suggested stack, on two CPUs (the example's suggested
 * CPU and a second one of the same kind, else a P4 and a PIII), at small sizes, with a timeline.
 * Used by oracle.test.ts (fast paths against every path op by op) and by
 * scripts/oracle-snapshot.ts (a speed change's before/after diff).
 */
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { EXAMPLES, type RunResult, type VariantSpec } from "@siglab/core";
import { runSource, type RunOpts } from "../../core/test/harness.js";

export interface OracleCase {
  id: string;
  source: string;
  file: string;
  cpu: string;
  mhz?: number;
  variants: VariantSpec[];
  params: Record<string, number>;
  /** CPUs of an SMP machine (lat_pipe and lat_ctx also run on a dual PIII) */
  smp?: number;
}

const OLD_CPUS: [string, number][] = [["p4-northwood", 2200], ["p6-coppermine", 1000]];
/** a 64-bit example's second CPU: the other vendor */
const SECOND_64: Record<string, string> = { skylake: "zen4", "skylake-x": "zen4", zen4: "skylake", zen5: "skylake" };

function small(id: string, source: string, scale: number): Record<string, number> {
  const base = id.startsWith("uml_") ? { syscalls: 40 } : id === "ngpt_yield" ? { yields: 300 } : id.startsWith("aio") || id.startsWith("io_uring") ? { rounds: 5 } : { iterations: 300 };
  const declared = /params:\s*\{([^}]*)\}/.exec(source)?.[1] ?? "";
  return Object.fromEntries(Object.entries(base).filter(([k]) => declared.includes(k)).map(([k, v]) => [k, Math.max(2, Math.round(v * scale))]));
}

/** `scale` shrinks the loops (the test runs at 1/3 of the snapshot's sizes). */
export function oracleCases(scale = 1): OracleCase[] {
  const examples = [
    ...EXAMPLES.map((e) => ({ ...e, stacks: [[], ...(e.suggestedVariants ? [e.suggestedVariants] : [])] })),
    ...BUILTIN_PLUGINS.flatMap((p) => (p.examples ?? []).map((e) => ({ ...e, stacks: [e.suggestedVariants ?? []] }))),
  ];
  const out: OracleCase[] = [];
  for (const e of examples) {
    const cpu = e.suggestedCpu;
    const cpus: [string, number | undefined][] = cpu ? [[cpu.id, cpu.mhz], [SECOND_64[cpu.id] ?? "skylake", undefined]] : OLD_CPUS;
    for (const [id, mhz] of cpus) {
      for (const variants of e.stacks) {
        const c = { id: e.id, source: e.source, file: e.file, cpu: id, ...(mhz !== undefined ? { mhz } : {}), variants, params: small(e.id, e.source, scale) };
        out.push(c);
        if (id === "p6-coppermine" && (e.id === "lat_pipe" || e.id === "lat_ctx")) out.push({ ...c, smp: 2 });
      }
    }
  }
  return out;
}

export function runOracleCase(c: OracleCase, extra: Partial<RunOpts> = {}): RunResult {
  return runSource(c.source, { cpu: c.cpu, ...(c.mhz !== undefined ? { mhz: c.mhz } : {}), variants: c.variants, params: c.params, plugins: BUILTIN_PLUGINS, timeline: true, ...(c.smp ? { smp: c.smp } : {}), ...extra }, c.file);
}
