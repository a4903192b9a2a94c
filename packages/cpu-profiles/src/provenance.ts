/** Provenance summaries of resolved profiles: what is sourced, derived, estimated or fitted. */
import { OP_CLASS_IDS, type OpClass } from "./op-classes.js";
import type { CostEntry, CpuProfileFile, Provenance } from "./types.js";

export interface ProvenanceSummary {
  id: string;
  /** Cost entries per kind, not counting unavailable ops. */
  counts: Record<Provenance, number>;
  /** Ops the CPU lacks. */
  unavailable: number;
  /** Entries taken from an ancestor profile. */
  inherited: number;
  fitted: { op: OpClass; fittedTo: string[] }[];
}

export function provenanceSummary(file: CpuProfileFile): ProvenanceSummary {
  const counts: Record<Provenance, number> = { sourced: 0, derived: 0, estimated: 0, fitted: 0 };
  let unavailable = 0;
  let inherited = 0;
  const fitted: ProvenanceSummary["fitted"] = [];
  for (const op of OP_CLASS_IDS) {
    const e: CostEntry = file.costs[op];
    if (e.inheritedFrom) inherited++;
    if (e.unavailable) {
      unavailable++;
      continue;
    }
    counts[e.kind]++;
    if (e.kind === "fitted") fitted.push({ op, fittedTo: e.fittedTo ?? [] });
  }
  return { id: file.id, counts, unavailable, inherited, fitted };
}

const LETTER: Record<Provenance, string> = { sourced: "S", derived: "D", estimated: "E", fitted: "F" };

/** Markdown: one row per profile with counts and the fitted ops. */
export function provenanceSummaryTable(files: readonly CpuProfileFile[]): string {
  const rows = files.map((f) => {
    const s = provenanceSummary(f);
    const fitted = s.fitted.map((x) => `${x.op} (${x.fittedTo.join(", ")})`).join("; ") || "—";
    const c = s.counts;
    return `| ${f.id} | ${c.sourced} | ${c.derived} | ${c.estimated} | ${c.fitted} | ${s.unavailable} | ${s.inherited} | ${fitted} |`;
  });
  return [
    "| profile | sourced | derived | estimated | fitted | n/a | inherited | fitted ops (figures) |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** Markdown: op classes × profiles, each cell the kind's letter (S/D/E/F), "–" when unavailable. */
export function provenanceMatrix(files: readonly CpuProfileFile[]): string {
  const head = `| op class | ${files.map((f) => f.id).join(" | ")} |`;
  const rule = `|---|${files.map(() => "---").join("|")}|`;
  const rows = OP_CLASS_IDS.map((op) => {
    const cells = files.map((f) => {
      const e = f.costs[op];
      return e.unavailable ? "–" : LETTER[e.kind] + (e.relativeTo ? "r" : "");
    });
    return `| ${op} | ${cells.join(" | ")} |`;
  });
  return [head, rule, ...rows].join("\n");
}
