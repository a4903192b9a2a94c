/**
 * "Your machine" in the LMbench summary (issue 16): a loaded probe's five figures, measured, beside
 * the linux-6 simulation of the same loops on the CPU profile that matches the probe's CPU, and a
 * row of what-if buttons ("without page-table isolation", "with a lazy FPU", ...). Each click runs
 * the five examples under that what-if through the app's execution host (the path Run and the
 * summary use: nothing runs on this thread) and adds a row with each figure's difference from the
 * baseline simulation. A what-if the host would refuse on this stack is a disabled button whose
 * tooltip says why. The rules are in whatif.ts; this file only draws and sequences the runs.
 */
import { signedErrorPercent, hostKernelOptions, withHostKernel } from "@siglab/core/common";
import type { CpuProfileFile, CpuRef, RunResult, VariantSpec } from "../../common/contracts.js";
import type { PluginEntry, PresetEntry } from "../../common/host-api.js";
import { runErrorLine } from "../results/errors.js";
import { cpuLabel } from "../results/labels.js";
import { appWording, RunCancelled } from "../sim-client.js";
import { clear, h } from "../ui/dom.js";
import { formatError, formatUs, LMBENCH_BENCHMARKS, probeVmWarning, simulatedUs, type ProbeSummary } from "./lmbench.js";
import { baselineCounters, deltaPercent, formatDeltaUs, longMode, machineRuns, matchProbeProfile, MODERN_PRESET, profileRefusal, whatIfs, type MachineRun, type WhatIf } from "./whatif.js";

export interface MachineHooks {
  /** the profiles, plugins and presets the app knows now */
  catalog(): { profiles: CpuProfileFile[]; plugins: PluginEntry[]; presets: PresetEntry[] };
  /** whether the summary's "quick" box is ticked (a tenth of each example's iterations) */
  quick(): boolean;
  /**
   * Runs `runs` in order through the app's execution host, each result handed to onResult; with
   * `seed` given, that seed (a what-if runs with its baseline's), else the run configuration's.
   * Rejects with RunCancelled on Cancel, with an Error when a run is in progress or one cannot start.
   */
  simulate(runs: MachineRun[], opts: { quick: boolean; seed?: number; label: string }, onResult: (index: number, result: RunResult) => void): Promise<{ seed: number }>;
}

/** One simulated row: the baseline or a what-if, its five results (LMBENCH_BENCHMARKS order). */
interface SimRow {
  whatIf: WhatIf | null;
  results: (RunResult | undefined)[];
  state: "running" | "done" | "failed" | "cancelled";
  message?: string;
}

export class MachinePanel {
  readonly el = h("section.machine-panel#machine-panel", { "aria-label": "Your machine and what-ifs", hidden: true, style: { padding: "0 8px" } });
  private probe: ProbeSummary | null = null;
  /** the profile chosen in the select; null: the one matching the probe */
  private chosen: string | null = null;
  private baseline: SimRow | null = null;
  /** the baseline's run settings, which every what-if reuses (same iterations, same seed) */
  private ran: { cpu: CpuRef; stack: VariantSpec[]; quick: boolean; seed: number } | null = null;
  private readonly rows: SimRow[] = [];
  private busy = false;

  constructor(private readonly hooks: MachineHooks) {}

  /** A probe was loaded (or replaced): show it and simulate the baseline on its profile. */
  setProbe(probe: ProbeSummary): void {
    this.probe = probe;
    this.chosen = null;
    this.reset();
    this.render();
    if (this.target().cpu) void this.runBaseline();
  }

  /** The compared profile and stack, or why there is none. */
  private target(): { cpu: CpuRef | null; profile: CpuProfileFile | null; stack: VariantSpec[]; how: string; problem?: string } {
    const { profiles, presets } = this.hooks.catalog();
    const preset = presets.find((p) => p.id === MODERN_PRESET);
    const stack: VariantSpec[] = (preset?.stack ?? []).map((v) => ({ id: v.id, ...(v.options ? { options: { ...v.options } as VariantSpec["options"] } : {}) }));
    if (!preset) return { cpu: null, profile: null, stack, how: "", problem: `no '${MODERN_PRESET}' preset is installed: there is no simulation of a current kernel to compare this machine with` };
    let profile: CpuProfileFile | undefined;
    let how: string;
    if (this.chosen) {
      profile = profiles.find((p) => p.id === this.chosen);
      how = "chosen here";
    } else {
      const m = this.probe ? matchProbeProfile(this.probe.cpu, profiles) : null;
      profile = m?.profile;
      how = m ? `matched to the probe's CPU: ${m.how}` : "";
      if (!m) return { cpu: null, profile: null, stack, how, problem: `no x86-64 CPU profile matches the probe's CPU (${this.probe?.cpu.vendor ?? "vendor unknown"}${this.probe?.cpu.cpuid ? `, family ${this.probe.cpu.cpuid.family} model ${this.probe.cpu.cpuid.model}` : ""}): pick one` };
    }
    if (!profile) return { cpu: null, profile: null, stack, how, problem: "pick a profile" };
    // the kernel as the probe's machine runs it (its mitigation lines, its CPU flags), as `suite host`
    const hosted = this.probe ? withHostKernel(stack, hostKernelOptions(this.probe.kernel)) : stack;
    const refused = profileRefusal(profile, hosted);
    if (refused) return { cpu: null, profile, stack: hosted, how, problem: refused };
    return { cpu: { id: profile.id, mhz: profile.clock.defaultMhz }, profile, stack: hosted, how };
  }

  private reset(): void {
    this.baseline = null;
    this.ran = null;
    this.rows.length = 0;
  }

  private async simulate(row: SimRow, cpu: CpuRef, stack: VariantSpec[], opts: { quick: boolean; seed?: number }, label: string): Promise<number | null> {
    this.busy = true;
    this.render();
    try {
      const { seed } = await this.hooks.simulate(machineRuns(cpu, stack), { ...opts, label }, (i, r) => {
        row.results[i] = r;
        this.render();
      });
      row.state = row.results.some((r) => r?.error) ? "failed" : "done";
      if (row.state === "failed") row.message = "a run failed: hover its cell for why";
      return seed;
    } catch (err) {
      row.state = err instanceof RunCancelled ? "cancelled" : "failed";
      row.message = err instanceof RunCancelled ? "cancelled" : appWording((err as Error).message);
      return null;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /** Simulates the baseline (the linux-6 preset on the compared profile); what-ifs start over. */
  async runBaseline(): Promise<void> {
    const t = this.target();
    if (!t.cpu || this.busy) return;
    this.reset();
    const row: SimRow = { whatIf: null, results: [], state: "running" };
    this.baseline = row;
    const quick = this.hooks.quick();
    const seed = await this.simulate(row, t.cpu, t.stack, { quick }, `Your machine: ${MODERN_PRESET} on ${t.cpu.id}`);
    if (seed !== null && this.baseline === row) this.ran = { cpu: t.cpu, stack: t.stack, quick, seed };
    this.render();
  }

  /** Simulates one what-if with the baseline's settings and adds its row. */
  async runWhatIf(w: WhatIf): Promise<void> {
    if (!this.ran || this.busy || w.reason) return;
    const old = this.rows.findIndex((r) => r.whatIf?.id === w.id);
    if (old >= 0) this.rows.splice(old, 1);
    const row: SimRow = { whatIf: w, results: [], state: "running" };
    this.rows.push(row);
    await this.simulate(row, this.ran.cpu, w.stack, { quick: this.ran.quick, seed: this.ran.seed }, `What-if: ${w.label}`);
  }

  private render(): void {
    const el = this.el;
    clear(el);
    el.hidden = this.probe === null;
    if (!this.probe) return;
    const probe = this.probe;
    const { profiles, plugins } = this.hooks.catalog();
    const t = this.target();
    const x86 = profiles.filter((p) => !p.abstract && !p.id.startsWith("_") && longMode(p));
    const pick = h("select#machine-profile", { "aria-label": "CPU profile the probe is simulated on", disabled: this.busy, onchange: (e: Event) => {
      this.chosen = (e.target as HTMLSelectElement).value || null;
      this.reset();
      this.render();
      if (this.target().cpu) void this.runBaseline();
    } }, h("option", { value: "", selected: this.chosen === null }, "the matching profile"), x86.map((p) => h("option", { value: p.id, selected: this.chosen === p.id }, p.name)));
    const again = h("button#machine-simulate", { disabled: this.busy || !t.cpu, onclick: () => void this.runBaseline(), title: "Simulate the five figures again on this profile under the linux-6 preset (what-ifs start over)" }, this.baseline ? "Simulate again" : "▶ Simulate");
    el.append(h("h3", null, "Your machine and what-ifs"),
      h("p.machine-line", null, "Simulated under the ", h("code", null, MODERN_PRESET), " preset on ", pick, " ", again, " ",
        h("span.muted#machine-how", null, t.problem ?? (t.cpu ? `${cpuLabel(t.cpu, profiles)}; ${t.how}${this.ran?.quick ? "; quick (÷10 iterations)" : ""}` : ""))));

    const vm = probeVmWarning(probe);
    if (vm) el.append(h("p.warn#machine-vm", { role: "note" }, vm));

    // the table: measured, the baseline simulation, then one row per what-if
    const head1 = h("tr", null, h("th", { rowspan: 2 }, ""), LMBENCH_BENCHMARKS.map((b) => h("th.bench", { colspan: 2, "data-bench": b.example }, `${b.name} (µs)`)));
    const head2 = h("tr", null, LMBENCH_BENCHMARKS.flatMap(() => [h("th.sub", { title: "µs per operation" }, "µs"), h("th.sub", { title: "the simulation against the measured figure (error); a what-if against the baseline simulation (Δ)" }, "error / Δ")]));
    const measuredRow = h("tr.probe-row", { "data-row": "measured" }, h("th.row", { scope: "row", title: `siglab probe on ${probe.host}: medians of its repetitions` }, `Your machine, measured: ${probe.host}`),
      LMBENCH_BENCHMARKS.flatMap((b) => {
        const m = probe.figures[b.example];
        return [h("td.num.measured", { "data-bench": b.example, "data-kind": "measured", ...(m ? { "data-us": String(m.us), title: `median; min ${formatUs(m.min!)}, max ${formatUs(m.max!)} µs` } : {}) }, m ? formatUs(m.us) : "—"), h("td.num", null, "")];
      }));
    const base = this.baseline;
    const baseUs = (i: number): number | null => simulatedUs(base?.results[i], LMBENCH_BENCHMARKS[i]!);
    const simRow = (row: SimRow, key: string, label: string, title: string, compare: (i: number, us: number) => HTMLElement) =>
      h("tr", { "data-row": key, "data-state": row.state }, h("th.row", { scope: "row", title }, label),
        LMBENCH_BENCHMARKS.flatMap((b, i) => {
          const r = row.results[i];
          const us = simulatedUs(r, b);
          const cell = r?.error
            ? h("td.num.failed", { "data-bench": b.example, "data-kind": "simulated", title: runErrorLine(r.error, appWording) }, "failed")
            : h("td.num", { "data-bench": b.example, "data-kind": "simulated", ...(us !== null ? { "data-us": String(us) } : {}) }, us === null ? (r || row.state !== "running" ? "—" : "…") : formatUs(us));
          return [cell, us === null ? h("td.num", { "data-bench": b.example }, "") : compare(i, us)];
        }));
    const label = t.cpu ? `${MODERN_PRESET} on ${cpuLabel(this.ran?.cpu ?? t.cpu, profiles)}, simulated` : `${MODERN_PRESET}, simulated`;
    const bodyRows: HTMLElement[] = [measuredRow];
    if (base) {
      bodyRows.push(simRow(base, "baseline", label, `the baseline: ${MODERN_PRESET} with its defaults for this CPU${base.message ? ` (${base.message})` : ""}`, (i, us) => {
        // no error against a probe figure of 0 (lmbench's settime(0) when a subtraction comes out negative)
        const err = signedErrorPercent(us, probe.figures[LMBENCH_BENCHMARKS[i]!.example]?.us);
        if (err === null) return h("td.num", { "data-bench": LMBENCH_BENCHMARKS[i]!.example }, "—");
        return h("td.num.error", { "data-bench": LMBENCH_BENCHMARKS[i]!.example, "data-kind": "error", "data-error": String(err), title: "(simulated − measured) / measured" }, formatError(err));
      }));
    }
    for (const row of this.rows) {
      const w = row.whatIf!;
      bodyRows.push(simRow(row, `whatif:${w.id}`, `… ${w.label}`, `${w.description}${row.message ? ` (${row.message})` : ""}`, (i, us) => {
        const b0 = baseUs(i);
        const d = deltaPercent(us, b0);
        const bench = LMBENCH_BENCHMARKS[i]!.example;
        if (d === null || b0 === null) return h("td.num", { "data-bench": bench }, "—");
        return h("td.num.delta", { "data-bench": bench, "data-kind": "delta", "data-delta": String(d), title: `${formatDeltaUs(us - b0)} against the baseline simulation (${formatUs(b0)} µs)` }, formatError(d));
      }));
    }
    el.append(h("table.results-table.summary-table#machine-table", null, h("thead", null, head1, head2), h("tbody", null, bodyRows)));
    const stopped = [base, ...this.rows].filter((r): r is SimRow => r !== null && r.state !== "done" && r.state !== "running" && Boolean(r.message));
    if (stopped.length) el.append(h("p.muted#machine-problem", { role: "status" }, stopped.map((r) => `${r.whatIf ? r.whatIf.label : "The baseline"}: ${r.message}.`).join(" ")));

    // the what-if buttons
    const list = whatIfs(t.stack, this.ran && base?.state === "done" ? baselineCounters(base.results) : null, plugins, t.profile?.name ?? "this profile");
    el.append(h("div.machine-whatifs#machine-whatifs", { role: "group", "aria-label": "What-ifs", style: { display: "flex", flexWrap: "wrap", gap: "6px", alignItems: "center", margin: "6px 0" } },
      h("span", null, "What if:"),
      list.map((w) => h("button.whatif", { "data-whatif": w.id, disabled: Boolean(w.reason) || this.busy || !this.ran, title: w.reason ?? (this.ran ? w.description : "waiting for the baseline simulation"), "data-reason": w.reason ?? "", onclick: () => void this.runWhatIf(w) }, w.label))));
    const notes: (HTMLElement | string)[] = [];
    if (probe.mitigations.length) notes.push(h("li", null, "Your kernel reports: ", probe.mitigations.map(([k, v], i) => [i ? "; " : "", h("code", null, k), `: ${v}`]).flat()));
    const set = hostKernelOptions(probe.kernel).reasons.filter((r) => !/^\w+=auto:/.test(r));
    if (set.length) notes.push(h("li#machine-kernel", null, "The baseline's kernel options, read off your probe as `siglab suite host` reads them: ", set.map((r, i) => [i ? "; " : "", h("code", null, r.slice(0, r.indexOf(":"))), r.slice(r.indexOf(":"))]).flat()));
    notes.push(h("li", null, "A what-if runs the same five examples with the baseline's iterations and seed under a changed stack; Δ is (what-if − baseline) / baseline of the simulation, not a measurement. The baseline's mitigations are your kernel's where the probe reports them (the line above), else the linux6 plugin's defaults for this CPU; the error against your machine is read with docs/modern.md. A disabled what-if says why in its tooltip."));
    el.append(h("ul.summary-notes", null, notes));
  }
}
