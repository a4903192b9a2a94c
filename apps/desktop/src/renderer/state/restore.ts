/**
 * The run configuration of an experiment as it ran — opened from a bundle, a shared link or the
 * recent list — so the panel shows every choice that made those results. Plugin options are kept
 * exactly as they ran (the CLI writes `sa-nofp:forceAll=true` as the string "true", and a re-run
 * must give the same results, whose variants echo them); the panel reads each by its manifest's
 * type (ui/run-config.ts optionValue), so "true" is a ticked box.
 */
import { smpOf, withSmp, type RunConfigState } from "../ui/run-config.js";
import type { SharedConfig } from "./share.js";

/** What an experiment that ran says about its configuration: what a link carries. */
export type RanConfig = SharedConfig;

/** The panel's state for an experiment that ran: CPUs with CPUs per machine, plugin options, sweep, seed, timeline, budget, repetitions. */
export function restoredRunConfig(c: RanConfig): RunConfigState {
  const state: RunConfigState = {
    cpus: c.cpus.map((x) => withSmp(x, 1)),
    stacks: c.stacks.map((st) => ({ variants: st.map((v) => (v.options ? { id: v.id, options: { ...v.options } } : { id: v.id })) })),
    params: { ...c.params },
    sweep: c.sweep ? { enabled: true, param: c.sweep.param, values: c.sweep.values.join(", ") } : { enabled: false, param: "", values: "" },
    seed: c.seed,
    timeline: !!c.timeline,
  };
  if (c.maxSeconds !== undefined) state.maxSeconds = c.maxSeconds;
  if (smpOf(c.cpus) > 1) state.smp = smpOf(c.cpus);
  if (c.repeat !== undefined && c.repeat > 1) state.repeat = c.repeat;
  return state;
}
