/**
 * Plugins named by where they are, for a run in a worker thread (objects with functions cannot be
 * handed to another thread): a plugin folder as SigLab loads it (plugin.json, its built `main`
 * evaluated as CommonJS with only `@siglab/plugin-api` to require, and its examples/), or a module
 * whose exports are a plugin's entry (createModule, examples) with its manifest.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ExampleWorkload, PluginApi, PluginManifest, PluginModule } from "@siglab/plugin-api";
import { MODULE_WRAPPER_PREFIX } from "@siglab/core/host";

/**
 * A plugin for a run in a worker thread (runInWorker): a plugin folder (its plugin.json and built
 * `main`, as `siglab run --plugin-dir` loads it), or an ES module exporting createModule (and
 * examples), with its manifest (an object, or the path of a plugin.json; absent: the module's
 * `manifest` export, else plugin.json in the module's folder or the one above it).
 */
export type PluginRef = { dir: string | URL } | { module: string | URL; manifest?: PluginManifest | string | URL };

/** A plugin that could not be loaded: why (the run reports it as a plugin error). */
export class PluginLoadError extends Error {}

export const pathOf = (p: string | URL): string => (p instanceof URL || p.startsWith("file:") ? fileURLToPath(p) : p);

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new PluginLoadError(`${file}: cannot read the plugin's manifest (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new PluginLoadError(`${file}: not JSON (${(e as Error).message})`);
  }
}

/** The folder's examples/*.ts, as the CLI lists them. */
function examplesIn(dir: string): ExampleWorkload[] {
  const ex = join(dir, "examples");
  if (!existsSync(ex)) return [];
  return readdirSync(ex)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .sort()
    .map((f) => {
      const source = readFileSync(join(ex, f), "utf8");
      return { id: f.replace(/\.ts$/, ""), title: /name:\s*"([^"]+)"/.exec(source)?.[1] ?? f, file: `examples/${f}`, source };
    });
}

/** The plugin in folder `dir`: its `main` evaluated as the host does (it may require only the API). */
function fromFolder(dir: string, api: PluginApi): PluginModule {
  const manifestFile = join(dir, "plugin.json");
  const manifest = readJson(manifestFile) as PluginManifest;
  const main = typeof manifest?.main === "string" ? manifest.main.replace(/^(\.\/)+/, "") : undefined;
  if (!main) throw new PluginLoadError(`${manifestFile}: a third-party plugin needs "main" (its JavaScript entry)`);
  const entry = join(dir, main);
  if (!existsSync(entry)) throw new PluginLoadError(`${entry}: the plugin's main file is missing (build the plugin first)`);
  const module = { exports: {} as { createModule?: unknown; examples?: unknown } };
  const require = (id: string) => {
    if (id === "@siglab/plugin-api") return api;
    throw new Error(`require('${id}') is not available to a plugin (bundle it into ${main})`);
  };
  // wrapped and named as the host's sandbox does it: its frames carry its path (naming the plugin by
  // its folder) and the positions the host's would, which its source map translates
  const factory = (0, eval)(`${MODULE_WRAPPER_PREFIX}${readFileSync(entry, "utf8")}\n})\n//# sourceURL=${encodeURI(entry)}`) as (r: unknown, m: unknown, e: unknown) => void;
  factory(require, module, module.exports);
  const exported = Array.isArray(module.exports.examples) ? (module.exports.examples as ExampleWorkload[]) : [];
  return { manifest, createModule: module.exports.createModule as PluginModule["createModule"], examples: [...exported, ...examplesIn(dir)] };
}

/** The plugin whose entry is the module `ref.module`. */
async function fromModule(ref: { module: string | URL; manifest?: PluginManifest | string | URL }): Promise<PluginModule> {
  const file = pathOf(ref.module);
  const exports = (await import(pathToFileURL(file).href)) as Partial<PluginModule> & { default?: Partial<PluginModule> };
  const entry = typeof exports.createModule === "function" ? exports : exports.default ?? exports;
  let manifest: unknown = ref.manifest ?? entry.manifest;
  if (typeof manifest === "string" || manifest instanceof URL) manifest = readJson(pathOf(manifest));
  if (manifest === undefined) {
    const near = [join(dirname(file), "plugin.json"), join(dirname(file), "..", "plugin.json")].find((f) => existsSync(f));
    if (!near) throw new PluginLoadError(`${file}: no manifest (give one, export it as \`manifest\`, or put plugin.json beside the module or in the folder above)`);
    manifest = readJson(near);
  }
  return { ...entry, manifest, createModule: entry.createModule as PluginModule["createModule"] };
}

/**
 * The plugin folder's built entry and the source map its sourceMappingURL names (read when
 * present), as the host's plugin sources give them: for pointing an error at the plugin's source line.
 */
export function folderSource(dir: string): { id: string; manifest: unknown; origin: string; main: string; files: Record<string, string> } {
  const manifest = readJson(join(dir, "plugin.json")) as PluginManifest;
  const main = String(manifest.main ?? "").replace(/^(\.\/)+/, "");
  const files: Record<string, string> = {};
  try {
    const code = (files[main] = readFileSync(join(dir, main), "utf8"));
    const url = /\/\/[#@] sourceMappingURL=(\S+)\s*$/.exec(code.slice(-4096))?.[1];
    if (url && !/^[a-z]+:/i.test(url)) {
      const mapRel = join(dirname(main), decodeURI(url)).split(sep).join("/");
      files[mapRel] = readFileSync(join(dir, mapRel), "utf8");
    }
  } catch {
    // no map (or no code): errors keep the built file's position
  }
  return { id: manifest.id, manifest, origin: dir, main, files };
}

/** Loads the plugin `ref` names. */
export async function loadPluginRef(ref: PluginRef, api: PluginApi): Promise<PluginModule> {
  if ("dir" in ref) return fromFolder(pathOf(ref.dir), api);
  return fromModule(ref);
}
