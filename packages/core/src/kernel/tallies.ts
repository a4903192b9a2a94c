/**
 * (No Linux counterpart: the simulator's statistics.) The counters the core bumps on its hot paths
 * (every delivery, sigreturn and switch), kept by slot in a typed array instead of by name in
 * `Kernel.counters`: a bump is an indexed add, not a string-keyed property update (8 per signal
 * delivery). Folded into `counters` under these names at the end of the run (Kernel.foldTallies),
 * so results are the same as counting by name; a plugin's `k.count(name)` of the same name adds to
 * the same figure.
 */
export const TALLY_NAMES = [
  "signals.sent",
  "signals.delivered",
  "bytes.copied",
  "fpu.frame_saves",
  "fpu.frame_restores",
  "fpu.saves",
  "fpu.restores",
  "fpu.inits",
  "fpu.nm_traps",
  "sched.switches",
  "tlb.flushes",
] as const;

/** slot of each name in TALLY_NAMES */
export const TALLY = {
  signals_sent: 0,
  signals_delivered: 1,
  bytes_copied: 2,
  fpu_frame_saves: 3,
  fpu_frame_restores: 4,
  fpu_saves: 5,
  fpu_restores: 6,
  fpu_inits: 7,
  fpu_nm_traps: 8,
  sched_switches: 9,
  tlb_flushes: 10,
} as const satisfies Record<string, number>;
