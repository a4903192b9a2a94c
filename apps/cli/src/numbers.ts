/**
 * The one way the CLI's text prints a number or a unit: digit groups (1,234,567), no float noise
 * (472032.13000000035 -> 472,032.1), whole numbers without decimals (200, not 200.000), µs for
 * "us". --json keeps the raw numbers and the results' own units. Imports nothing, so that any
 * command (probe, bench) can use it without loading the simulator.
 */

/** Whole numbers with digit groups: 1,234,567 (cycles and counts are read, not parsed). */
export function group(n: number): string {
  return Math.round(n).toLocaleString("en");
}

/**
 * n as n.toLocaleString("en") writes it (digit groups, at most 3 decimals) for the texts a command
 * builds as it loads (option help): without Intl, whose first use costs a process ~10 ms.
 */
export function plainGrouped(n: number): string {
  const a = Math.abs(n);
  if (!(a < 1e15) || Number(n.toFixed(3)) !== n) return n.toLocaleString("en");
  const [whole, frac] = a.toFixed(3).replace(/\.?0+$/, "").split(".") as [string, string | undefined];
  return `${n < 0 ? "-" : ""}${whole.replace(/\B(?=(\d{3})+$)/g, ",")}${frac ? `.${frac}` : ""}`;
}

/**
 * A measured value as people read it: digit groups, 1 decimal from 100 up, 3 from 1 up, 4
 * significant digits below 1, never in e-notation (whole numbers as they are).
 */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n)) return n.toLocaleString("en");
  const a = Math.abs(n);
  if (a >= 100) return n.toLocaleString("en", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  if (a >= 1) return n.toFixed(3);
  return n.toLocaleString("en", { minimumSignificantDigits: 4, maximumSignificantDigits: 4 });
}

/** Simulated time in the unit that reads best: "49.50 µs", "1.841 ms", "2.300 s". */
export function duration(seconds: number): string {
  const a = Math.abs(seconds);
  if (a >= 1) return `${fmt(seconds)} s`;
  if (a >= 1e-3) return `${fmt(seconds * 1e3)} ms`;
  return `${fmt(seconds * 1e6)} µs`;
}

/** A unit as text prints it: "us" is µs (results and JSON keep "us"). */
export function unitText(u: string): string {
  return u.replace(/(^|[^A-Za-z])us(?![A-Za-z])/g, "$1µs");
}

