#!/usr/bin/env node
/**
 * Builds the installable `siglab` command: apps/cli/src/main.ts and everything it imports from the
 * workspace, bundled by esbuild into apps/cli/dist/siglab.mjs (a `#!/usr/bin/env node` ES module),
 * with a manifest of every file it was built from beside it (siglab.mjs.inputs.json: path, size,
 * mtime, SHA-256), so that bin/siglab.mjs can tell a stale bundle from a fresh one (fresh.mjs).
 * `pnpm link --global` in apps/cli, or `npx siglab` inside the workspace, then run it with plain
 * Node, from any folder.
 *
 * What stays outside the bundle: typescript (the workload type checker, a dependency of the CLI)
 * and esbuild (the execution host builds its own sandbox bundle from the workspace's sources at
 * run time). Source files find their neighbours through `import.meta.url` (the host's child and
 * worker, the built-in plugins folder, the plugin template, siglab.d.ts), so each module's
 * `import.meta.url`/`import.meta.dirname` is fixed to its own file in this checkout: the bundle
 * belongs to the checkout it was built in.
 *
 * The bundle and its manifest are written to temp files and renamed into place (bundle first): a
 * command starting meanwhile runs the old bundle or the new one, never part of one.
 */
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const CLI = fileURLToPath(new URL("..", import.meta.url));
export const WORKSPACE = join(CLI, "..", "..");
export const DEFAULT_OUT = join(CLI, "dist", "siglab.mjs");
/** bumped when the manifest's shape changes (an old one then counts as stale) */
export const MANIFEST_FORMAT = 1;

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

export const manifestOf = (out) => `${out}.inputs.json`;

/** One input of the manifest: workspace-relative path, size, mtime, SHA-256 of the content. */
export function describeInput(path) {
  const st = statSync(join(WORKSPACE, path));
  return [path, st.size, st.mtimeMs, createHash("sha256").update(readFileSync(join(WORKSPACE, path))).digest("hex")];
}

/** Builds the bundle into `out` and its manifest beside it; returns the build's wall time in ms. */
export async function buildCli(out = DEFAULT_OUT) {
  const started = Date.now();
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [join(CLI, "src", "main.ts")],
    outfile: out,
    write: false,
    metafile: true,
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
  // what the bundle was made of, and what made it (this script, the compiler options); the
  // dependencies (~500 files under node_modules, esbuild among them) stand for themselves through
  // the lockfile pnpm installed from, which every install or update rewrites
  const inputs = [...Object.keys(result.metafile.inputs), fileURLToPath(import.meta.url), join(WORKSPACE, "tsconfig.base.json"), join(WORKSPACE, "node_modules", ".pnpm", "lock.yaml")]
    .map((p) => relative(WORKSPACE, resolve(WORKSPACE, p)))
    .filter((p) => !p.startsWith("node_modules/.pnpm/") || p === "node_modules/.pnpm/lock.yaml");
  const manifest = { format: MANIFEST_FORMAT, workspace: WORKSPACE, inputs: [...new Set(inputs)].sort().map(describeInput) };
  const tag = `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  mkdirSync(dirname(out), { recursive: true });
  try {
    writeFileSync(out + tag, result.outputFiles[0].contents, { mode: 0o755 });
    chmodSync(out + tag, 0o755);
    writeFileSync(manifestOf(out) + tag, JSON.stringify(manifest));
    renameSync(out + tag, out);
    renameSync(manifestOf(out) + tag, manifestOf(out));
  } finally {
    rmSync(out + tag, { force: true });
    rmSync(manifestOf(out) + tag, { force: true });
  }
  return Date.now() - started;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // --outfile FILE: elsewhere
  const at = process.argv.indexOf("--outfile");
  const out = at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : DEFAULT_OUT;
  const ms = await buildCli(out);
  console.log(`built ${out} in ${ms} ms`);
}
