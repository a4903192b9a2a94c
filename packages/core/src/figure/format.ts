/** Numbers as a figure prints them. */

/** µs with three significant digits (at least two decimals below 10): "0.900", "3.09", "12.5", "1,234". */
export function formatUs(us: number): string {
  if (us === 0) return "0";
  if (Math.abs(us) >= 1000) return Math.round(us).toLocaleString("en-US");
  return Number(us.toPrecision(3)).toFixed(Math.max(0, 2 - Math.floor(Math.log10(Math.abs(us)))));
}

/** Axis ticks from 0 to at least `max`: steps of 1, 2 or 5 × 10^k, about `target` of them. */
export function niceTicks(max: number, target = 6): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / target;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
  const n = Math.ceil(max / step - 1e-9);
  return Array.from({ length: n + 1 }, (_v, i) => Number((i * step).toPrecision(12)));
}
