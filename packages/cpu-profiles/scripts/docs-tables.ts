/** The generated parts of docs/profiles.md: provenance summary and op × profile matrix. */
import { BUILTIN_FITTED_OVERLAYS, BUILTIN_HANDWRITTEN_SOURCES } from "../src/builtin.js";
import type { FittedOverlay } from "../src/overlay.js";
import { SMP_OP_CLASS_IDS } from "../src/op-classes.js";
import { provenanceMatrix, provenanceSummaryTable } from "../src/provenance.js";
import type { CpuProfileSource, CpuProfileFile } from "../src/types.js";

/** Markdown: every fitted op with its starting value (hand-written) and its fitted value (overlay). */
export function fittedTable(
  sources: readonly CpuProfileSource[] = BUILTIN_HANDWRITTEN_SOURCES,
  overlays: Readonly<Record<string, FittedOverlay>> = BUILTIN_FITTED_OVERLAYS,
): string {
  const rows = ["| profile | op | starting value | fitted value | group | fitted to |", "|---|---|---|---|---|---|"];
  for (const src of sources) {
    for (const [op, e] of Object.entries(src.costs ?? {})) {
      if (e?.kind !== "fitted") continue;
      const o = overlays[src.id]?.costs[op as keyof FittedOverlay["costs"]];
      const fitted = !o ? "— (not calibrated yet)" : o.status === "unreachable" ? `${o.cycles} (out of reach: start kept)` : String(o.cycles);
      const stale = o && o.start !== e.cycles ? ` (stale: fitted from ${o.start})` : "";
      rows.push(`| ${src.id} | \`${op}\` | ${e.cycles} | ${fitted}${stale} | ${o?.group ?? "—"} | ${(e.fittedTo ?? []).join(", ")} |`);
    }
  }
  return rows.join("\n");
}

/** Markdown: the SMP costs (API 2.2) of every profile that gives them, with their reasons. */
export function smpTable(files: readonly CpuProfileFile[]): string {
  const rows = ["| profile | op | cycles at the default clock | ns (fixed in time) | kind | reason |", "|---|---|---|---|---|---|"];
  for (const f of files) {
    for (const op of SMP_OP_CLASS_IDS) {
      const e = f.costs[op];
      if (!e) {
        rows.push(`| ${f.id} | \`${op}\` | — | — | — | not given: the profile runs one CPU only |`);
        continue;
      }
      const rel = e.relativeTo ? ` (= ${e.relativeTo.op}${e.relativeTo.factor !== undefined ? ` × ${e.relativeTo.factor}` : ""})` : "";
      rows.push(`| ${f.id} | \`${op}\` | ${e.cycles}${rel} | ${e.ns ?? "—"} | ${e.kind}${e.inheritedFrom ? ` (from ${e.inheritedFrom})` : ""} | ${e.source.replace(/\|/g, "\\|")} |`);
    }
  }
  return rows.join("\n");
}

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
    "Fitted ops: the starting value (the hand-written profile, an independent estimate whose reason is in its `source`) and the fitted value (the generated overlay `profiles/fitted/<id>.json` that the loader applies):",
    "",
    fittedTable(),
    "",
    "SMP costs (`--smp N`, docs/smp.md; bus- and memory-bound ones are fixed in time: a run at another clock gets ns × MHz / 1000 cycles):",
    "",
    smpTable(files),
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
