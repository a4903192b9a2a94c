/**
 * Progress of a command's runs on stderr: "siglab: 3/12 runs done, 2 running, about 14 s left
 * (now: lat_sig_catch p4-northwood@2200 [sa-nofp])". On a terminal one line redrawn in place; off a
 * terminal (a log, CI) a plain line, the first once the command has worked for PLAIN_AFTER_MS and
 * then at most every PLAIN_EVERY_MS, so short commands (and tests' stderr) stay silent. The ETA is
 * the wall time per finished run so far times the runs left (it includes the --jobs parallelism).
 * `--quiet` or SIGLAB_QUIET=1 turns it off.
 */
import type { RunSpec } from "@siglab/core";
import { formatParams, runLabel } from "@siglab/core/bundle";
import { oneLine, rawStderr } from "../terminal.js";

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(s: string): unknown;
}

/** Off a terminal: nothing for a command shorter than this … */
export const PLAIN_AFTER_MS = 2_000;
/** … then a line at most this often. */
export const PLAIN_EVERY_MS = 5_000;
/** A terminal's line is redrawn at most this often. */
const REDRAW_MS = 100;

let quiet = false;

/** --quiet (main.ts): no progress from any command. */
export function setProgressQuiet(q: boolean): void {
  quiet = q;
}

function quietByEnv(env: NodeJS.ProcessEnv): boolean {
  return ["1", "true", "yes"].includes(env["SIGLAB_QUIET"]?.trim().toLowerCase() ?? "");
}

/** "about 14 s left", "about 3 min left" */
export function etaText(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `about ${Math.max(1, Math.round(s))} s left`;
  if (s < 3600) return `about ${Math.round(s / 60)} min left`;
  return `about ${(s / 3600).toFixed(1)} h left`;
}

export class ProgressLine {
  private shown = false;
  private lastDraw = -Infinity;
  private readonly startedAt: number;
  private readonly on: boolean;
  private readonly tty: boolean;
  private current: string | undefined;
  private done = 0;
  private running = 0;
  /** what is counted: "run", or e.g. "calibration target" */
  noun = "run";

  constructor(
    private readonly total: number,
    // the CLI's own sequences: past the output guard (terminal.ts)
    private readonly stream: ProgressStream = { isTTY: process.stderr.isTTY, columns: process.stderr.columns, write: rawStderr },
    private readonly now: () => number = () => performance.now(),
    env: NodeJS.ProcessEnv = process.env,
    /** runs of the command already done before these (results read from the cache) */
    private readonly skipped = 0,
  ) {
    this.tty = stream.isTTY === true && env["TERM"] !== "dumb";
    this.on = total >= 1 && !quiet && !quietByEnv(env);
    this.startedAt = now();
  }

  /** The run that started last (its label is foreign text: shown as a one-line field). */
  started(label: string): void {
    this.current = oneLine(label);
  }

  update(done: number, running: number, force = false): void {
    this.done = done;
    this.running = running;
    this.tick(force);
  }

  /** Redraws (terminal) or prints a line when one is due (see the top of the file). */
  tick(force = false): void {
    if (!this.on) return;
    const t = this.now();
    if (this.tty) {
      // a single run draws nothing on a terminal until it is slow enough to be worth a line
      if (this.total === 1 && t - this.startedAt < PLAIN_AFTER_MS) return;
      if (!force && this.shown && t - this.lastDraw < REDRAW_MS) return;
      const width = Math.max(20, (this.stream.columns || 80) - 1); // never wraps: \r redraws one row (0 columns: not known)
      const text = this.text(t);
      this.stream.write(`\r\x1b[K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
      this.shown = true;
    } else {
      if (t - this.startedAt < PLAIN_AFTER_MS || t - this.lastDraw < PLAIN_EVERY_MS) return;
      if (this.skipped + this.done >= this.total) return; // the results say the rest
      this.stream.write(`${this.text(t)}\n`);
    }
    this.lastDraw = t;
  }

  private text(t: number): string {
    const done = this.skipped + this.done;
    const parts = [`siglab: ${done}/${this.total} ${this.noun}${this.total === 1 ? "" : "s"} done`];
    if (this.running) parts.push(`${this.running} running`);
    if (this.done > 0 && done < this.total) parts.push(etaText(((t - this.startedAt) / this.done) * (this.total - done)));
    return `${parts.join(", ")}${this.current && done < this.total ? ` (now: ${this.current})` : ""}`;
  }

  /** Takes the terminal's line away (before other output, and at the end). */
  clear(): void {
    if (!this.shown) return;
    this.stream.write("\r\x1b[K");
    this.shown = false;
  }
}

/** A run's name on the progress line: "lat_sig_catch p4-northwood@2200 [sa-nofp] iterations=400". */
export function progressLabel(spec: Pick<RunSpec, "workload" | "cpu" | "variants" | "params">): string {
  const params = formatParams(spec.params);
  return `${spec.workload.id} ${runLabel(spec)}${params ? ` ${params}` : ""}`;
}

/** Runs `run` on each item one after another with a progress line (suites that run their runs in order). */
export async function inOrderWithProgress<T, R>(items: readonly T[], label: (item: T) => string, run: (item: T) => Promise<R>, noun = "run"): Promise<R[]> {
  const progress = new ProgressLine(items.length);
  progress.noun = noun;
  const ticker = setInterval(() => progress.tick(), 1000);
  ticker.unref();
  const out: R[] = [];
  try {
    for (const item of items) {
      progress.started(label(item));
      progress.update(out.length, 1);
      out.push(await run(item));
    }
  } finally {
    clearInterval(ticker);
    progress.clear();
  }
  return out;
}
