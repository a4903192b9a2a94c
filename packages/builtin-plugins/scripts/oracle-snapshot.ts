/**
 * Equivalence oracle snapshot (issue 12): the oracle's cases (test/oracle-cases.ts) run in-process
 * with a timeline; prints one JSON line per run. Diff two outputs to prove a speed change is
 * op-for-op identical:
 *   node --import tsx packages/builtin-plugins/scripts/oracle-snapshot.ts > before.jsonl
 * `--exact` runs every kernel path op by op (the oracle test's reference mode).
 */
import { oracleCases, runOracleCase } from "../test/oracle-cases.js";

const exactPaths = process.argv.includes("--exact");
for (const c of oracleCases()) {
  const r = runOracleCase(c, { exactPaths });
  process.stdout.write(JSON.stringify({ id: c.id, cpu: c.cpu, smp: c.smp ?? 1, variants: c.variants, r }) + "\n");
}
