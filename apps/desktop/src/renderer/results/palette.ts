/**
 * A categorical palette for phases grouped by subsystem: each subsystem (the part of a phase name
 * before the first dot: syscall, signal, fpu, sched, ptrace, mm, ...) has its own hue, and the
 * phases inside it are shades of that hue, so "where the cycles go" reads by subsystem first.
 */
import { OKABE_ITO, PALETTE_NAME, seriesColor } from "@siglab/core/figure";

/**
 * A base colour per subsystem from Okabe & Ito's colour-blind-safe palette (@siglab/core/figure),
 * and a display order. Subsystems past the palette's seven colours share one (mm and fault, pipe
 * and aio; user, irq and idle are greys): the phases inside a subsystem are told apart by lightness.
 */
const FAMILIES: Record<string, { color: string; order: number }> = {
  user: { color: "#8c8c8c", order: 0 },
  libc: { color: OKABE_ITO.yellow, order: 1 },
  syscall: { color: OKABE_ITO.blue, order: 2 },
  signal: { color: OKABE_ITO.vermillion, order: 3 },
  fpu: { color: OKABE_ITO.bluishGreen, order: 4 },
  sched: { color: OKABE_ITO.reddishPurple, order: 5 },
  ptrace: { color: OKABE_ITO.yellow, order: 6 },
  mm: { color: OKABE_ITO.skyBlue, order: 7 },
  fault: { color: OKABE_ITO.skyBlue, order: 7 },
  pipe: { color: OKABE_ITO.orange, order: 8 },
  aio: { color: OKABE_ITO.orange, order: 8 },
  cache: { color: "#5a5a5a", order: 9 },
  tlb: { color: "#5a5a5a", order: 9 },
  irq: { color: "#2b2b2b", order: 10 },
  idle: { color: "#bdbdbd", order: 11 },
};

/** The palette the phase chart draws with (its canvas says it: data-palette). */
export const PHASE_PALETTE = PALETTE_NAME;

export function subsystemOf(phase: string): string {
  const dot = phase.indexOf(".");
  return dot < 0 ? phase : phase.slice(0, dot);
}

function familyOf(phase: string): { key: string; color: string; order: number } {
  const sub = subsystemOf(phase);
  // families that share a colour are ordered as one
  const key = sub === "fault" ? "mm" : sub === "aio" ? "pipe" : sub === "tlb" ? "cache" : sub;
  const f = FAMILIES[sub];
  return f ? { key, ...f } : { key, color: seriesColor(Object.keys(FAMILIES).length + [...sub].reduce((n, c) => n + c.charCodeAt(0), 0)), order: 50 };
}

/** `hex` mixed with white (t > 0) or black (t < 0) by |t|. */
function shade(hex: string, t: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const mix = (c: number): number => Math.round(t >= 0 ? c + (255 - c) * t : c * (1 + t));
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(mix) as [number, number, number];
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`;
}

/** The phases ordered by subsystem (then by name), so a stacked bar and its legend group them. */
export function orderPhases(phases: string[]): string[] {
  return [...phases].sort((a, b) => {
    const fa = familyOf(a);
    const fb = familyOf(b);
    return fa.order - fb.order || fa.key.localeCompare(fb.key) || a.localeCompare(b);
  });
}

/**
 * A colour per phase: its subsystem's colour, from dark to light over the subsystem's phases, in an
 * order that puts far-apart shades next to each other (0, 2, 4, …, 1, 3, …) so neighbouring
 * segments of a stacked bar stay apart.
 */
export function phaseColors(phases: string[]): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const p of orderPhases(phases)) {
    const k = familyOf(p).key;
    groups.set(k, [...(groups.get(k) ?? []), p]);
  }
  const out = new Map<string, string>();
  for (const members of groups.values()) {
    const n = members.length;
    const steps = [...Array(n).keys()].map((i) => (n === 1 ? 0 : -0.45 + (i * 1.05) / (n - 1)));
    const spread = [...steps.filter((_x, i) => i % 2 === 0), ...steps.filter((_x, i) => i % 2 === 1)];
    members.forEach((p, i) => out.set(p, shade(familyOf(p).color, spread[i]!)));
  }
  return out;
}
