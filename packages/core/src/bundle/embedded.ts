/**
 * A bundle's embedded third-party plugins as code for the execution host (PluginSource): read
 * from the bundle in memory, never written to disk. The sandbox validates the manifest again and
 * evaluates the code in a compartment; a plugin that cannot be turned into code travels as a
 * refused stand-in, so a run naming it fails with the reason.
 */
import type { PluginSource } from "../host/protocol.js";
import type { Bundle } from "./format.js";
import { decodeText } from "./validate.js";

const CODE = /\.(js|cjs|json)$/;

export function embeddedPluginSources(bundle: Pick<Bundle, "embeddedPlugins" | "fileName">): PluginSource[] {
  const out: PluginSource[] = [];
  for (const [id, files] of Object.entries(bundle.embeddedPlugins)) {
    const origin = `${bundle.fileName}:plugins/${id}`;
    const text: Record<string, string> = Object.create(null) as Record<string, string>;
    let manifest: unknown = null;
    let refused: string | undefined;
    try {
      for (const [rel, bytes] of Object.entries(files)) {
        if (rel === "plugin.json") manifest = JSON.parse(decodeText(bytes, bundle.fileName, `plugins/${id}/${rel}`)) as unknown;
        else if (CODE.test(rel)) text[rel] = decodeText(bytes, bundle.fileName, `plugins/${id}/${rel}`);
      }
    } catch (e) {
      refused = `${origin}: ${(e as Error).message}`;
    }
    const main = typeof (manifest as { main?: unknown } | null)?.main === "string" ? ((manifest as { main: string }).main).replace(/^(\.\/)+/, "") : "";
    if (!refused && !manifest) refused = `${origin}/plugin.json: missing`;
    out.push({ id, manifest, origin, main, files: text, ...(refused ? { refused } : {}) });
  }
  return out;
}
