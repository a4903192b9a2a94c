/**
 * A categorical palette for phases grouped by subsystem: each subsystem (the part of a phase name
 * before the first dot: syscall, signal, fpu, sched, ptrace, mm, ...) has its own hue, and the
 * phases inside it are shades of that hue, so "where the cycles go" reads by subsystem first.
 */

/** Hue (degrees), saturation (%) and a display order per subsystem. */
const FAMILIES: Record<string, { hue: number; sat: number; order: number }> = {
  user: { hue: 210, sat: 10, order: 0 },
  libc: { hue: 330, sat: 55, order: 1 },
  syscall: { hue: 212, sat: 70, order: 2 },
  signal: { hue: 24, sat: 85, order: 3 },
  fpu: { hue: 130, sat: 50, order: 4 },
  sched: { hue: 270, sat: 45, order: 5 },
  ptrace: { hue: 30, sat: 35, order: 6 },
  mm: { hue: 175, sat: 55, order: 7 },
  fault: { hue: 175, sat: 55, order: 7 },
  pipe: { hue: 48, sat: 80, order: 8 },
  aio: { hue: 48, sat: 80, order: 8 },
  irq: { hue: 0, sat: 0, order: 9 },
  idle: { hue: 0, sat: 0, order: 10 },
};

export function subsystemOf(phase: string): string {
  const dot = phase.indexOf(".");
  return dot < 0 ? phase : phase.slice(0, dot);
}

function hashHue(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0) % 360;
}

function familyOf(phase: string): { key: string; hue: number; sat: number; order: number } {
  const sub = subsystemOf(phase);
  // mm and fault share a hue: order them as one family
  const key = sub === "fault" ? "mm" : sub === "aio" ? "pipe" : sub;
  const f = FAMILIES[sub];
  return f ? { key, ...f } : { key, hue: hashHue(sub), sat: 45, order: 50 };
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
 * A colour per phase: the subsystem's hue, lightness spread over its phases (dark to light), and
 * alternating saturation so neighbouring shades stay apart.
 */
export function phaseColors(phases: string[]): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const p of orderPhases(phases)) {
    const k = familyOf(p).key;
    groups.set(k, [...(groups.get(k) ?? []), p]);
  }
  const out = new Map<string, string>();
  for (const members of groups.values()) {
    members.forEach((p, i) => {
      const f = familyOf(p);
      const n = members.length;
      const light = n === 1 ? 50 : Math.round(32 + (i * 42) / (n - 1));
      const sat = f.sat === 0 ? 0 : Math.max(20, f.sat - (i % 2) * 18);
      const hue = f.key === "mm" && subsystemOf(p) === "fault" ? f.hue + 12 : f.hue;
      out.set(p, `hsl(${hue}, ${sat}%, ${light}%)`);
    });
  }
  return out;
}
