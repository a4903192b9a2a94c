/** What the workload reports: metrics, bounded samples, marks, progress and log lines. */
import type { Metric } from "../common/results.js";
import { escapeControls, hasControls } from "../common/safe-text.js";

export const SAMPLE_LIMIT = 10_000;
/** samples of all metrics together in one run (more are dropped, like samples over SAMPLE_LIMIT) */
export const TOTAL_SAMPLE_LIMIT = 200_000;
export const LOG_LIMIT = 1_000;
/** The output budget of one run: distinct metrics (reported or sampled), and the length of names. */
export const METRIC_LIMIT = 10_000;
export const NAME_LIMIT = 200;
const UNIT_LIMIT = 40;
const LOG_LINE_LIMIT = 2_000;

export class OutputBudgetError extends RangeError {}

function checkName(what: string, name: unknown, limit = NAME_LIMIT): string {
  if (typeof name !== "string") throw new TypeError(`${what}: expected a string, got ${typeof name}`);
  if (name.length > limit) throw new OutputBudgetError(`${what}: at most ${limit} characters (got ${name.length}): output budget`);
  // names and units are shown in terminals, tables and CSV files
  if (hasControls(name)) throw new TypeError(`${what}: control characters are not allowed, got ${escapeControls(JSON.stringify(name.slice(0, 60)))}`);
  return name;
}

export class Collector {
  readonly metrics: Metric[] = [];
  private readonly samples = new Map<string, number[]>();
  readonly marks: { task: number; label: string; cycle: number }[] = [];
  readonly log: string[] = [];
  progress = 0;
  private sampleCount = 0;
  private closed = false;
  /** the host's progress callback: private, so nothing the simulation hands out reaches it */
  #onProgress: ((fraction: number) => void) | undefined;

  constructor(onProgress?: (fraction: number) => void) {
    this.#onProgress = onProgress;
  }

  /** The run is over: reports made after it (a leftover promise job) are refused. */
  close(): void {
    this.closed = true;
  }

  /** Refuses reports once the run is over. */
  checkOpen(): void {
    if (this.closed) throw new TypeError("the run is over: nothing can be reported any more");
  }

  report(name: string, value: number, unit: string): void {
    this.checkOpen();
    if (typeof name !== "string" || typeof unit !== "string" || typeof value !== "number") {
      throw new TypeError(`report(name, value, unit) expects (string, number, string), got (${typeof name}, ${typeof value}, ${typeof unit})`);
    }
    checkName("report(name)", name);
    checkName("report(unit)", unit, UNIT_LIMIT);
    const m: Metric = { name, value, unit };
    const s = this.samples.get(name);
    if (s) m.samples = s;
    const i = this.metrics.findIndex((x) => x.name === name);
    if (i >= 0) this.metrics[i] = m;
    else {
      this.checkRoom(name);
      this.metrics.push(m);
    }
  }

  /** A new metric name must fit the run's output budget. */
  private checkRoom(name: string): void {
    if (this.metrics.length + this.samples.size >= METRIC_LIMIT && !this.samples.has(name)) {
      throw new OutputBudgetError(`output budget: more than ${METRIC_LIMIT} distinct metrics in one run`);
    }
  }

  sample(name: string, value: number): void {
    this.checkOpen();
    checkName("sample(name)", name);
    if (typeof value !== "number") throw new TypeError(`sample(name, value): value must be a number, got ${typeof value}`);
    let s = this.samples.get(name);
    if (!s) {
      if (!this.metrics.some((x) => x.name === name)) this.checkRoom(name);
      this.samples.set(name, (s = []));
    }
    if (s.length < SAMPLE_LIMIT && this.sampleCount < TOTAL_SAMPLE_LIMIT) {
      s.push(value);
      this.sampleCount++;
    }
    const m = this.metrics.find((x) => x.name === name);
    if (m) m.samples = s;
  }

  /** Attach samples that were never reported as a metric (their mean becomes the value). */
  finish(): void {
    for (const [name, s] of this.samples) {
      if (!this.metrics.some((m) => m.name === name) && s.length) {
        this.metrics.push({ name, value: s.reduce((a, b) => a + b, 0) / s.length, unit: "cycles", samples: s });
      }
    }
  }

  mark(task: number, label: string, cycle: number): void {
    this.checkOpen();
    if (this.marks.length < LOG_LIMIT) this.marks.push({ task, label: String(label), cycle });
  }

  setProgress(f: number): void {
    if (typeof f === "number" && f >= 0 && f <= 1) {
      this.progress = f;
      this.#onProgress?.(f);
    }
  }

  addLog(args: unknown[]): void {
    this.checkOpen();
    if (this.log.length >= LOG_LIMIT) return;
    const line = escapeControls(args.map((a) => (typeof a === "string" ? a : safeString(a))).join(" "));
    this.log.push(line.length > LOG_LINE_LIMIT ? `${line.slice(0, LOG_LINE_LIMIT)}... (${line.length} characters)` : line);
  }
}

function safeString(a: unknown): string {
  try {
    return JSON.stringify(a) ?? String(a);
  } catch {
    return Object.prototype.toString.call(a);
  }
}
