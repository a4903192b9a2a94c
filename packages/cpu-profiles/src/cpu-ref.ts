/** "id@MHz" CPU references, as used on the command line and in experiment files. */
import { CpuRefError } from "./errors.js";

export interface ParsedCpuRef {
  id: string;
  /** Absent when the reference names no clock (the profile's default applies). */
  mhz?: number;
}

const REF = /^([A-Za-z0-9_][A-Za-z0-9._+~-]*)(?:@(\d+(?:\.\d+)?)\s*(mhz|ghz)?)?$/i;

/**
 * Parses "p4-northwood", "p4-northwood@2200", "p4-northwood@2200MHz" or "p4-northwood@2.2GHz".
 * Whether the clock fits the profile is checked later, by resolveProfile.
 */
export function parseCpuRef(ref: string): ParsedCpuRef {
  const m = REF.exec(ref.trim());
  if (!m) {
    throw new CpuRefError(`invalid CPU reference ${JSON.stringify(ref)}: expected "<profile-id>" or "<profile-id>@<MHz>", e.g. "p4-northwood@2200"`);
  }
  const id = m[1]!;
  if (m[2] === undefined) return { id };
  const n = Number(m[2]);
  const mhz = m[3]?.toLowerCase() === "ghz" ? Math.round(n * 1000 * 1000) / 1000 : n;
  if (!(mhz > 0)) throw new CpuRefError(`invalid CPU reference ${JSON.stringify(ref)}: the clock must be above 0 MHz`);
  return { id, mhz };
}

/** The canonical text form: "id@MHz" (or just "id"). */
export function formatCpuRef(ref: ParsedCpuRef): string {
  return ref.mhz === undefined ? ref.id : `${ref.id}@${ref.mhz}`;
}
