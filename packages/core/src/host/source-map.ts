/**
 * Maps a position in transpiled JavaScript back to the TypeScript source with the transpiler's
 * source map (version 3 `mappings`), so an error in a workload names its own line.
 */
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function decodeVlq(seg: string): number[] {
  const out: number[] = [];
  let value = 0, shift = 0;
  for (const ch of seg) {
    const d = B64.indexOf(ch);
    if (d < 0) return [];
    value += (d & 31) << shift;
    if (d & 32) shift += 5;
    else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

/** The source position (1-based line and column) of generated `line`:`column` (1-based), or null. */
export function originalPosition(mapJson: string, line: number, column: number): { line: number; column: number } | null {
  let mappings: string;
  try {
    mappings = (JSON.parse(mapJson) as { mappings?: unknown }).mappings as string;
  } catch {
    return null;
  }
  if (typeof mappings !== "string") return null;
  let srcLine = 0, srcCol = 0;
  let best: { line: number; column: number } | null = null;
  const lines = mappings.split(";");
  for (let gl = 0; gl < lines.length && gl < line; gl++) {
    let genCol = 0;
    for (const seg of lines[gl]!.split(",")) {
      if (!seg) continue;
      const f = decodeVlq(seg);
      if (f.length < 4) {
        genCol += f[0] ?? 0;
        continue;
      }
      genCol += f[0]!;
      srcLine += f[2]!;
      srcCol += f[3]!;
      if (gl === line - 1 && genCol <= column - 1) best = { line: srcLine + 1, column: srcCol + 1 };
      else if (gl === line - 1 && !best) best = { line: srcLine + 1, column: srcCol + 1 };
    }
  }
  return best;
}
