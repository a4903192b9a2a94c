/**
 * `siglab plugins list [--plugin-dir DIR]... [--json]`, `siglab plugins info <id>`,
 * `siglab plugin new <name> [--dir DIR]`, and (plugin-pack.ts, plugin-install.ts, plugin-remove.ts,
 * plugin-dev.ts) `siglab plugin pack|install|remove|dev`. Listing reads manifests only: no plugin
 * code runs in this process (third-party code is evaluated in the sandbox when a run uses it).
 */
import { dirname, resolve } from "node:path";
import type { CAC } from "cac";
import { PLUGIN_API_VERSION, type PluginOptionSpec } from "@siglab/core";
import { allPresets, listPlugins, type PluginInfo } from "../plugins/catalog.js";
import { PLUGIN_API_SPEC, renderPluginSkeleton } from "../plugins/template/render.js";
import { NewFolderRefusal, writeNewFolder } from "../new-folder.js";
import { installedPluginsDir, originOf } from "../plugins/installed.js";
import { pluginInstall } from "./plugin-install.js";
import { pluginPack } from "./plugin-pack.js";
import { pluginRemove } from "./plugin-remove.js";
import { oneLine, shown } from "../terminal.js";
import { pluginDev } from "./plugin-dev.js";
import { consoleIo, type PluginsIo } from "../plugins/io.js";



function dirsOf(v: unknown): string[] {
  return v === undefined || v === null || v === false ? [] : ([] as unknown[]).concat(v).map(String);
}

function from(p: PluginInfo): string {
  return p.builtin ? "built-in" : p.dir!;
}

/** built-in, installed (`siglab plugin install`) or --plugin-dir */
function origin(p: PluginInfo): string {
  return p.builtin ? "built-in" : originOf(p.dir!);
}

/** the plugin API versions a plugin runs on: its major, from the minor it names */
const apiRange = (apiVersion: string): string => `^${apiVersion}`;

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd());
}

export function pluginsList(dirs: string[], opts: { json?: boolean }, io: PluginsIo = consoleIo): number {
  const listed = listPlugins(dirs);
  // a manifest, a folder's name and a refusal (which names files in it) are foreign text
  const { plugins, refusals } = opts.json ? listed : { plugins: shown(listed.plugins), refusals: shown(listed.refusals) };
  if (opts.json) {
    const data = {
      pluginApiVersion: PLUGIN_API_VERSION,
      plugins: plugins.map((p) => ({ id: p.manifest.id, version: p.manifest.version, apiVersion: p.manifest.apiVersion, apiRange: apiRange(p.manifest.apiVersion), name: p.manifest.displayName, builtin: p.builtin, origin: origin(p), from: from(p) })),
      refused: refusals.map((r) => (r.id ? { id: r.id, dir: r.dir, reason: r.reason } : { dir: r.dir, reason: r.reason })),
    };
    io.log(JSON.stringify(data, null, 2));
    return 0;
  }
  io.log(`Plugins (this SigLab implements plugin API ${PLUGIN_API_VERSION}; installed ones are in ${installedPluginsDir()}; use --variant id[:key=value,...]):`);
  const rows = [["  ID", "VERSION", "API", "ORIGIN", "NAME", "FOLDER"]];
  for (const p of plugins) rows.push([`  ${p.manifest.id}`, p.manifest.version, apiRange(p.manifest.apiVersion), origin(p), p.manifest.displayName, from(p)]);
  for (const line of table(rows)) io.log(line);
  if (refusals.length) {
    io.log(`\nRefused (${refusals.length}):`);
    for (const r of refusals) io.log(`  ${r.id ?? r.dir}: ${r.reason}`);
  }
  return 0;
}

function optionLine(name: string, o: PluginOptionSpec): string[] {
  const range = o.type === "enum" ? `one of ${o.values?.join(" | ")}` : o.type === "number" && (o.min !== undefined || o.max !== undefined) ? `${o.min ?? "-inf"}..${o.max ?? "inf"}` : "";
  const type = `${o.type}${o.unit ? ` (${o.unit})` : ""}${range ? `, ${range}` : ""}`;
  return [`  ${name}`, type, `default ${JSON.stringify(o.default)}`, o.description];
}

export function pluginsInfo(id: string | undefined, dirs: string[], opts: { json?: boolean }, io: PluginsIo = consoleIo): number {
  const listed = listPlugins(dirs);
  const { plugins, refusals } = opts.json ? listed : { plugins: shown(listed.plugins), refusals: shown(listed.refusals) };
  const ids = plugins.map((p) => p.manifest.id).join(", ");
  if (!id) {
    io.error(`siglab plugins info: which plugin? (plugins: ${ids})`);
    return 2;
  }
  const p = plugins.find((x) => x.manifest.id === id);
  if (!p) {
    const refused = refusals.filter((r) => r.id === id);
    if (refused.length) {
      for (const r of refused) io.error(`siglab plugins info: plugin '${id}' was refused: ${r.reason}`);
      return 1;
    }
    io.error(`siglab plugins info: unknown plugin '${oneLine(id)}' (plugins: ${ids}${dirs.length ? "" : "; third-party plugins need --plugin-dir"})`);
    return 2;
  }
  const m = p.manifest;
  // plugins that replace an extension point this one replaces cannot share a stack with it
  const conflicts = plugins.filter((o) => o !== p && (o.manifest.replaces ?? []).some((x) => (m.replaces ?? []).includes(x))).map((o) => o.manifest.id);
  const presets = shown(allPresets(dirs).presets.filter((s) => s.stack.some((v) => v.id === id)).map((s) => ({ id: s.id, name: s.name })));
  if (opts.json) {
    io.log(JSON.stringify({ manifest: m, builtin: p.builtin, from: from(p), examples: p.examples, conflictsWith: conflicts, presets }, null, 2));
    return 0;
  }
  io.log(`${m.id} ${m.version}: ${m.displayName}`);
  io.log(`  plugin API ${m.apiVersion}; ${p.builtin ? "built-in" : `third-party, from ${p.dir}${m.main ? ` (main: ${m.main})` : ""}`}`);
  io.log("");
  io.log(`  ${m.description}`);
  const options = Object.entries(m.options);
  io.log(`\nOptions${options.length ? ` (--variant ${m.id}:key=value,...)` : ""}:`);
  if (options.length) for (const line of table(options.map(([k, o]) => optionLine(k, o)))) io.log(line);
  else io.log("  (none)");
  io.log(`\nContributes to: ${m.contributes.join(", ") || "(nothing)"}`);
  io.log(`Replaces: ${(m.replaces ?? []).join(", ") || "(nothing)"}${conflicts.length ? ` (conflicts with: ${conflicts.join(", ")})` : ""}`);
  io.log(`\nExamples:${p.examples.length ? "" : " (none)"}`);
  for (const e of p.examples) io.log(`  ${e.id.padEnd(20)} ${e.title} (${e.file})`);
  if (presets.length) io.log(`\nIn presets: ${presets.map((s) => `${s.id} (${s.name})`).join(", ")}`);
  const dirArg = p.builtin || origin(p) === "installed" ? "" : ` --plugin-dir ${dirname(p.dir!)}`;
  // the first example's suggested stack (a preset when one matches it) and CPU: a plugin that
  // needs long mode or another plugin under it would fail on the default P4 with --variant alone
  const ex = p.examples[0];
  const want = ex?.suggestedVariants?.length ? ex.suggestedVariants : [{ id: m.id }];
  const same = (a: readonly { id: string }[], b: readonly { id: string }[]) => a.length === b.length && a.every((v, i) => v.id === b[i]!.id);
  const preset = want.length > 1 ? allPresets(dirs).presets.find((s) => same(s.stack, want)) : undefined;
  const stackArg = preset ? `--preset ${preset.id}` : want.map((v) => `--variant ${v.id}`).join(" ");
  const cpuArg = ex?.suggestedCpu ? ` --cpu ${ex.suggestedCpu.id}` : "";
  // against the baseline kernel only when the plugin is a variant of it (a stack of several, such as
  // io-uring on linux6, needs what the baseline lacks)
  io.log(`\nTry: siglab run ${ex?.id ?? "<workload>"}${dirArg}${cpuArg} ${stackArg}${want.length > 1 ? "" : " --baseline"}`);
  return 0;
}

/** Create a plugin skeleton in <dir>/<name>; the folder must be new or empty (never overwrites). */
export function pluginNew(name: string | undefined, opts: { dir?: string }, io: PluginsIo = consoleIo): number {
  if (!name) {
    io.error("siglab plugin new: give the plugin's id, e.g. `siglab plugin new my-variant`");
    return 2;
  }
  let files: Record<string, string>;
  try {
    files = renderPluginSkeleton(name);
  } catch (e) {
    io.error(`siglab plugin new: ${(e as Error).message}`);
    return 2;
  }
  const target = resolve(opts.dir ?? ".", name);
  try {
    writeNewFolder(target, files); // a new or empty real folder only; nothing overwritten
  } catch (e) {
    const c = (e as NodeJS.ErrnoException).code;
    io.error(`siglab plugin new: ${e instanceof NewFolderRefusal ? e.message : `${target}: cannot create the plugin (${c ?? (e as Error).message})`}`);
    return e instanceof NewFolderRefusal ? 2 : 1;
  }
  io.log(`created ${target} (${Object.keys(files).length} files):`);
  for (const rel of Object.keys(files).sort()) io.log(`  ${rel}`);
  io.log(`\nnext:\n  cd ${target}\n  npm install && npm run build\n  npm test\n  siglab plugin dev .          # rebuild and re-run its examples on every change\n  siglab run ${name}-demo --plugin-dir . --variant ${name} --baseline`);
  io.log(`\n@siglab/plugin-api and @siglab/plugin-harness are dev dependencies (${PLUGIN_API_SPEC}); until they are on the npm registry, install the tarballs \`pnpm pack:api\` writes in a SigLab checkout first (README.md, "Install").`);
  return 0;
}

export function registerPluginsCommands(cli: CAC, io: PluginsIo = consoleIo): void {
  cli
    .command("plugins <action> [arg]", "Plugins: list | info <id> | new <name> | dev <dir> | pack <dir> | install <file> | remove <id> (also `siglab plugin ...`)")
    .alias("plugin")
    .option("--plugin-dir <dir>", "third-party plugin folder (repeatable)")
    .option("--dir <dir>", "new: where to create the plugin folder (default: the current folder)")
    .option("--json", "list/info: print JSON")
    .option("--baseline", "dev: also run each example without the plugin")
    .option("-o, --output <file>", "pack: the archive to write (default: <id>-<version>.siglab-plugin here)")
    .option("--force", "pack: replace an existing archive; install: replace the installed version")
    .example("siglab plugins list --plugin-dir examples/third-party-plugins")
    .example("siglab plugins info sa-nofp")
    .example("siglab plugin new my-variant --dir ~/siglab-plugins")
    .example("siglab plugin dev ~/siglab-plugins/my-variant")
    .example("siglab plugin pack ./my-variant -o my-variant-1.0.0.siglab-plugin")
    .example("siglab plugin install my-variant-1.0.0.siglab-plugin")
    .example("siglab plugin install my-variant-1.1.0.siglab-plugin --force")
    .example("siglab plugin list")
    .example("siglab plugin remove my-variant")
    .action(async (action: string, arg: string | undefined, o: Record<string, unknown>) => {
      const dirs = dirsOf(o["pluginDir"]);
      const json = o["json"] === true;
      switch (action) {
        case "list":
          process.exitCode = pluginsList(dirs, { json }, io);
          break;
        case "info":
          process.exitCode = pluginsInfo(arg, dirs, { json }, io);
          break;
        case "new":
          process.exitCode = pluginNew(arg, o["dir"] === undefined ? {} : { dir: String(o["dir"]) }, io);
          break;
        case "dev":
          process.exitCode = await pluginDev(arg, { baseline: o["baseline"] === true }, io);
          break;
        case "pack":
          process.exitCode = pluginPack(arg, { ...(o["output"] === undefined ? {} : { output: String(o["output"]) }), force: o["force"] === true }, io);
          break;
        case "install":
          process.exitCode = await pluginInstall(arg, { force: o["force"] === true }, io);
          break;
        case "remove":
          process.exitCode = pluginRemove(arg, io);
          break;
        default:
          io.error(`siglab plugins: unknown action '${action}' (list, info <id>, new <name>, dev <dir>, pack <dir>, install <file> or remove <id>)`);
          process.exitCode = 2;
      }
    });
}
