/**
 * A plugin error's position in the plugin's own source: a plugin folder that ships a source map of
 * its built code (esbuild --sourcemap: dist/index.cjs.map beside dist/index.cjs, named by its
 * sourceMappingURL comment) gets `src/….ts:line:col` in the error in place of the built file's
 * position. Without a map (or a position the map does not cover) the error stays as it was.
 */
import type { RunError, RunResult } from "../common/results.js";
import type { PluginSource } from "./protocol.js";
import { originalSource } from "./source-map.js";

/** What the sandbox puts before a module's first line (compartment.ts): line 1's columns are shifted by it. */
export const MODULE_WRAPPER_PREFIX = "(function (require, module, exports) {";

const MAPPING_URL = /\/\/[#@] sourceMappingURL=(\S+)\s*$/;

/** `rel` resolved against the folder of `from` (both relative to the plugin folder); null when it leaves it. */
function resolveIn(from: string, rel: string): string | null {
  const parts = from.split("/").slice(0, -1);
  for (const seg of rel.split("/")) {
    if (seg === "..") {
      if (!parts.length) return null;
      parts.pop();
    } else if (seg !== "." && seg !== "") parts.push(seg);
  }
  return parts.join("/");
}

function base64Text(b64: string): string | null {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** The source map of the plugin file `rel` (its sourceMappingURL: a file of the plugin, or inline), with the map's own path. */
function mapOf(files: Readonly<Record<string, string>>, rel: string): { text: string; at: string } | null {
  const code = files[rel];
  if (typeof code !== "string") return null;
  const url = MAPPING_URL.exec(code.slice(-4096))?.[1];
  if (!url) return null;
  const inline = /^data:application\/json[^,]*;base64,(.*)$/.exec(url);
  if (inline) {
    const text = base64Text(inline[1]!);
    return text === null ? null : { text, at: rel };
  }
  if (/^[a-z]+:/i.test(url)) return null;
  const at = resolveIn(rel, decodeURI(url));
  const text = at === null ? undefined : files[at];
  return typeof text === "string" && at !== null ? { text, at } : null;
}

/** `e` (a plugin's error at a position of its built code) at the position in its source, or null. */
export function pluginSourcePosition(e: RunError, plugins: readonly PluginSource[]): RunError | null {
  if (e.kind !== "plugin" || !e.file || !e.line) return null;
  const p = plugins.find((x) => x.refused === undefined && e.file!.startsWith(`${x.origin}/`));
  if (!p) return null;
  const rel = e.file.slice(p.origin.length + 1);
  const map = mapOf(p.files, rel);
  if (!map) return null;
  const column = e.line === 1 ? Math.max(1, (e.column ?? 1) - MODULE_WRAPPER_PREFIX.length) : e.column ?? 1;
  const pos = originalSource(map.text, e.line, column);
  if (!pos?.source) return null;
  const source = resolveIn(map.at, pos.source.replace(/^webpack:\/\/[^/]*\//, ""));
  if (source === null) return null;
  const file = `${p.origin}/${source}`;
  const built = `${e.file}:${e.line}:${e.column ?? 1}`;
  const at = `${file}:${pos.line}:${pos.column}`;
  return { ...e, message: e.message.includes(built) ? e.message.replace(built, at) : `${e.message} (at ${at})`, file, line: pos.line, column: pos.column };
}

/** `r` with its plugin error (if any) at the plugin's source position. */
export function withPluginSourceLine(r: RunResult, plugins: readonly PluginSource[]): RunResult {
  const e = r.error && pluginSourcePosition(r.error, plugins);
  return e ? { ...r, error: e } : r;
}
