/**
 * The executor: charges compiled kernel paths to the cycle counter and to phases.
 *
 * Fast path: a path's state-independent ops are folded into one constant per profile, so running a
 * path is one addition — unless an event (timer tick, device completion) falls inside the path's
 * window, in which case it steps op by op and takes the interrupt at the first op boundary where
 * the CPU is in kernel mode with IF=1 (this is what makes the cli in ret_from_sys_call matter).
 */
import type { OpClass, ResolvedProfile } from "@siglab/cpu-profiles";
import type { PathOpStat, PathStat, TimelineEvent } from "../common/results.js";
import { cplEffect, ifEffect, type PathDef } from "./path.js";
import type { PhaseTable } from "./phases.js";
import { hot } from "../machine/typed-arrays.js";
import type { MemoryHierarchy, Region } from "../machine/cache.js";
import { TraceEpochs } from "../machine/trace-epochs.js";

/** CompiledPath.codeId: process-wide, so paths of any registry never share one */
let nextCodeId = 0;

export class CompiledPath {
  count = 0;
  cycles = 0;
  readonly cost: number;
  readonly lineCost: Float64Array;
  /** prefix[i] = the cost of ops 0..i-1 summed in order (prefix[n] === cost, bit for bit) */
  readonly prefix: Float64Array;
  readonly lineIf: Int8Array;
  readonly lineCpl: Int8Array;
  /** IF / CPL after the whole path (-1 = unchanged) */
  readonly ifEnd: number;
  readonly cplEnd: number;
  /** the kernel text of the functions the path runs (null: user code, hardware events only, or no cache model) */
  code: Region[] | null = null;
  /** the L1I's `changes` when every region of `code` was last found resident (-1: never) */
  codeSeenI = -1;
  /** the path enters the kernel through the IDT (int $0x80, an exception, an interrupt) */
  readonly idtEntry: boolean;
  /** names this path's fetch to the trace cache's memo (machine/trace-epochs.ts): a number, compared */
  readonly codeId = nextCodeId++ | 0;

  constructor(readonly def: PathDef, readonly phaseIdx: number, profile: ResolvedProfile) {
    const n = def.ops.length;
    this.lineCost = hot(new Float64Array(n));
    this.lineIf = hot(new Int8Array(n).fill(-1));
    this.lineCpl = hot(new Int8Array(n).fill(-1));
    this.prefix = hot(new Float64Array(n + 1));
    let cost = 0, ifEnd = -1, cplEnd = -1;
    def.ops.forEach((l, i) => {
      const unit = profile.costs[l.op];
      if (unit === undefined) throw new Error(`CPU profile '${profile.id}' has no cost for op class '${l.op}' (used by path '${def.name}')`);
      const c = unit * (l.n ?? 1);
      this.lineCost[i] = c;
      cost += c;
      this.prefix[i + 1] = cost;
      const e = ifEffect(l.op, l.fn);
      if (e !== undefined) { this.lineIf[i] = e; ifEnd = e; }
      const p = cplEffect(l.op);
      if (p !== undefined) { this.lineCpl[i] = p; cplEnd = p; }
    });
    this.cost = cost;
    this.idtEntry = def.ops.some((l) => l.op === "int_gate" || l.op === "exception_entry" || l.op === "irq_entry");
    this.ifEnd = ifEnd;
    this.cplEnd = cplEnd;
  }

  stat(phaseNames: string[]): PathStat {
    const ops: PathOpStat[] = this.def.ops.map((l, i) => {
      const s: PathOpStat = { fn: l.fn, op: l.op, cycles: this.lineCost[i]!, repeat: l.n ?? 1 };
      if (l.note) s.note = l.note;
      return s;
    });
    return { name: this.def.name, phase: phaseNames[this.phaseIdx]!, origin: this.def.origin ?? "core", count: this.count, cycles: this.cycles, ops };
  }
}

/** The CPU state the executor reads and updates (the rest lives in kernel/cpu.ts). */
export interface ExecCpu {
  IF: number;
  cpl: number;
}

export const TIMELINE_LIMIT = 20_000;

/** The one-op paths that charge an instruction fetch's missing lines (the kernel compiles them). */
export interface CodeMissPaths {
  l2: CompiledPath;
  memory: CompiledPath;
  /** re-decoding a line a decoded-instruction cache lost (the P4's trace cache); null elsewhere */
  decode: CompiledPath | null;
}

/** The smallest double above `x` (x >= 0 or Infinity): `c > x` exactly when `c >= above(x)`. */
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
const LO = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
export function above(x: number): number {
  if (x === Infinity) return Infinity;
  bits[0] = x === 0 ? 0 : x; // -0 as +0
  const lo = (words[LO]! + 1) >>> 0;
  words[LO] = lo;
  if (lo === 0) words[1 - LO]!++; // the carry into the exponent's word
  return bits[0]!;
}

export class Executor {
  cycles = 0;
  #nextEvent = Infinity;
  #syncAt = Infinity;
  /**
   * The first cycle at which an interrupt is due (Kernel.interruptDue): the next event, or the
   * first cycle past syncAt, whichever comes first; kept by the two setters, so a poll is one compare.
   */
  dueAt = Infinity;
  /** cycle at which the next event is due (Infinity when none) */
  get nextEvent(): number {
    return this.#nextEvent;
  }
  set nextEvent(v: number) {
    this.#nextEvent = v;
    this.dueAt = Math.min(v, above(this.#syncAt));
  }
  /** cycles per phase index (PhaseTable ids); sized for core + plugin phases */
  phaseCycles = hot(new Float64Array(64));
  /** called at an op boundary in kernel mode with IF=1 when an event is due */
  irqHook: () => void = () => {};
  timeline: TimelineEvent[] | null = null;
  /** the most events the timeline records (RunSpec.timelineLimit) */
  timelineLimit = TIMELINE_LIMIT;
  /** events past timelineLimit that were not recorded (reported as counters["timeline.dropped"]) */
  timelineDropped = 0;
  timelineTask = 0;
  /** the CPU the timeline's events run on (recorded only on an SMP machine) */
  timelineCpu = 0;
  /** recording CPU numbers in the timeline (an SMP machine) */
  timelineCpus = false;
  /**
   * SMP: the cycle at which another CPU acts next (its clock, or an interrupt due to it). User-mode
   * polls stop here so the run loop can let that CPU catch up (smp.ts); Infinity on one CPU.
   */
  get syncAt(): number {
    return this.#syncAt;
  }
  set syncAt(v: number) {
    this.#syncAt = v;
    this.dueAt = Math.min(this.#nextEvent, above(v));
  }
  /**
   * The equivalence oracle's reference mode (RunEnvironment.exactPaths): every path steps op by op
   * with an interrupt check at every op boundary, as if an event were always due. Results must be
   * identical to the folded fast path's (packages/builtin-plugins/test/oracle.test.ts).
   */
  exact = false;
  private inIrq = false;
  /**
   * This CPU's caches (machine/cache.ts; null when the profile models none) and the paths that
   * charge a code fetch's missing lines. A path's code is fetched before its first op.
   */
  mem: MemoryHierarchy | null = null;
  codeMiss: CodeMissPaths | null = null;
  /** on a CPU without global pages: the kernel text's translation, walked again after a CR3 write */
  kernelTextTlb: (() => void) | null = null;
  /** an entry through the IDT empties the decoded-instruction cache (the P4's trace cache) */
  idtFlushesL1i = false;

  /** `cpu` is this CPU's register state (the kernel points it at another CPU on SMP) */
  constructor(public cpu: ExecCpu, readonly phases: PhaseTable, readonly profile: ResolvedProfile) {}

  /** Make room for phases added after construction (plugins' paths). */
  ensurePhases(n: number): void {
    if (n > this.phaseCycles.length) {
      const a = hot(new Float64Array(Math.max(n, this.phaseCycles.length * 2)));
      a.set(this.phaseCycles);
      this.phaseCycles = a;
    }
  }

  /** Run a path once. */
  run(p: CompiledPath): void {
    // a path's timeline event includes its instruction fetch (the code misses are not events of their own)
    const fetchedAt = this.cycles;
    // the gate's microcode empties the trace cache before the handler's first fetch
    if (p.idtEntry && this.idtFlushesL1i) this.flushL1i();
    if (p.code !== null) this.fetchCode(p);
    p.count++;
    p.cycles += p.cost;
    this.phaseCycles[p.phaseIdx] += p.cost;
    const start = this.cycles;
    if (!this.exact && (start + p.cost < this.nextEvent || this.inIrq)) {
      this.cycles = start + p.cost;
      if (p.ifEnd >= 0) this.cpu.IF = p.ifEnd;
      if (p.cplEnd >= 0) this.cpu.cpl = p.cplEnd;
    } else {
      this.runSlow(p);
    }
    if (this.timeline) this.record(p.def.name, p.phaseIdx, fetchedAt);
  }

  /** Run a one-op path `n` times (data-dependent quantities: cache lines copied, registers converted). */
  runN(p: CompiledPath, n: number): void {
    if (n <= 0) return;
    const fetchedAt = this.cycles;
    if (p.code !== null) this.fetchCode(p);
    const c = p.cost * n;
    p.count += n;
    p.cycles += c;
    this.phaseCycles[p.phaseIdx] += c;
    const start = this.cycles;
    if (!this.exact && (start + c < this.nextEvent || this.inIrq)) {
      this.cycles = start + c;
    } else {
      let rep = 0;
      for (let i = 0; i < n; i++) rep = this.runSlowLines(p, rep < 0 ? -1 : i, start);
    }
    if (this.timeline) this.record(p.def.name, p.phaseIdx, fetchedAt);
  }

  /** The L1I (the P4's trace cache) is emptied: an epoch of remembered fetch sequences starts. */
  private flushL1i(): void {
    const m = this.mem!;
    // the replay knows only an inclusive L2 (an exclusive one moves lines on every L1 miss): walk then
    if (m.shape.l2Exclusive) m.l1i.clear();
    else (m.epochs ??= new TraceEpochs(m)).flush();
  }

  /**
   * A path's instruction fetch, before its first op: nothing when its code is resident; the
   * epoch's remembered fetch when it replays one as last time (small, so the hot loop inlines it).
   */
  private fetchCode(p: CompiledPath): void {
    const m = this.mem!;
    const memo = m.epochs;
    const n = memo !== null && this.kernelTextTlb === null ? memo.replay(p.codeId) : -1;
    if (n > 0) this.chargeCodeMiss(n, 0);
    else if (n < 0 && (p.codeSeenI !== m.l1i.changes || this.kernelTextTlb !== null)) this.fetch(p);
  }

  /** Instruction fetch of a path's code that the L1I (or trace cache) no longer holds wholly. */
  private fetch(p: CompiledPath): void {
    if (this.kernelTextTlb !== null) this.kernelTextTlb();
    const m = this.mem!;
    const epochs = m.epochs;
    if (epochs !== null && epochs.active) {
      const n = epochs.fetch(p.codeId, p.code!);
      if (n >= 0) {
        if (n > 0) this.chargeCodeMiss(epochs.fromL2, epochs.fromMemory);
        return;
      }
    }
    if (p.codeSeenI === m.l1i.changes) return;
    const code = p.code!;
    let n = 0, fromL2 = 0, fromMemory = 0;
    for (let i = 0; i < code.length; i++) {
      if (m.touchCode(code[i]!) === 0) continue;
      n += m.fromL2 + m.fromMemory;
      fromL2 += m.fromL2;
      fromMemory += m.fromMemory;
    }
    // resident now if no region pushed out another's lines (then the next run of p is one compare)
    let all = true;
    for (let i = 0; i < code.length && all; i++) all = m.touchCode(code[i]!) === 0;
    if (all) p.codeSeenI = m.l1i.changes;
    if (n === 0) return;
    this.chargeCodeMiss(fromL2, fromMemory);
  }

  /** The lines a fetch brought in, by where they came from. */
  private chargeCodeMiss(fromL2: number, fromMemory: number): void {
    const paths = this.codeMiss!;
    const decode = paths.decode;
    // the common case in one step: lines from L2 and the trace-cache miss, no event due, no timeline
    // (the same sums in the same order as the two runN calls below, so the clock ends on the same bits)
    if (fromMemory === 0 && fromL2 > 0 && decode !== null && !this.exact && this.timeline === null) {
      const l2 = paths.l2;
      const c = l2.cost * fromL2;
      const mid = this.cycles + c;
      const end = mid + decode.cost;
      if (end < this.nextEvent || this.inIrq) {
        l2.count += fromL2;
        l2.cycles += c;
        this.phaseCycles[l2.phaseIdx] += c;
        decode.count++;
        decode.cycles += decode.cost;
        this.phaseCycles[decode.phaseIdx] += decode.cost;
        this.cycles = end;
        return;
      }
    }
    this.runN(paths.l2, fromL2);
    this.runN(paths.memory, fromMemory);
    // one trace-cache miss per path whose code it lacked: a redirect into untraced code
    if (paths.decode !== null) this.runN(paths.decode, 1);
  }

  /** Charge raw cycles of a given op class (user-mode work), with interrupts possible. */
  chargeRaw(phaseIdx: number, cycles: number): void {
    this.phaseCycles[phaseIdx] += cycles;
    this.cycles += cycles;
  }

  cost(op: OpClass): number {
    return this.profile.costs[op];
  }

  private runSlow(p: CompiledPath): void {
    this.runSlowLines(p, 0, this.cycles);
  }

  /**
   * Step repetition `rep` of a path that started at `start`, op by op. Until an interrupt is taken
   * each op boundary is `start` plus the cost so far, summed as the fast path sums it, so a path
   * that no interrupt enters ends on the very cycle (to the last bit of a fractional cost) the
   * fast path gives; after one, ops add on from where the interrupt left the clock. `rep` -1: an
   * earlier repetition took an interrupt. Returns `rep`, or -1 once an interrupt was taken.
   */
  private runSlowLines(p: CompiledPath, rep: number, start: number): number {
    const n = p.lineCost.length;
    for (let i = 0; i < n; i++) {
      const before = this.cycles;
      this.maybeInterrupt();
      if (this.cycles !== before) rep = -1;
      if (rep < 0) this.cycles += p.lineCost[i]!;
      else this.cycles = i + 1 === n ? start + p.cost * (rep + 1) : start + (p.cost * rep + p.prefix[i + 1]!);
      const e = p.lineIf[i]!;
      if (e >= 0) this.cpu.IF = e;
      const c = p.lineCpl[i]!;
      if (c >= 0) this.cpu.cpl = c;
    }
    return rep;
  }

  /** Take a due interrupt at this op boundary if the CPU is in kernel mode with IF=1. */
  maybeInterrupt(): void {
    if (this.cycles >= this.nextEvent && this.cpu.IF === 1 && this.cpu.cpl === 0 && !this.inIrq) {
      this.inIrq = true;
      try {
        this.irqHook();
      } finally {
        this.inIrq = false;
      }
    }
  }

  private record(name: string, phaseIdx: number, start: number): void {
    const tl = this.timeline!;
    const phase = this.phases.names[phaseIdx]!;
    if (phase === "cache.code") return; // a path's instruction fetch is part of the path's event
    if (tl.length >= this.timelineLimit) {
      this.timelineDropped++;
      return;
    }
    const ev: TimelineEvent = { task: this.timelineTask, kind: phase === "signal.handler" ? "handler" : phase === "user" ? "user" : phase === "idle" ? "idle" : "kernel", name, phase, start, end: this.cycles };
    if (this.timelineCpus) ev.cpu = this.timelineCpu;
    tl.push(ev);
  }
}
