/**
 * The node side of `siglab calibrate`: where the generated overlays (profiles/fitted/<id>.json) and
 * the report live, what a fit would change in them (--check), and writing them atomically. The
 * hand-written profile files are read, never written.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { fittedOverlayFileName, parseFittedOverlay, type FittedCost, type FittedOverlay, type OpClass } from "@siglab/cpu-profiles";
import type { FitResult } from "./fit.js";
import { buildOverlay, buildReport, calibratedProfiles, serializeOverlay, serializeReport } from "./provenance.js";
import type { SuiteRow } from "./suite.js";

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = join(here, "../../..");
export const REPORT_PATH = join(here, "../report/calibration.json");

/** The hand-written profile file of a shipped profile. */
export function profileFilePath(id: string): string {
  return createRequire(import.meta.url).resolve(`@siglab/cpu-profiles/profiles/${id}.json`);
}

/** The folder of the shipped profile files. */
export const PROFILES_DIR = dirname(profileFilePath("p4-northwood"));

/** The generated overlay of a profile (it may not exist yet). */
export function overlayFilePath(id: string, profilesDir = PROFILES_DIR): string {
  return join(profilesDir, fittedOverlayFileName(id));
}

export interface PlannedWrite {
  /** repository-relative path, for messages */
  file: string;
  path: string;
  /** null when the file does not exist yet */
  before: string | null;
  after: string;
  /** set on overlay writes */
  overlay?: { before: FittedOverlay | null; after: FittedOverlay };
}

export type ReadText = (path: string) => string | null;
const readText: ReadText = (p) => (existsSync(p) ? readFileSync(p, "utf8") : null);

export interface PlanOptions {
  /** where the profiles (and their fitted/ overlays) live; default the shipped folder */
  profilesDir?: string;
  reportPath?: string;
}

function readOverlay(text: string | null, file: string): FittedOverlay | null {
  if (text === null) return null;
  try {
    return parseFittedOverlay(text, file);
  } catch {
    return null; // unreadable: a fresh fit replaces it, and --check reports it as differing
  }
}

/** The files a fit writes: the overlay of each calibrated profile, and the report. Never a hand-written profile. */
export function plannedWrites(r: FitResult, rows: SuiteRow[], read: ReadText = readText, o: PlanOptions = {}): PlannedWrite[] {
  const out: PlannedWrite[] = [];
  const reportPath = o.reportPath ?? REPORT_PATH;
  for (const id of calibratedProfiles()) {
    const path = overlayFilePath(id, o.profilesDir);
    const file = relative(REPO_ROOT, path);
    const before = read(path);
    const prev = readOverlay(before, file);
    const next = buildOverlay(id, r, prev);
    if (!next) continue;
    out.push({ file, path, before, after: serializeOverlay(next), overlay: { before: prev, after: next } });
  }
  out.push({ file: relative(REPO_ROOT, reportPath), path: reportPath, before: read(reportPath), after: serializeReport(buildReport(r, rows)) });
  return out;
}

const ENTRY_FIELDS = ["cycles", "start", "status", "group", "note"] as const;

/** What differs between the shipped overlays/report and a fresh fit, one line per difference. */
export function staleness(writes: readonly PlannedWrite[]): string[] {
  const out: string[] = [];
  for (const w of writes) {
    if (w.before === w.after) continue;
    if (w.before === null) {
      out.push(`${w.file}: missing`);
      continue;
    }
    if (!w.overlay) {
      out.push(`${w.file}: differs from a fresh fit (simulated figures changed)`);
      continue;
    }
    const a = w.overlay.before;
    const b = w.overlay.after;
    if (!a) {
      out.push(`${w.file}: not a valid fitted overlay`);
      continue;
    }
    let found = false;
    const ops = new Set([...Object.keys(a.costs), ...Object.keys(b.costs)] as OpClass[]);
    for (const op of ops) {
      const ea = a.costs[op] as FittedCost | undefined;
      const eb = b.costs[op] as FittedCost | undefined;
      if (!ea || !eb) {
        out.push(`${w.file}: /costs/${op}: ${ea ? "not fitted any more" : "missing (a fresh fit gives " + eb!.cycles + ")"}`);
        found = true;
        continue;
      }
      for (const k of ENTRY_FIELDS) {
        if (ea[k] === eb[k]) continue;
        found = true;
        if (k === "start") out.push(`${w.file}: /costs/${op}/start: fitted from starting value ${ea.start}, the profile now starts at ${eb.start}`);
        else if (k === "note") out.push(`${w.file}: /costs/${op}/note: the calibration note differs (shipped: "${ea.note}"; fresh: "${eb.note}")`);
        else out.push(`${w.file}: /costs/${op}/${k}: shipped ${ea[k]}, a fresh fit gives ${eb[k]}`);
        if (k === "cycles" || k === "start") break;
      }
    }
    if (!found) out.push(`${w.file}: header or layout differs from what calibrate writes`);
  }
  return out;
}

/** Writes the changed files (temp file + rename, so a reader never sees half a file). */
export function writePlanned(writes: readonly PlannedWrite[]): string[] {
  const changed: string[] = [];
  for (const w of writes) {
    if (w.before === w.after) continue;
    mkdirSync(dirname(w.path), { recursive: true });
    const tmp = `${w.path}.tmp-${process.pid}`;
    try {
      writeFileSync(tmp, w.after, { encoding: "utf8", flag: "wx" });
      renameSync(tmp, w.path);
    } catch (err) {
      if (existsSync(tmp)) unlinkSync(tmp);
      throw err;
    }
    changed.push(w.file);
  }
  return changed;
}

export function calibrationReportText(r: FitResult, rows: SuiteRow[]): string {
  return serializeReport(buildReport(r, rows));
}
