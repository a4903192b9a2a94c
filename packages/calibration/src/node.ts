/**
 * The node side of `siglab calibrate`: where the profile files and the report live, what a fit
 * would change in them (--check), and writing them atomically.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { CostEntry, CpuProfileSource } from "@siglab/cpu-profiles";
import type { FitResult } from "./fit.js";
import { applyFitToText, buildReport, serializeReport } from "./provenance.js";
import type { SuiteRow } from "./suite.js";

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = join(here, "../../..");
export const REPORT_PATH = join(here, "../report/calibration.json");

export function profileFilePath(id: string): string {
  return createRequire(import.meta.url).resolve(`@siglab/cpu-profiles/profiles/${id}.json`);
}

export interface PlannedWrite {
  /** repository-relative path, for messages */
  file: string;
  path: string;
  /** null when the file does not exist yet */
  before: string | null;
  after: string;
}

export type ReadText = (path: string) => string | null;
const readText: ReadText = (p) => (existsSync(p) ? readFileSync(p, "utf8") : null);

/** The files a fit writes: each profile with fitted groups, and the report. */
export function plannedWrites(r: FitResult, rows: SuiteRow[], read: ReadText = readText): PlannedWrite[] {
  const out: PlannedWrite[] = [];
  for (const id of [...new Set(r.groups.filter((g) => g.status !== "pending").map((g) => g.group.profile))]) {
    const path = profileFilePath(id);
    const file = relative(REPO_ROOT, path);
    const before = read(path);
    if (before === null) throw new Error(`${file}: profile file not found`);
    out.push({ file, path, before, after: applyFitToText(before, file, r) });
  }
  out.push({ file: relative(REPO_ROOT, REPORT_PATH), path: REPORT_PATH, before: read(REPORT_PATH), after: serializeReport(buildReport(r, rows)) });
  return out;
}

/** What differs between the shipped files and a fresh fit, one line per difference. */
export function staleness(writes: readonly PlannedWrite[]): string[] {
  const out: string[] = [];
  for (const w of writes) {
    if (w.before === w.after) continue;
    if (w.before === null) {
      out.push(`${w.file}: missing`);
      continue;
    }
    if (!w.file.endsWith(".json") || w.path === REPORT_PATH) {
      out.push(`${w.file}: differs from a fresh fit (simulated figures changed)`);
      continue;
    }
    const a = JSON.parse(w.before) as CpuProfileSource;
    const b = JSON.parse(w.after) as CpuProfileSource;
    let found = false;
    for (const [op, eb] of Object.entries(b.costs ?? {}) as [string, CostEntry][]) {
      const ea = a.costs?.[op as keyof typeof a.costs] as CostEntry | undefined;
      if (!ea) continue;
      if (ea.cycles !== eb.cycles) {
        out.push(`${w.file}: /costs/${op}/cycles: shipped ${ea.cycles}, a fresh fit gives ${eb.cycles}`);
        found = true;
      } else if (ea.source !== eb.source) {
        out.push(`${w.file}: /costs/${op}/source: the calibration note differs (shipped: "${tail(ea.source)}"; fresh: "${tail(eb.source)}")`);
        found = true;
      }
    }
    if (!found) out.push(`${w.file}: layout differs from the shipped serializeProfile layout`);
  }
  return out;
}

function tail(s: string): string {
  const i = s.search(/(?:Not fitted|Fitted) by siglab calibrate/);
  return i < 0 ? "(no calibration note)" : s.slice(i);
}

/** Writes the changed files (temp file + rename, so a reader never sees half a file). */
export function writePlanned(writes: readonly PlannedWrite[]): string[] {
  const changed: string[] = [];
  for (const w of writes) {
    if (w.before === w.after) continue;
    mkdirSync(dirname(w.path), { recursive: true });
    const tmp = `${w.path}.tmp-${process.pid}`;
    writeFileSync(tmp, w.after, "utf8");
    renameSync(tmp, w.path);
    changed.push(w.file);
  }
  return changed;
}

export function calibrationReportText(r: FitResult, rows: SuiteRow[]): string {
  return serializeReport(buildReport(r, rows));
}
