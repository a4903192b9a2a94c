/**
 * The user's choices kept across reloads in local storage: the run configuration (CPUs, variant
 * stacks, CPUs per machine (SMP), each document's parameters, seed, repetitions, timeline, max seconds), the layout (results pane
 * heights while editing and with results, phase-chart normalisation) and settings (the Linux source URL template). Everything read
 * back is validated; a malformed entry is dropped with a note, never a crash.
 */
import type { CpuRef, ParamValue, VariantSpec } from "../../common/contracts.js";
import { checkCpus, checkParams, checkRepeat, checkSeed, checkSmp, checkStacks, isRecord, ValidationError } from "./validate.js";

export const RUN_STATE_KEY = "siglab.run-config.v1";
export const LAYOUT_KEY = "siglab.layout.v1";
export const SETTINGS_KEY = "siglab.settings.v1";
/** At most this many documents keep their parameters (the oldest go first). */
export const MAX_PARAM_DOCS = 100;
/** A saved entry larger than this is not read (local storage is ~5 MB per origin). */
export const MAX_SAVED_CHARS = 256 * 1024;

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface SavedRunState {
  v: 1;
  cpus: CpuRef[];
  stacks: VariantSpec[][];
  seed: number;
  timeline: boolean;
  maxSeconds?: number;
  /** CPUs of each machine (the "CPUs" control; absent = 1) */
  smp?: number;
  /** repetitions (seeds) of each run (the "Repetitions" control; absent = 1) */
  repeat?: number;
  /** document key ("example:lat_sig_catch", "user:x.ts", "new:untitled-…") → its parameters */
  params: Record<string, Record<string, ParamValue>>;
}

export interface Loaded<T> {
  value: T | null;
  /** why a saved entry was ignored (shown to the user once) */
  note?: string;
}

function readJson(storage: StorageLike, key: string): Loaded<unknown> {
  let raw: string | null;
  try {
    raw = storage.getItem(key);
  } catch (err) {
    return { value: null, note: `local storage cannot be read (${(err as Error).message})` };
  }
  if (raw === null) return { value: null };
  if (raw.length > MAX_SAVED_CHARS) return { value: null, note: `it is larger than ${MAX_SAVED_CHARS / 1024} KB` };
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch {
    return { value: null, note: "it is not valid JSON" };
  }
  return value === null ? { value: null, note: "it is null" } : { value };
}

export function parseRunState(v: unknown): SavedRunState {
  if (!isRecord(v)) throw new ValidationError("expected an object");
  if (v["v"] !== 1) throw new ValidationError(`unknown version ${JSON.stringify(v["v"])?.slice(0, 20)}`);
  const s: SavedRunState = {
    v: 1,
    cpus: checkCpus(v["cpus"], "cpus"),
    stacks: checkStacks(v["stacks"], "stacks"),
    seed: checkSeed(v["seed"], "seed"),
    timeline: v["timeline"] === true,
    params: {},
  };
  if (v["timeline"] !== undefined && typeof v["timeline"] !== "boolean") throw new ValidationError("timeline: expected true or false");
  const ms = v["maxSeconds"];
  if (ms !== undefined) {
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0) throw new ValidationError("maxSeconds: expected a positive number");
    s.maxSeconds = ms;
  }
  if (v["smp"] !== undefined) {
    const smp = checkSmp(v["smp"], "smp");
    if (smp > 1) s.smp = smp;
  }
  if (v["repeat"] !== undefined) {
    const repeat = checkRepeat(v["repeat"], "repeat");
    if (repeat > 1) s.repeat = repeat;
  }
  const params = v["params"];
  if (params !== undefined) {
    if (!isRecord(params)) throw new ValidationError("params: expected an object");
    const keys = Object.keys(params);
    if (keys.length > MAX_PARAM_DOCS) throw new ValidationError(`params: more than ${MAX_PARAM_DOCS} documents`);
    for (const k of keys) {
      if (k.length > 300 || k === "__proto__") throw new ValidationError("params: bad document key");
      s.params[k] = checkParams(params[k], `params[${JSON.stringify(k.slice(0, 60))}]`);
    }
  }
  return s;
}

export function loadRunState(storage: StorageLike): Loaded<SavedRunState> {
  const r = readJson(storage, RUN_STATE_KEY);
  if (r.value === null) return r.note ? { value: null, note: `The saved run configuration was ignored: ${r.note}.` } : { value: null };
  try {
    return { value: parseRunState(r.value) };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { value: null, note: `The saved run configuration was ignored: ${err.message}.` };
  }
}

export function saveJson(storage: StorageLike, key: string, value: unknown): void {
  try {
    storage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage full or disabled: the choices are a convenience */
  }
}

/** Keeps the most recently used documents' parameters (insertion order = age). */
export function rememberParams(all: Record<string, Record<string, ParamValue>>, docKey: string, params: Record<string, ParamValue>): Record<string, Record<string, ParamValue>> {
  const out: Record<string, Record<string, ParamValue>> = {};
  const keys = Object.keys(all).filter((k) => k !== docKey);
  for (const k of keys.slice(Math.max(0, keys.length - (MAX_PARAM_DOCS - 1)))) out[k] = all[k]!;
  if (Object.keys(params).length) out[docKey] = { ...params };
  return out;
}

export interface LayoutPrefs {
  /** height of the results pane in CSS pixels once there are results (a run, a bundle) */
  resultsHeight?: number;
  /** height of the results pane in CSS pixels before any (while editing) */
  editHeight?: number;
  /** phase chart: cycles per run, or divided by a numeric parameter ("iterations") */
  phaseNorm?: string;
  /** phase chart: simulated cycles, or µs (cycles ÷ the run's clock) */
  phaseUnit?: "cycles" | "us";
}

export function loadLayout(storage: StorageLike): LayoutPrefs {
  const r = readJson(storage, LAYOUT_KEY);
  if (!isRecord(r.value)) return {};
  const out: LayoutPrefs = {};
  for (const k of ["resultsHeight", "editHeight"] as const) {
    const hgt = r.value[k];
    if (typeof hgt === "number" && Number.isFinite(hgt) && hgt >= 0 && hgt < 20_000) out[k] = hgt;
  }
  const norm = r.value["phaseNorm"];
  if (typeof norm === "string" && norm.length <= 200) out.phaseNorm = norm;
  const unit = r.value["phaseUnit"];
  if (unit === "cycles" || unit === "us") out.phaseUnit = unit;
  return out;
}

export interface Settings {
  /** "https://…{fn}…": where the inspector's Linux function names link to */
  sourceUrlTemplate?: string;
}

export function loadSettings(storage: StorageLike, check: (template: string) => string | null): Loaded<Settings> {
  const r = readJson(storage, SETTINGS_KEY);
  if (r.value === null) return r.note ? { value: null, note: `The saved settings were ignored: ${r.note}.` } : { value: null };
  if (!isRecord(r.value)) return { value: null, note: "The saved settings were ignored: expected an object." };
  const t = r.value["sourceUrlTemplate"];
  if (t === undefined) return { value: {} };
  const problem = typeof t === "string" ? check(t) : "expected a string";
  if (problem) return { value: {}, note: `The saved Linux source link template was ignored: ${problem}.` };
  return { value: { sourceUrlTemplate: t as string } };
}

export const OPEN_DOC_KEY = "siglab.open-doc.v1";

/** The document that was open, so a reload reopens it; an untitled one without a draft keeps its text. */
export interface OpenDoc {
  /** "example:lat_ctx", "user:x.ts", "new:untitled-…" */
  key: string;
  source?: string;
}

const DOC_KEY = /^(example|user|new):[A-Za-z0-9][A-Za-z0-9_.-]{0,120}$/;

/** The open document as saved, or null (a malformed entry is ignored: the app opens its default). */
export function loadOpenDoc(storage: StorageLike): OpenDoc | null {
  const r = readJson(storage, OPEN_DOC_KEY);
  if (!isRecord(r.value)) return null;
  const { key, source } = r.value;
  if (typeof key !== "string" || !DOC_KEY.test(key)) return null;
  if (source !== undefined && typeof source !== "string") return null;
  return source === undefined ? { key } : { key, source };
}
