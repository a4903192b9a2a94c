/**
 * `pnpm profile-run [node flags] <example> ['<params JSON>'] [variant,...]` — bundles
 * apps/cli/src/profile-run.ts (one example, three repetitions, in a locked-down realm through the
 * sandbox; CPU time per repetition) and runs the bundle with the given node flags, e.g.
 *   pnpm profile-run --cpu-prof --cpu-prof-dir=/tmp/prof ngpt_yield '{"threads":10,"yields":300000}'
 * Bundled like the execution host's worker: lockdown() must run before anything else is loaded.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { build } = createRequire(join(root, "apps/cli/package.json"))("esbuild");
const outDir = join(root, "node_modules/.cache/siglab");
mkdirSync(outDir, { recursive: true });
const outfile = join(outDir, "profile-run.mjs");
await build({
  entryPoints: [join(root, "apps/cli/src/profile-run.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile,
  external: ["typescript", "esbuild"],
  logLevel: "error",
  banner: { js: 'import { createRequire as __siglabCreateRequire } from "node:module"; const require = __siglabCreateRequire(import.meta.url);' },
});
const args = process.argv.slice(2);
const flags = [];
while (args[0]?.startsWith("--")) flags.push(args.shift());
const r = spawnSync(process.execPath, [...flags, outfile, ...args], { stdio: "inherit" });
process.exit(r.status ?? 1);
