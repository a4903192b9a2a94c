/**
 * Equivalence oracle (issue 12): every example × {baseline, its suggested stack, the built-in
 * plugins' examples with theirs} × two CPUs, run in-process with a timeline; prints one JSON line
 * per run. Diff two outputs to prove a speed change is op-for-op identical:
 *   node --import tsx packages/builtin-plugins/scripts/oracle-snapshot.ts > before.jsonl
 */
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { EXAMPLES, type VariantSpec } from "@siglab/core";
import { runSource } from "../../core/test/harness.js";

const CPUS = [["p4-northwood", 2200], ["p6-coppermine", 1000]] as const;
const small = (id: string): Record<string, number> =>
  id.startsWith("uml_") ? { syscalls: 40 } : id === "ngpt_yield" ? { yields: 300 } : id.startsWith("aio") ? { rounds: 5 } : { iterations: 300 };
const cases: { id: string; source: string; file: string; stacks: VariantSpec[][] }[] = [
  ...EXAMPLES.map((e) => ({ id: e.id, source: e.source, file: e.file, stacks: [[], ...(e.suggestedVariants ? [e.suggestedVariants] : [])] })),
  ...BUILTIN_PLUGINS.flatMap((p) => (p.examples ?? []).map((e) => ({ id: e.id, source: e.source, file: e.file, stacks: [e.suggestedVariants ?? []] }))),
];
for (const c of cases) {
  for (const [cpu, mhz] of CPUS) {
    for (const variants of c.stacks) {
      const declared = /params:\s*\{([^}]*)\}/.exec(c.source)?.[1] ?? "";
      const params = Object.fromEntries(Object.entries(small(c.id)).filter(([k]) => declared.includes(k)));
      const r = runSource(c.source, { cpu, mhz, variants, params, plugins: BUILTIN_PLUGINS, timeline: true }, c.file);
      process.stdout.write(JSON.stringify({ id: c.id, cpu, variants, r }) + "\n");
    }
  }
}
