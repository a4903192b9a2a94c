/**
 * The line above the editor saying why the CPU selection changed: when the open workload (SSE
 * registers) or a variant stack (SEP for sysenter) needs a feature a chosen CPU lacks, CPUs that
 * have it are selected, with Undo (rules in state/cpu-features.ts).
 */
import { cpuLabel } from "../results/labels.js";
import type { Catalog } from "../state/catalog.js";
import { adjustCpus, describeAdjustment, featureNeeds } from "../state/cpu-features.js";
import { clear, h } from "./dom.js";
import type { RunConfigView } from "./run-config.js";

export class CpuNote {
  /** why the CPU selection was changed for this workload (SSE registers, SEP for sysenter), with Undo */
  readonly el = h("div.cpu-note#cpu-note", { role: "status", "aria-live": "polite", hidden: true });

  constructor(
    private readonly catalog: Catalog,
    private readonly runConfig: RunConfigView,
    /** the open workload's text, or null */
    private readonly source: () => string | null,
  ) {}

  private adjustment(): { needs: ReturnType<typeof featureNeeds>; adj: ReturnType<typeof adjustCpus> } | null {
    const source = this.source();
    if (source === null) return null;
    const needs = featureNeeds(source, this.runConfig.state.stacks.map((st) => st.variants));
    return { needs, adj: adjustCpus(this.runConfig.state.cpus, this.catalog.profiles.map((p) => p.profile), needs) };
  }

  /** Whether the selection must change: any chosen CPU lacks a need (onlyIfAll: every chosen CPU does). */
  needsAdjustment(onlyIfAll = false): boolean {
    const f = this.adjustment();
    if (!f || f.adj.impossible || f.adj.removed.length === 0) return false;
    return !onlyIfAll || f.adj.removed.length === this.runConfig.state.cpus.length;
  }

  /** Selects CPUs that have what the workload and stacks need, and says so (keepNote: leave a note up when nothing changes). */
  check(keepNote = false): void {
    const f = this.adjustment();
    if (!keepNote || (f && (f.adj.removed.length || f.adj.impossible))) {
      clear(this.el);
      this.el.hidden = true;
    }
    if (!f || (f.adj.removed.length === 0 && !f.adj.impossible)) return;
    const profiles = this.catalog.profiles.map((p) => p.profile);
    const text = describeAdjustment(f.adj, f.needs, profiles, (c) => cpuLabel(c, profiles));
    this.el.dataset.kind = f.adj.impossible ? "impossible" : "adjusted";
    if (f.adj.impossible) {
      this.el.append(h("span", null, text));
    } else {
      const before = this.runConfig.state.cpus.map((c) => ({ ...c }));
      this.runConfig.state.cpus = f.adj.cpus;
      this.runConfig.render();
      this.el.append(h("span", null, text), " ",
        h("button.small#undo-cpu", { onclick: () => { this.runConfig.state.cpus = before; this.runConfig.render(); this.el.hidden = true; } }, "Undo"));
    }
    this.el.hidden = false;
  }
}
