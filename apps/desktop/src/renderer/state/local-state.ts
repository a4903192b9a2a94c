/**
 * The owner of everything the app keeps in local storage: the run configuration with each
 * document's parameters, the layout (results pane height, phase-chart normalisation), the
 * settings and the open document (state/persist.ts reads and validates each). Nothing is written before the saved run
 * configuration was read back, so a start never overwrites it.
 */
import type { CpuRef, ParamValue, VariantSpec } from "../../common/contracts.js";
import type { PluginEntry, ProfileEntry } from "../../common/host-api.js";
import { checkSourceUrlTemplate } from "../../common/url-policy.js";
import { defaultCpus, defaultRunConfig, type RunConfigState } from "../ui/run-config.js";
import { LAYOUT_KEY, loadLayout, loadOpenDoc, loadRunState, loadSettings, MAX_SAVED_CHARS, OPEN_DOC_KEY, rememberParams, RUN_STATE_KEY, saveJson, SETTINGS_KEY, type LayoutPrefs, type OpenDoc, type SavedRunState, type Settings, type StorageLike } from "./persist.js";

/** CPUs and stacks this app can run: unknown profiles and plugins are dropped, clocks kept in range. */
export function fitToCatalog(cpus: CpuRef[], stacks: VariantSpec[][], profiles: ProfileEntry[], plugins: PluginEntry[]): { cpus: CpuRef[]; stacks: VariantSpec[][]; notes: string[] } {
  const notes: string[] = [];
  const out: CpuRef[] = [];
  for (const c of cpus) {
    const p = profiles.find((x) => x.profile.id === c.id)?.profile;
    if (!p) notes.push(`no CPU profile "${c.id}" here`);
    else if (out.some((x) => x.id === c.id)) continue;
    else if (c.mhz < p.clock.minMhz || c.mhz > p.clock.maxMhz) {
      notes.push(`${p.name}: ${c.mhz} MHz is outside ${p.clock.minMhz}-${p.clock.maxMhz} MHz, using ${p.clock.defaultMhz} MHz`);
      out.push({ id: c.id, mhz: p.clock.defaultMhz });
    } else out.push({ id: c.id, mhz: c.mhz });
  }
  const known = new Set(plugins.map((p) => p.id));
  const missing = new Set<string>();
  const kept = stacks.map((st) => st.filter((v) => (known.has(v.id) ? true : (missing.add(v.id), false))));
  if (missing.size) notes.push(`no plugin ${[...missing].map((m) => `"${m}"`).join(", ")} here (left out of the variant stacks)`);
  const seen = new Set<string>();
  const unique = kept.filter((st) => {
    const k = JSON.stringify(st);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return { cpus: out, stacks: unique.length ? unique : [[]], notes };
}

export class LocalState {
  /** local storage (null where the page may not use it) */
  readonly storage: StorageLike | null = ((): StorageLike | null => {
    try {
      return window.localStorage;
    } catch {
      return null;
    }
  })();
  layout: LayoutPrefs = {};
  settings: Settings = {};
  /** each document's parameters, kept across reloads */
  private savedParams: Record<string, Record<string, ParamValue>> = {};
  /** set once the saved run configuration was read: saving before that would overwrite it */
  private restored = false;

  /** Reads the layout and the settings; returns why saved settings were ignored, if they were. */
  loadPrefs(): string | undefined {
    if (!this.storage) return undefined;
    this.layout = loadLayout(this.storage);
    const st = loadSettings(this.storage, checkSourceUrlTemplate);
    this.settings = st.value ?? {};
    return st.note;
  }

  saveLayout(): void {
    if (this.storage) saveJson(this.storage, LAYOUT_KEY, this.layout);
  }

  saveSettings(settings: Settings): void {
    this.settings = settings;
    if (this.storage) saveJson(this.storage, SETTINGS_KEY, settings);
  }

  /** The saved run configuration fitted to this catalog (else the defaults), and what was dropped. */
  restoreRunConfig(profiles: ProfileEntry[], plugins: PluginEntry[]): { state: RunConfigState; note?: string } {
    const base = defaultRunConfig(profiles);
    if (!this.storage) return { state: base };
    const loaded = loadRunState(this.storage);
    const notes: string[] = loaded.note ? [loaded.note] : [];
    const s = loaded.value;
    if (!s) return loaded.note ? { state: base, note: notes.join(" ") } : { state: base };
    const fixed = fitToCatalog(s.cpus, s.stacks, profiles, plugins);
    if (fixed.notes.length) notes.push(`From your saved run configuration: ${fixed.notes.join("; ")}.`);
    this.savedParams = s.params;
    const state: RunConfigState = { ...base, cpus: fixed.cpus.length ? fixed.cpus : defaultCpus(profiles), stacks: fixed.stacks.map((variants) => ({ variants })), seed: s.seed, timeline: s.timeline };
    if (s.maxSeconds !== undefined) state.maxSeconds = s.maxSeconds;
    if (s.smp !== undefined && s.smp > 1) state.smp = s.smp;
    if (s.repeat !== undefined && s.repeat > 1) state.repeat = s.repeat;
    return notes.length ? { state, note: notes.join(" ") } : { state };
  }

  /** From now on changes are saved. */
  markRestored(): void {
    this.restored = true;
  }

  /** The document open before a reload, or null. */
  openDoc(): OpenDoc | null {
    return this.storage ? loadOpenDoc(this.storage) : null;
  }

  /** Remembers the open document; `source` for an untitled one that has no draft (too long a text is not kept). */
  rememberOpenDoc(key: string, source?: string): void {
    if (!this.storage) return;
    saveJson(this.storage, OPEN_DOC_KEY, source !== undefined && source.length < MAX_SAVED_CHARS - 1024 ? { key, source } : { key });
  }

  /** A document's parameters as last chosen. */
  paramsOf(docKey: string): Record<string, ParamValue> {
    return { ...(this.savedParams[docKey] ?? {}) };
  }

  rememberParams(docKey: string, params: Record<string, ParamValue>): void {
    this.savedParams = rememberParams(this.savedParams, docKey, params);
  }

  /** Saves the run configuration, with `docKey`'s parameters. */
  persistRunConfig(st: RunConfigState, docKey: string | undefined): void {
    if (!this.restored || !this.storage) return;
    if (docKey) this.rememberParams(docKey, st.params);
    const saved: SavedRunState = { v: 1, cpus: st.cpus, stacks: st.stacks.map((x) => x.variants), seed: st.seed, timeline: st.timeline, params: this.savedParams };
    if (st.maxSeconds !== undefined && Number.isFinite(st.maxSeconds) && st.maxSeconds > 0) saved.maxSeconds = st.maxSeconds;
    if (st.smp !== undefined && st.smp > 1) saved.smp = st.smp;
    if (st.repeat !== undefined && st.repeat > 1) saved.repeat = st.repeat;
    saveJson(this.storage, RUN_STATE_KEY, saved);
  }
}
