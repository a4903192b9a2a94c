/**
 * Where the cycles of a calibrated figure go, per operation: by phase and for chosen op classes
 * (e.g. the gate's share of a null syscall, the FPU share of a signal). Read from the run's phase
 * and path statistics, so the numbers are the model's own.
 */
import type { RunResult } from "@siglab/core";
import { BUILTIN_PROFILE_FILES, type CpuProfileFile } from "@siglab/cpu-profiles";
import { builtinPluginIds, runExample, type RunRequest } from "./env.js";
import { withWhatIfs } from "./measure.js";
import { NO_CLI_EXIT, SYSENTER, pendingReason } from "./plugins.js";

export interface Share {
  name: string;
  cycles: number;
  share: number;
}

export interface Breakdown {
  id: string;
  title: string;
  run: RunRequest;
  /** what one operation is (e.g. "per signal") */
  per: string;
  /** cycles of one operation (the whole run / operations) */
  total: number;
  phases: Share[];
  /** op-class groups named in the spec */
  ops: Share[];
  pending?: string;
}

interface BreakdownSpec {
  id: string;
  title: string;
  run: RunRequest;
  per: string;
  /** how many operations the run made */
  operations: (r: RunResult) => number;
  /** cycles of one operation (default: the whole run / operations) */
  total?: (r: RunResult) => number;
  /** phases to list (default all) */
  phases?: (name: string) => boolean;
  /** named shares: the cycles of some op classes, or of some phases */
  ops: { name: string; ops?: string[]; phases?: string[] }[];
  requires: string[];
}

/** Cycles charged to the given op classes over the whole run. */
export function opCycles(r: RunResult, ops: readonly string[]): number {
  let sum = 0;
  for (const p of r.paths) for (const l of p.ops) if (ops.includes(l.op)) sum += l.cycles * p.count;
  return sum;
}

const GATE = ["int_gate", "iret_user", "exception_entry", "iret_kernel"];
const FPU_PHASES = ["signal.fpu_save", "signal.fpu_restore", "fpu.nm_trap"];
const P4 = { cpu: "p4-northwood", mhz: 2200 };
const P3 = { cpu: "p6-coppermine", mhz: 820 };
const counter = (name: string) => (r: RunResult) => r.counters[name] ?? 0;

function specs(): BreakdownSpec[] {
  const syscall = (id: string, title: string, cpu: typeof P4, variants: RunRequest["variants"], requires: string[], ops: BreakdownSpec["ops"]): BreakdownSpec => ({
    id,
    title,
    run: { workload: "lat_syscall", ...cpu, variants, params: { iterations: 20_000, call: "getpid" } },
    per: "per getpid",
    operations: counter("syscalls.getpid"),
    ops,
    requires,
  });
  return [
    syscall("p4-null-syscall", "Null system call (int $0x80), P4", P4, [], [], [{ name: "gate entry + exit (int $0x80, iret)", ops: ["int_gate", "iret_user"] }]),
    syscall("p4-null-syscall-sysenter", "Null system call (sysenter), P4", P4, [{ id: SYSENTER }], [SYSENTER], [{ name: "sysenter + sysexit", ops: ["sysenter", "sysexit"] }]),
    syscall("p3-null-syscall", "Null system call (int $0x80), PIII", P3, [], [], [
      { name: "gate entry + exit (int $0x80, iret)", ops: ["int_gate", "iret_user"] },
      { name: "cli + iret re-enabling IF", ops: ["cli", "iret_if_change"] },
    ]),
    syscall("p3-null-syscall-no-cli", "Null system call without the cli, PIII", P3, [{ id: NO_CLI_EXIT }], [NO_CLI_EXIT], [
      { name: "gate entry + exit (int $0x80, iret)", ops: ["int_gate", "iret_user"] },
      { name: "cli + iret re-enabling IF", ops: ["cli", "iret_if_change"] },
    ]),
    {
      id: "p4-signal",
      title: "lat_sig catch's kill-and-catch loop (the task has an FPU context), P4; lmbench's figure is this minus a kill(me, 0) round trip",
      run: { workload: "lat_sig_catch", ...P4, params: { iterations: 4_000, subtractSend: false } },
      per: "per signal",
      operations: counter("signals.delivered"),
      ops: [
        { name: "FPU save/restore (phases signal.fpu_save, signal.fpu_restore, fpu.nm_trap)", phases: FPU_PHASES },
        { name: "gates (int $0x80, exception entries, iret)", ops: GATE },
        { name: "fxsave + fxrstor", ops: ["fxsave", "fxrstor"] },
        { name: "CR0/DR writes and reads (stts, clts, db7)", ops: ["write_cr0", "read_cr0", "clts", "mov_dr"] },
        { name: "FXSR <-> i387 register conversion", ops: ["fxsr_convert_reg"] },
      ],
      requires: [],
    },
    {
      id: "p4-ctx",
      title: "lat_ctx 2p/0K, P4 (shares of the reported context switch; the scheduler phases only)",
      run: { workload: "lat_ctx", ...P4 },
      per: "per context switch",
      operations: counter("sched.switches"),
      total: (r) => r.metrics.find((m) => m.name === "context switch cycles")?.value ?? Number.NaN,
      phases: (name) => name.startsWith("sched."),
      ops: [
        { name: "CR3 write (switch_mm)", ops: ["mov_cr3"] },
        { name: "TLB refills after the switch", ops: ["tlb_miss"] },
      ],
      requires: [],
    },
  ];
}

/** `available`: plugin ids treated as built (default: the built-in plugins); runs execute one after another in the execution host. */
export async function phaseBreakdowns(o: { profiles?: CpuProfileFile[]; available?: readonly string[] } = {}): Promise<Breakdown[]> {
  const profiles = withWhatIfs(o.profiles ?? [...BUILTIN_PROFILE_FILES]);
  const available = o.available ?? builtinPluginIds();
  const out: Breakdown[] = [];
  for (const s of specs()) out.push(await breakdownOf(s, profiles, available));
  return out;
}

async function breakdownOf(s: BreakdownSpec, profiles: CpuProfileFile[], available: readonly string[]): Promise<Breakdown> {
  const base = { id: s.id, title: s.title, run: s.run, per: s.per };
  const pending = pendingReason(s.requires, available);
  if (pending) return { ...base, total: 0, phases: [], ops: [], pending };
  const r = await runExample(s.run, profiles, available);
  const n = s.operations(r);
  if (!n) throw new Error(`breakdown ${s.id}: the run made no operations`);
  const total = s.total ? s.total(r) : r.totalCycles / n;
  const share = (c: number): Share["share"] => c / n / total;
  const phases = Object.entries(r.phases)
    .filter(([name]) => (s.phases ? s.phases(name) : true))
    .map(([name, c]) => ({ name, cycles: c / n, share: share(c) }))
    .filter((p) => p.share >= 0.001)
    .sort((a, b) => b.cycles - a.cycles);
  const ops = s.ops.map((g) => {
    const c = (g.ops ? opCycles(r, g.ops) : 0) + (g.phases ?? []).reduce((sum, p) => sum + (r.phases[p] ?? 0), 0);
    return { name: g.name, cycles: c / n, share: share(c) };
  });
  return { ...base, total, phases, ops };
}
