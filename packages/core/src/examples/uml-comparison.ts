/**
 * "The thread's question" (lkml, Aug 2002: "context switch vs. signal delivery [was: Accelerating
 * user mode linux]"): what a User-mode Linux guest system call costs under each design, on the
 * thread's CPUs. One plan, run by `siglab suite uml`; the table is in the README and docs/uml.md.
 */
import type { CpuRef, RunResult, VariantSpec } from "../common/index.js";
import { EXAMPLES } from "./index.js";

export interface UmlCase {
  /** what the row shows */
  label: string;
  design: "tt" | "jail" | "skas";
  example: "uml_tt" | "uml_jail" | "uml_skas";
  variants: VariantSpec[];
  params: Record<string, number | boolean>;
}

/** The CPUs of the thread: Ingo's Pentium 4 and the Pentium III of the era. */
export const UML_CPUS: readonly CpuRef[] = [
  { id: "p4-northwood", mhz: 2200 },
  { id: "p6-coppermine", mhz: 1000 },
];

/** Guest syscalls per run: enough for the setup (fork, first stop) to vanish in the average. */
const SYSCALLS = 500;

export const UML_CASES: readonly UmlCase[] = [
  { label: "tt (2002: signal + sigreturn per syscall)", design: "tt", example: "uml_tt", variants: [], params: { syscalls: SYSCALLS } },
  { label: "tt with SA_NOFP (no FP save in the frame)", design: "tt", example: "uml_tt", variants: [{ id: "sa-nofp" }], params: { syscalls: SYSCALLS } },
  { label: "jail (tt + mprotect of the kernel twice)", design: "jail", example: "uml_jail", variants: [], params: { syscalls: SYSCALLS } },
  { label: "skas (a kernel process ptraces the guest)", design: "skas", example: "uml_skas", variants: [], params: { syscalls: SYSCALLS } },
  // Jeff's worry: libc in the UML kernel's handler touches SSE registers, and SA_NOFP saved none
  { label: "tt with SA_NOFP, handler calls an SSE memcpy", design: "tt", example: "uml_tt", variants: [{ id: "sa-nofp" }], params: { syscalls: 50, handlerCopy: 4096 } },
];

export interface UmlRow {
  label: string;
  design: string;
  cpu: string;
  /** microseconds per guest system call (NaN when the run failed) */
  us: number;
  cycles: number;
  /** the host's own getpid on the same CPU, in microseconds */
  hostUs: number;
  /** findings of the run (the SA_NOFP hazard shows here) */
  findings: number;
  error?: string;
}

/** The run specs of the comparison, in table order (case × CPU). */
export function umlComparisonSpecs(): { case: UmlCase; cpu: CpuRef; source: string; file: string }[] {
  const out: { case: UmlCase; cpu: CpuRef; source: string; file: string }[] = [];
  for (const c of UML_CASES) {
    const ex = EXAMPLES.find((e) => e.id === c.example);
    if (!ex) throw new Error(`the UML comparison needs the example '${c.example}'`);
    for (const cpu of UML_CPUS) out.push({ case: c, cpu, source: ex.source, file: ex.file });
  }
  return out;
}

function metric(r: RunResult, name: string): number {
  return r.metrics.find((m) => m.name === name)?.value ?? NaN;
}

export function umlRow(c: UmlCase, r: RunResult): UmlRow {
  const row: UmlRow = { label: c.label, design: c.design, cpu: `${r.cpu.id}@${r.cpu.mhz}`, us: metric(r, "per guest syscall"), cycles: metric(r, "per guest syscall cycles"), hostUs: metric(r, "host getpid"), findings: r.findings.length };
  if (r.error) row.error = r.error.message;
  return row;
}

/** The comparison as a text table: one line per case, one column per CPU. */
export function formatUmlComparison(rows: readonly UmlRow[]): string {
  const cpus = [...new Set(rows.map((r) => r.cpu))];
  const labels = [...new Set(rows.map((r) => r.label))];
  const lines = [`${"design".padEnd(48)}${cpus.map((c) => c.padStart(26)).join("")}`];
  for (const label of labels) {
    const cells = cpus.map((cpu) => {
      const r = rows.find((x) => x.label === label && x.cpu === cpu);
      if (!r) return "".padStart(26);
      if (r.error) return "error".padStart(26);
      const f = r.findings ? ` ${r.findings}!` : "";
      return `${r.us.toFixed(2)} us ×${(r.us / r.hostUs).toFixed(0)}${f}`.padStart(26);
    });
    lines.push(label.padEnd(48) + cells.join(""));
  }
  const host = cpus.map((cpu) => `${(rows.find((r) => r.cpu === cpu)?.hostUs ?? NaN).toFixed(3)} us`.padStart(26));
  lines.push("host getpid (for scale)".padEnd(48) + host.join(""));
  return lines.join("\n");
}
