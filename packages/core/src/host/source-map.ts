/**
 * Maps a position in transpiled JavaScript back to the TypeScript source with the transpiler's
 * source map (version 3 `mappings`), so an error in a workload or a plugin names its own line.
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
  const p = originalSource(mapJson, line, column);
  return p && { line: p.line, column: p.column };
}

/**
 * The source position of generated `line`:`column` (1-based) with its source file as the map
 * names it (`sourceRoot` + `sources[i]`, relative to the map's own folder), or null.
 */
export function originalSource(mapJson: string, line: number, column: number): { source: string | undefined; line: number; column: number } | null {
  let map: { mappings?: unknown; sources?: unknown; sourceRoot?: unknown };
  try {
    map = JSON.parse(mapJson) as typeof map;
  } catch {
    return null;
  }
  const mappings = map?.mappings;
  if (typeof mappings !== "string") return null;
  const sources = Array.isArray(map.sources) ? map.sources : [];
  const root = typeof map.sourceRoot === "string" && map.sourceRoot ? `${map.sourceRoot.replace(/\/$/, "")}/` : "";
  let srcLine = 0, srcCol = 0, src = 0;
  let best: { line: number; column: number; src: number } | null = null;
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
      src += f[1]!;
      srcLine += f[2]!;
      srcCol += f[3]!;
      if (gl === line - 1 && genCol <= column - 1) best = { line: srcLine + 1, column: srcCol + 1, src };
      else if (gl === line - 1 && !best) best = { line: srcLine + 1, column: srcCol + 1, src };
    }
  }
  if (!best) return null;
  const name = sources[best.src];
  return { source: typeof name === "string" ? root + name : undefined, line: best.line, column: best.column };
}
