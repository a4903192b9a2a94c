/**
 * "Did you mean …?" for every id the CLI accepts (examples, CPU profiles, plugins and their
 * options, presets, suites, export formats, commands): one matcher, so that `lat_sig`, `pentium4`,
 * `sa_nofp` or `Examples` all find what was meant. Names are compared normalised (case, `_`, `-`,
 * `.`, spaces ignored); a candidate matches exactly, by prefix (either way), by containing the name
 * given, or within an edit distance of about a third of its length. A candidate may carry aliases
 * (an example's title, a profile's marketing name) that match for it.
 */

export interface Candidate {
  id: string;
  /** other names that mean this id ("lat_sig catch", "Pentium 4") */
  aliases?: readonly string[];
}

export const normalise = (s: string): string => s.toLowerCase().replace(/[\s_.\-]+/g, "");

/** Edit distance: insertions, deletions, substitutions and swaps of neighbours ("cvs"/"csv") cost 1. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** How close `name` is to `given` (both normalised); lower is closer, undefined is no match. */
function score(given: string, name: string): number | undefined {
  if (!given || !name) return undefined;
  if (given === name) return 0;
  if (given.length >= 2 && (name.startsWith(given) || given.startsWith(name) && name.length >= 3)) return 1;
  if (given.length >= 4 && name.includes(given)) return 2;
  const d = editDistance(given, name);
  return d <= Math.max(1, Math.floor(given.length / 3)) ? 2 + d : undefined;
}

/** The ids closest to `given`, best first (at most `max`); those equal once normalised come alone. */
export function suggestions(given: string, candidates: readonly (string | Candidate)[], max = 3): string[] {
  const g = normalise(given);
  const scored: { id: string; s: number; k: number }[] = [];
  candidates.forEach((c, k) => {
    const { id, aliases = [] } = typeof c === "string" ? { id: c } : c;
    const best = Math.min(...[id, ...aliases].map((n) => score(g, normalise(n)) ?? Infinity));
    if (best < Infinity && !scored.some((x) => x.id === id)) scored.push({ id, s: best, k });
  });
  scored.sort((a, b) => a.s - b.s || a.k - b.k);
  const exact = scored.filter((x) => x.s === 0);
  return (exact.length ? exact : scored).slice(0, max).map((x) => x.id);
}

/** "did you mean 'lat_sig_catch'? " / "did you mean 'a', 'b' or 'c'? " / "" — to open a list of the valid ids. */
export function didYouMean(given: string, candidates: readonly (string | Candidate)[]): string {
  const s = suggestions(given, candidates).map((x) => `'${x}'`);
  if (!s.length) return "";
  return `did you mean ${s.length === 1 ? s[0] : `${s.slice(0, -1).join(", ")} or ${s.at(-1)}`}? `;
}

/** A CPU profile's names besides its id: "Intel Pentium 4 (Northwood)" -> "Pentium 4", "Northwood", "Pentium 4 Northwood", … */
export function profileAliases(name: string | undefined): string[] {
  if (!name) return [];
  const bare = name.replace(/^(Intel|AMD)\s+/, "");
  const inner = /\(([^)]*)\)/.exec(bare)?.[1];
  const outer = bare.replace(/\s*\([^)]*\)/, "");
  const roman = (s: string) => s.replace(/\bIII\b/g, "3").replace(/\bII\b/g, "2");
  return [...new Set([name, bare, outer, roman(outer), ...(inner ? [inner, `${outer} ${inner}`, `${roman(outer)} ${inner}`] : [])])];
}
