/**
 * Run configuration: CPU profiles and clocks, variant stacks (with each plugin's options rendered
 * from its manifest), workload parameters, an optional sweep, the seed, the repetitions (seeds), the
 * timeline switch and the host-time budget of each run.
 */
import type { CpuRef, ExperimentConfig, ParamValue, PluginOptionSpec, VariantSpec, WorkloadRef } from "../../common/contracts.js";
import type { PluginEntry, PresetEntry, ProfileEntry } from "../../common/host-api.js";
import { MAX_REPEAT } from "../results/repeat.js";
import { DEFAULT_CPU } from "../state/cpu-features.js";
import { clear, h } from "./dom.js";

export interface StackState {
  variants: VariantSpec[];
}

export interface RunConfigState {
  cpus: CpuRef[];
  stacks: StackState[];
  params: Record<string, ParamValue>;
  sweep: { enabled: boolean; param: string; values: string };
  seed: number;
  timeline: boolean;
  /**
   * Host seconds one run may take (the experiment's budget.maxHostMs); unset = the execution
   * host's limit (120 s), which also caps a larger value.
   */
  maxSeconds?: number;
  /**
   * CPUs of each machine (SMP), 1 to 8, set on every CPU of the experiment (`CpuRef.smp`, the
   * CLI's --smp); unset or 1 = one CPU and the UP kernel.
   */
  smp?: number;
  /**
   * Repetitions of each run, 1 to MAX_REPEAT, with seeds seed, seed+1, … (the CLI's --repeat);
   * unset or 1 = one run. The results show each metric's min, median and max over them.
   */
  repeat?: number;
}

/** The largest SMP machine the simulator runs (docs/smp.md). */
export const MAX_SMP = 8;

/** The CPUs control's value for an experiment's CPUs (the largest smp among them; 1 when none). */
export function smpOf(cpus: readonly { smp?: number }[]): number {
  return Math.max(1, ...cpus.map((c) => c.smp ?? 1));
}

/** A CPU reference with `smp` set as the CPUs control says (absent for one CPU, as the CLI writes it). */
export function withSmp(c: CpuRef, smp: number | undefined): CpuRef {
  const ref: CpuRef = { id: c.id, mhz: c.mhz };
  if (smp !== undefined && smp > 1) ref.smp = smp;
  return ref;
}

/** The Repetitions control's value for a typed number: an integer from 1 to MAX_REPEAT (anything else: 1). */
export function clampRepeat(v: number): number {
  const n = Math.trunc(v);
  return Number.isFinite(n) ? Math.min(MAX_REPEAT, Math.max(1, n)) : 1;
}

/** The run configuration's "max seconds per run" for an experiment's budget. */
export function maxSecondsOf(cfg: Pick<ExperimentConfig, "budget">): number | undefined {
  const ms = cfg.budget?.maxHostMs;
  return typeof ms === "number" && ms > 0 ? ms / 1000 : undefined;
}

/** The CLI's default CPU when the catalog has it, else the first profile. */
export function defaultCpus(profiles: ProfileEntry[]): CpuRef[] {
  if (profiles.some((p) => p.profile.id === DEFAULT_CPU.id)) return [{ ...DEFAULT_CPU }];
  const first = profiles[0]?.profile;
  return first ? [{ id: first.id, mhz: first.clock.defaultMhz }] : [];
}

export function defaultRunConfig(profiles: ProfileEntry[]): RunConfigState {
  return {
    cpus: defaultCpus(profiles),
    stacks: [{ variants: [] }],
    params: {},
    sweep: { enabled: false, param: "", values: "" },
    seed: 1,
    timeline: false,
  };
}

function parseSweepValues(text: string, like: ParamValue | undefined): ParamValue[] {
  const parts = text.split(",").map((s) => s.trim()).filter(Boolean);
  return parts.map((p) => {
    if (typeof like === "number") {
      const n = Number(p);
      if (!Number.isFinite(n)) throw new Error(`sweep value "${p}" is not a number`);
      return n;
    }
    if (typeof like === "boolean") return p === "true";
    return p;
  });
}

/**
 * A plugin option's value as the simulator reads it (core's resolveOptions): the default when not
 * given, "true"/"false" as booleans and digits as a number where the manifest says so (the CLI
 * writes `sa-nofp:forceAll=true` as a string; a bundle keeps it that way).
 */
export function optionValue(spec: PluginOptionSpec, given: ParamValue | undefined): ParamValue {
  if (given === undefined) return spec.default;
  if (spec.type === "boolean" && typeof given === "string") return given === "true" ? true : given === "false" ? false : given;
  if (spec.type === "number" && typeof given === "string" && given.trim() !== "" && Number.isFinite(Number(given))) return Number(given);
  return given;
}

export interface RunConfigHooks {
  /** any change of the state (saved across reloads by the app) */
  changed?(): void;
  /** a variant stack or a plugin was added (the app checks the CPUs' features) */
  stackAdded?(): void;
  /** an element shown below the configuration (the app's result-cache setting), kept across renders */
  footer?(): HTMLElement | null;
}

export class RunConfigView {
  readonly el: HTMLElement;
  state: RunConfigState;
  private defaults: Record<string, ParamValue> = {};
  private profiles: ProfileEntry[] = [];
  private plugins: PluginEntry[] = [];
  /** plugins of an opened bundle the user trusted (run/bundle-plugins.ts): they stand in for installed ones of the same id */
  private bundlePlugins: PluginEntry[] = [];
  private presets: PresetEntry[] = [];

  constructor(initial: RunConfigState, private readonly hooks: RunConfigHooks = {}) {
    this.state = initial;
    this.el = h("aside.run-config#run-config", { "aria-label": "Run configuration" });
    // every input's own handler has updated the state by the time the event bubbles here
    this.el.addEventListener("change", () => this.hooks.changed?.());
  }

  /** The workload's default parameters (as last inspected). */
  get workloadDefaults(): Record<string, ParamValue> {
    return this.defaults;
  }

  setCatalog(profiles: ProfileEntry[], plugins: PluginEntry[], presets?: PresetEntry[]): void {
    this.profiles = profiles;
    this.plugins = plugins;
    if (presets) this.presets = presets;
    const known = new Set(profiles.map((p) => p.profile.id));
    this.state.cpus = this.state.cpus.filter((c) => known.has(c.id));
    if (this.state.cpus.length === 0) this.state.cpus = defaultCpus(profiles);
    this.render();
  }

  /** Default params of the open workload (read by evaluating it in the worker). */
  setWorkloadParams(defaults: Record<string, ParamValue>): void {
    this.defaults = defaults;
    for (const k of Object.keys(this.state.params)) if (!(k in defaults)) delete this.state.params[k];
    this.render();
  }

  setState(s: RunConfigState): void {
    this.state = s;
    this.render();
  }

  /** Adds the plugins of an opened bundle the user trusted. */
  setBundlePlugins(entries: PluginEntry[]): void {
    this.bundlePlugins = entries;
    this.render();
  }

  private enabledPlugins(): PluginEntry[] {
    const fromBundle = new Set(this.bundlePlugins.map((p) => p.id));
    return [...this.plugins.filter((p) => !fromBundle.has(p.id)), ...this.bundlePlugins].filter((p) => p.enabled && p.status === "ok" && p.manifest);
  }

  /**
   * The machines of the configuration: CPUs (with `smp` as the CPUs control says), variant stacks,
   * seed and budget, without the workload's parameters, sweep or timeline (the LMbench summary runs
   * its own workloads on them). Throws with a message the UI shows.
   */
  /** Sets `options` on every `id` variant of every stack (a results banner's switch); how many were set. */
  setVariantOptions(id: string, options: Record<string, ParamValue>): number {
    let n = 0;
    for (const st of this.state.stacks) for (const v of st.variants) if (v.id === id) {
      v.options = { ...(v.options ?? {}), ...options };
      n++;
    }
    this.render();
    return n;
  }

  machines(): Pick<ExperimentConfig, "cpus" | "stacks" | "seed" | "budget"> {
    const s = this.state;
    if (s.cpus.length === 0) throw new Error("pick at least one CPU profile");
    const enabled = new Set(this.enabledPlugins().map((p) => p.id));
    for (const st of s.stacks) for (const v of st.variants) if (!enabled.has(v.id)) throw new Error(`plugin "${v.id}" is not enabled (Plugins view)`);
    const out: Pick<ExperimentConfig, "cpus" | "stacks" | "seed" | "budget"> = {
      cpus: s.cpus.map((c) => withSmp(c, s.smp)),
      stacks: s.stacks.map((st) => st.variants.map((v) => ({ id: v.id, ...(v.options && Object.keys(v.options).length ? { options: { ...v.options } } : {}) }))),
      seed: s.seed,
    };
    if (s.maxSeconds !== undefined) {
      if (!(Number.isFinite(s.maxSeconds) && s.maxSeconds > 0)) throw new Error("max seconds per run: give a positive number of seconds, or leave it empty");
      out.budget = { maxHostMs: Math.max(1, Math.round(s.maxSeconds * 1000)) };
    }
    return out;
  }

  /** The experiment to run; throws with a message the UI shows. */
  experiment(workload: WorkloadRef): ExperimentConfig {
    const s = this.state;
    const m = this.machines();
    const cfg: ExperimentConfig = {
      workload,
      cpus: m.cpus,
      stacks: m.stacks,
      params: { ...s.params },
      seed: m.seed,
      ...(s.timeline ? { timeline: true } : {}),
      ...(m.budget ? { budget: m.budget } : {}),
    };
    if (s.sweep.enabled) {
      if (!s.sweep.param) throw new Error("choose the parameter to sweep");
      const values = parseSweepValues(s.sweep.values, this.defaults[s.sweep.param]);
      if (values.length === 0) throw new Error("give the sweep values, separated by commas");
      cfg.sweep = { param: s.sweep.param, values };
    }
    return cfg;
  }

  render(): void {
    clear(this.el);
    this.el.append(h("h2", null, "Run configuration"), this.cpuSection(), this.stackSection(), this.paramSection(), this.miscSection(), this.hooks.footer?.() ?? "");
    this.hooks.changed?.();
  }

  private cpuSection(): HTMLElement {
    const rows = this.profiles.map((entry) => {
      const p = entry.profile;
      const sel = this.state.cpus.find((c) => c.id === p.id);
      const box = h("input", { type: "checkbox", checked: !!sel, "data-cpu": p.id, onchange: (e: Event) => {
        if ((e.target as HTMLInputElement).checked) this.state.cpus.push({ id: p.id, mhz: p.clock.defaultMhz });
        else this.state.cpus = this.state.cpus.filter((c) => c.id !== p.id);
        this.render();
      } });
      const presets = [...new Set([...p.clock.presets, p.clock.defaultMhz, ...(sel ? [sel.mhz] : [])])].sort((a, b) => a - b);
      const clock = h("select", { disabled: !sel, "aria-label": `${p.name} clock`, onchange: (e: Event) => { if (sel) sel.mhz = Number((e.target as HTMLSelectElement).value); } },
        presets.map((m) => h("option", { value: String(m), selected: (sel?.mhz ?? p.clock.defaultMhz) === m }, `${m} MHz`)));
      return h("div.cpu-row", null, h("label", null, box, ` ${p.name}`, entry.origin === "user" ? h("span.tag", null, "mine") : null), clock);
    });
    const smp = this.state.smp ?? 1;
    const smpSelect = h("select", { "aria-label": "CPUs of each machine", "data-param": "__smp", onchange: (e: Event) => {
      const n = Number((e.target as HTMLSelectElement).value);
      if (n > 1) this.state.smp = n;
      else delete this.state.smp;
    } }, Array.from({ length: MAX_SMP }, (_x, i) => i + 1).map((n) => h("option", { value: String(n), selected: n === smp }, n === 1 ? "1 (UP kernel)" : `${n} (SMP kernel)`)));
    const smpRow = h("label.param.smp", { title: "CPUs of each machine: 1 runs Linux 2.4's UP kernel; 2 to 8 run that many CPUs of each chosen profile under the SMP kernel (the CLI's --smp; docs/smp.md)" }, h("span", null, "CPUs per machine"), smpSelect);
    return h("section", null, h("h3", null, "CPU profiles"), rows, smpRow);
  }

  private optionInput(spec: PluginOptionSpec, name: string, v: VariantSpec): HTMLElement {
    const current = optionValue(spec, v.options?.[name]);
    const set = (val: ParamValue): void => {
      v.options = { ...(v.options ?? {}), [name]: val };
    };
    let input: HTMLElement;
    if (spec.type === "boolean") input = h("input", { type: "checkbox", checked: current === true, onchange: (e: Event) => set((e.target as HTMLInputElement).checked) });
    else if (spec.type === "enum") input = h("select", { onchange: (e: Event) => set((e.target as HTMLSelectElement).value) }, (spec.values ?? []).map((x) => h("option", { value: x, selected: x === String(current) }, x)));
    else if (spec.type === "number") input = h("input.num", { type: "number", value: String(current), min: spec.min, max: spec.max, onchange: (e: Event) => set(Number((e.target as HTMLInputElement).value)) });
    else input = h("input.text", { type: "text", value: String(current), onchange: (e: Event) => set((e.target as HTMLInputElement).value) });
    return h("label.option", { title: spec.description }, `${name}${spec.unit ? ` (${spec.unit})` : ""} `, input);
  }

  private stackSection(): HTMLElement {
    const plugins = this.enabledPlugins();
    const stacks = this.state.stacks.map((st, si) => {
      const chips = st.variants.map((v, vi) => {
        const m = plugins.find((p) => p.id === v.id)?.manifest;
        return h("div.variant", { "data-variant": v.id },
          h("div.variant-head", null, h("strong", { title: m?.description ?? "" }, m?.displayName ?? v.id), h("button.icon", { title: "Remove", "aria-label": `Remove ${v.id}`, onclick: () => { st.variants.splice(vi, 1); this.render(); } }, "×")),
          m ? Object.entries(m.options).map(([name, spec]) => this.optionInput(spec, name, v)) : h("span.warn", null, "plugin not available"));
      });
      const add = h("select", { "aria-label": "Add plugin to stack", "data-add-plugin": String(si), onchange: (e: Event) => {
        const id = (e.target as HTMLSelectElement).value;
        if (id) st.variants.push({ id });
        this.render();
        if (id) this.hooks.stackAdded?.();
      } }, h("option", { value: "" }, "+ plugin…"), plugins.filter((p) => !st.variants.some((v) => v.id === p.id)).map((p) => h("option", { value: p.id }, p.manifest!.displayName)));
      return h("div.stack", { "data-stack": String(si) },
        h("div.stack-head", null, h("span", null, st.variants.length ? `Stack ${si + 1}` : `Stack ${si + 1}: baseline`), this.state.stacks.length > 1 ? h("button.icon", { title: "Remove stack", onclick: () => { this.state.stacks.splice(si, 1); this.render(); } }, "×") : null),
        chips, add);
    });
    const preset = h("select", { "aria-label": "Add a variant stack", "data-add-stack": "", onchange: (e: Event) => {
      const v = (e.target as HTMLSelectElement).value;
      const preset = v.startsWith("preset:") ? this.presets.find((p) => `preset:${p.id}` === v) : undefined;
      if (preset) this.state.stacks.push({ variants: preset.stack.map((x) => ({ id: x.id, ...(x.options ? { options: { ...x.options } } : {}) })) });
      else if (v === "baseline") this.state.stacks.push({ variants: [] });
      else if (v) this.state.stacks.push({ variants: [{ id: v }] });
      this.render();
      if (v) this.hooks.stackAdded?.();
    } }, h("option", { value: "" }, "+ stack…"), h("option", { value: "baseline" }, "Baseline (no plugins)"),
      this.presets.map((p) => h("option", { value: `preset:${p.id}`, title: p.description }, `Preset: ${p.name}`)),
      plugins.map((p) => h("option", { value: p.id }, `Baseline + ${p.manifest!.displayName}`)));
    return h("section", null, h("h3", null, "Variant stacks"), stacks, preset);
  }

  private paramSection(): HTMLElement {
    const entries = Object.entries(this.defaults);
    const rows = entries.map(([k, d]) => {
      const v = this.state.params[k] ?? d;
      const set = (val: ParamValue): void => {
        if (val === d) delete this.state.params[k];
        else this.state.params[k] = val;
      };
      const input = typeof d === "boolean"
        ? h("input", { type: "checkbox", checked: v === true, "data-param": k, onchange: (e: Event) => set((e.target as HTMLInputElement).checked) })
        : h(typeof d === "number" ? "input.num" : "input.text", { type: typeof d === "number" ? "number" : "text", value: String(v), "data-param": k, onchange: (e: Event) => {
            const raw = (e.target as HTMLInputElement).value;
            set(typeof d === "number" ? Number(raw) : raw);
          } });
      return h("label.param", null, h("span", null, k), input);
    });
    return h("section", null, h("h3", null, "Parameters"), rows.length ? rows : h("p.muted", null, "This workload has no parameters."));
  }

  private miscSection(): HTMLElement {
    const s = this.state;
    const sweepParam = h("select", { "aria-label": "Sweep parameter", disabled: !s.sweep.enabled, onchange: (e: Event) => (s.sweep.param = (e.target as HTMLSelectElement).value) },
      h("option", { value: "" }, "parameter…"), Object.keys(this.defaults).map((k) => h("option", { value: k, selected: k === s.sweep.param }, k)));
    const sweepValues = h("input.text", { type: "text", placeholder: "e.g. 64, 512, 4096", value: s.sweep.values, disabled: !s.sweep.enabled, "aria-label": "Sweep values", onchange: (e: Event) => (s.sweep.values = (e.target as HTMLInputElement).value) });
    return h("section", null,
      h("h3", null, "Sweep, seed, repetitions, timeline, budget"),
      h("label", null, h("input", { type: "checkbox", checked: s.sweep.enabled, onchange: (e: Event) => { s.sweep.enabled = (e.target as HTMLInputElement).checked; this.render(); } }), " Sweep one parameter"),
      h("div.sweep", null, sweepParam, sweepValues),
      h("label.param", null, h("span", null, "seed"), h("input.num", { type: "number", value: String(s.seed), "data-param": "__seed", min: "0", max: "4294967295", step: "1", onchange: (e: Event) => (s.seed = Math.min(0xffffffff, Math.max(0, Math.trunc(Number((e.target as HTMLInputElement).value)) || 0))) })),
      h("label.param.repeat", { title: `Run each configuration this many times (1 to ${MAX_REPEAT}) with seeds seed, seed+1, …: each seed puts the timer tick at another phase. Charts show the median; the table min, median and max; the histogram the values over the seeds (the CLI's --repeat)` }, h("span", null, "Repetitions"),
        h("input.num", { type: "number", min: "1", max: String(MAX_REPEAT), step: "1", value: String(s.repeat ?? 1), "data-param": "__repeat", "aria-label": "Repetitions (seeds per run)", onchange: (e: Event) => {
          const input = e.target as HTMLInputElement;
          const n = clampRepeat(Number(input.value));
          input.value = String(n);
          if (n > 1) s.repeat = n;
          else delete s.repeat;
        } })),
      h("label", null, h("input", { type: "checkbox", checked: s.timeline, onchange: (e: Event) => (s.timeline = (e.target as HTMLInputElement).checked) }), " Record per-task timeline"),
      h("label.param", { title: "Host time one run may take before it is stopped (empty: 120 s, the most a run may take)" }, h("span", null, "max seconds per run"),
        h("input.num", { type: "number", min: "0.1", step: "any", placeholder: "120", value: s.maxSeconds === undefined ? "" : String(s.maxSeconds), "data-param": "__maxSeconds", "aria-label": "Max seconds per run", onchange: (e: Event) => {
          const raw = (e.target as HTMLInputElement).value.trim();
          if (raw === "") delete s.maxSeconds;
          else s.maxSeconds = Number(raw);
        } })),
    );
  }
}
