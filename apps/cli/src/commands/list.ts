/** `siglab list`: examples, CPU profiles, plugins, presets. */
import type { CAC } from "cac";
import { EXAMPLES } from "@siglab/core";
import { runnableProfiles } from "../catalog.js";
import { allPresets, listPlugins, pluginExamples } from "../plugins/catalog.js";
import { shown } from "../terminal.js";

export function registerListCommand(cli: CAC): void {
  cli
    .command("list", "List examples, CPU profiles, plugins and presets")
    .option("--plugin-dir <dir>", "third-party plugin folder (repeatable)")
    .option("--json", "print JSON")
    .action(async (o: { pluginDir?: string | string[]; json?: boolean }) => {
      const dirs = o.pluginDir === undefined ? [] : ([] as string[]).concat(o.pluginDir);
      const { plugins, refused } = listPlugins(dirs);
      const extra = await pluginExamples(dirs);
      const presets = allPresets(dirs);
      let data = {
        examples: [...EXAMPLES, ...extra].map((e) => ({ id: e.id, title: e.title, file: e.file })),
        profiles: runnableProfiles().map((p) => ({ id: p.id, name: p.name, mhz: `${p.clock.minMhz}-${p.clock.maxMhz}`, default: p.clock.defaultMhz })),
        plugins: plugins.map((p) => ({ id: p.manifest.id, version: p.manifest.version, name: p.manifest.displayName, builtin: p.builtin })),
        presets: presets.presets.map((p) => ({ id: p.id, name: p.name, description: p.description, stack: p.stack })),
        refused: [...refused, ...presets.refused],
      };
      if (o.json) return void process.stdout.write(JSON.stringify(data, null, 2) + "\n");
      // text: names, titles and refusals from plugin folders are one-line fields
      data = shown(data);
      console.log("Examples:");
      for (const e of data.examples) console.log(`  ${e.id.padEnd(18)} ${e.title}`);
      console.log("\nCPU profiles (use --cpu id@MHz):");
      for (const p of data.profiles) console.log(`  ${p.id.padEnd(18)} ${p.name} (${p.mhz} MHz, default ${p.default})`);
      console.log("\nPlugins (use --variant id[:key=value]):");
      for (const p of data.plugins) console.log(`  ${p.id.padEnd(18)} ${p.name} ${p.version}${p.builtin ? "" : " (third-party)"}`);
      if (!data.plugins.length) console.log("  (none)");
      console.log("\nPresets (use --preset name):");
      for (const p of data.presets) console.log(`  ${p.id.padEnd(18)} ${p.name}: ${p.description}`);
      for (const r of data.refused) console.log(`\nrefused: ${r}`);
    });
}
