/** The generated parts of docs/profiles.md: provenance summary and op × profile matrix. */
import { provenanceMatrix, provenanceSummaryTable } from "../src/provenance.js";
import type { CpuProfileFile } from "../src/types.js";

export const BEGIN = "<!-- generated:provenance begin (scripts/gen-docs.ts) -->";
export const END = "<!-- generated:provenance end -->";

export function generatedDocs(files: readonly CpuProfileFile[]): string {
  return [
    BEGIN,
    "",
    "Per profile (cost entries; `n/a` = ops the CPU lacks, `inherited` = taken from the parent):",
    "",
    provenanceSummaryTable(files),
    "",
    "Per op class (S sourced, D derived, E estimated, F fitted, `r` = defined relative to another op, – unavailable):",
    "",
    provenanceMatrix(files),
    "",
    END,
  ].join("\n");
}

export function replaceGeneratedDocs(doc: string, files: readonly CpuProfileFile[]): string {
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/profiles.md: markers ${BEGIN} … ${END} not found`);
  return doc.slice(0, a) + generatedDocs(files) + doc.slice(b + END.length);
}
