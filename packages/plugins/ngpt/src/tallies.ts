/**
 * NGPT's per-switch counters (ngpt.yields, ngpt.mctx_switches, ngpt.switches), kept as numbers
 * and added to the kernel's counters when the run ends: a count by name is a string-keyed update
 * of a dictionary (four per yield). Results are the same: counters are read only at the end.
 */
import type { Kernel } from "@siglab/plugin-api";

export class SwitchTallies {
  yields = 0;
  mctxSwitches = 0;
  switches = 0;

  /** Fold into `k`'s counters at run.end (once per LWP: each keeps its own). */
  attach(k: Kernel): void {
    k.events.on("run.end", () => this.flush(k));
  }

  private flush(k: Kernel): void {
    if (this.yields) k.count("ngpt.yields", this.yields);
    if (this.mctxSwitches) k.count("ngpt.mctx_switches", this.mctxSwitches);
    if (this.switches) k.count("ngpt.switches", this.switches);
    this.yields = this.mctxSwitches = this.switches = 0;
  }
}
