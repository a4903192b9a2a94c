/** What the workload reports: metrics, bounded samples, marks, progress and log lines. */
import type { Metric } from "../common/results.js";

export const SAMPLE_LIMIT = 10_000;
export const LOG_LIMIT = 1_000;

export class Collector {
  readonly metrics: Metric[] = [];
  private readonly samples = new Map<string, number[]>();
  readonly marks: { task: number; label: string; cycle: number }[] = [];
  readonly log: string[] = [];
  progress = 0;
  onProgress: ((fraction: number) => void) | undefined;

  report(name: string, value: number, unit: string): void {
    if (typeof name !== "string" || typeof unit !== "string" || typeof value !== "number") {
      throw new TypeError(`report(name, value, unit) expects (string, number, string), got (${typeof name}, ${typeof value}, ${typeof unit})`);
    }
    const m: Metric = { name, value, unit };
    const s = this.samples.get(name);
    if (s) m.samples = s;
    const i = this.metrics.findIndex((x) => x.name === name);
    if (i >= 0) this.metrics[i] = m;
    else this.metrics.push(m);
  }

  sample(name: string, value: number): void {
    let s = this.samples.get(name);
    if (!s) this.samples.set(name, (s = []));
    if (s.length < SAMPLE_LIMIT) s.push(value);
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
    if (this.marks.length < LOG_LIMIT) this.marks.push({ task, label: String(label), cycle });
  }

  setProgress(f: number): void {
    if (typeof f === "number" && f >= 0 && f <= 1) {
      this.progress = f;
      this.onProgress?.(f);
    }
  }

  addLog(args: unknown[]): void {
    if (this.log.length < LOG_LIMIT) this.log.push(args.map((a) => (typeof a === "string" ? a : safeString(a))).join(" "));
  }
}

function safeString(a: unknown): string {
  try {
    return JSON.stringify(a) ?? String(a);
  } catch {
    return String(a);
  }
}
