/**
 * `siglab suite uml [--json]`: the 2002 thread's question — a User-mode Linux guest system call
 * under tt mode (with and without SA_NOFP), jail mode and skas, on the P4 and the PIII (docs/uml.md).
 */
import { unitText } from "../format.js";
import { formatUmlComparison, umlComparisonSpecs, umlRow, type UmlRow } from "@siglab/core";
import { runInSandbox } from "../run/host.js";
import { inOrderWithProgress, progressLabel } from "../run/progress.js";
import { registerSuite } from "./suite.js";

async function umlSuite(_name: string, o: Record<string, unknown>): Promise<number> {
  const specs = umlComparisonSpecs().map((s) => ({ s, spec: { workload: { id: s.case.example, file: s.file, source: s.source }, cpu: s.cpu, variants: s.case.variants, params: s.case.params, seed: 1 } }));
  const rows: UmlRow[] = await inOrderWithProgress(specs, (x) => progressLabel(x.spec), async ({ s, spec }) => umlRow(s.case, await runInSandbox(spec)));
  if (o["json"]) process.stdout.write(JSON.stringify({ rows }, null, 2) + "\n");
  else {
    console.log("How should User-mode Linux enter its kernel? One guest getpid(), Linux 2.4.18 host (\"×\": times the host's own getpid; \"!\": findings)\n");
    console.log(unitText(formatUmlComparison(rows)));
    const hazard = rows.filter((r) => r.findings > 0);
    if (hazard.length) console.log(`\nfindings: ${hazard.map((r) => `${r.label} on ${r.cpu}: ${r.findings}`).join("; ")} (run uml_tt --variant sa-nofp --param handlerCopy=4096 to see them)`);
  }
  return rows.some((r) => r.error) ? 1 : 0;
}

export function registerUmlSuite(): void {
  registerSuite("uml", umlSuite, { about: "the 2002 thread's question: a UML guest system call under tt, tt with SA_NOFP, jail and skas, on the P4 and the PIII" });
}
