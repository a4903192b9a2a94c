#!/usr/bin/env node
/**
 * Builds the installable `siglab` command: apps/cli/src/main.ts and everything it imports from the
 * workspace, bundled by esbuild into apps/cli/dist/siglab.mjs (a `#!/usr/bin/env node` ES module,
 * the package's `bin`). `pnpm link --global` in apps/cli, or `npx siglab` inside the workspace,
 * then run it with plain Node, from any folder.
 *
 * What stays outside the bundle: typescript (the workload type checker, a dependency of the CLI)
 * and esbuild (the execution host builds its own sandbox bundle from the workspace's sources at
 * run time). Source files find their neighbours through `import.meta.url` (the host's child and
 * worker, the built-in plugins folder, the plugin template, siglab.d.ts), so each module's
 * `import.meta.url`/`import.meta.dirname` is fixed to its own file in this checkout: the bundle
 * belongs to the checkout it was built in.
 */
import { build } from "esbuild";
import { chmodSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const CLI = fileURLToPath(new URL("..", import.meta.url));
const WORKSPACE = join(CLI, "..", "..");
// --outfile FILE: elsewhere (the test builds into a temp folder)
const at = process.argv.indexOf("--outfile");
const OUT = at > 0 && process.argv[at + 1] ? process.argv[at + 1] : join(CLI, "dist", "siglab.mjs");

/** import.meta.url / dirname / filename of each workspace source: its own file, as under tsx. */
const ownImportMeta = {
  name: "own-import-meta",
  setup(b) {
    b.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      if (args.path.includes("node_modules")) return undefined;
      const src = readFileSync(args.path, "utf8");
      if (!src.includes("import.meta.")) return { contents: src, loader: "ts" };
      const contents = src
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll("import.meta.dirname", JSON.stringify(dirname(args.path)))
        .replaceAll("import.meta.filename", JSON.stringify(args.path));
      return { contents, loader: "ts" };
    });
  },
};

const started = Date.now();
await build({
  entryPoints: [join(CLI, "src", "main.ts")],
  outfile: OUT,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  absWorkingDir: WORKSPACE,
  tsconfig: join(WORKSPACE, "tsconfig.base.json"),
  external: ["typescript", "esbuild"],
  plugins: [ownImportMeta],
  logLevel: "error",
  // main.ts starts with its own #!/usr/bin/env node line, which esbuild keeps; CommonJS
  // dependencies inside an ES module bundle still call require() for Node built-ins
  banner: { js: 'import { createRequire as __siglabCreateRequire } from "node:module"; const require = __siglabCreateRequire(import.meta.url);' },
});
chmodSync(OUT, 0o755);
console.log(`built ${OUT} in ${Date.now() - started} ms`);
