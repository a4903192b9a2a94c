#!/usr/bin/env node
/**
 * Builds the installable `siglab` command: apps/cli/src/main.ts and everything it imports from the
 * workspace, bundled by esbuild into apps/cli/dist/siglab.mjs (a `#!/usr/bin/env node` ES module;
 * with prestart.mjs and their shared chunks/), with a manifest of every file it was built from beside it (siglab.mjs.inputs.json: path, size,
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
 * Every file is written to a temp file and renamed into place (the manifest last): a command
 * starting meanwhile runs the old bundle or the new one, never part of one.
 */
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
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

/** The small entry bin/siglab.mjs imports first: it starts the host of a command that will simulate (src/run/prestart.ts). */
export const prestartOf = (out) => join(dirname(out), "prestart.mjs");
/** a chunk no entry uses any more is removed once it is this old (a command that started from it has loaded it) */
const OLD_CHUNK_MS = 10 * 60_000;

/**
 * Builds the bundle into `out` (and prestart.mjs, the chunks they share under chunks/) and its
 * manifest beside it; returns the build's wall time in ms. Two entries with shared chunks: the
 * launcher loads prestart.mjs (~5 % of the code) first, so the host of a command that will
 * simulate starts before the rest of the CLI is even compiled.
 */
export async function buildCli(out = DEFAULT_OUT) {
  const started = Date.now();
  const { build } = await import("esbuild");
  const dir = dirname(out);
  const result = await build({
    entryPoints: { [basename(out, ".mjs")]: join(CLI, "src", "main.ts"), prestart: join(CLI, "src", "run", "prestart.ts") },
    outdir: dir,
    entryNames: "[name]",
    chunkNames: "chunks/[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    splitting: true,
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
  // chunks first (named by content: an existing one is the same file), then the entries, the
  // manifest last: a command starting meanwhile loads the old entries or the new ones, whole
  const tag = `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const chunks = result.outputFiles.filter((f) => f.path.includes(`${sep}chunks${sep}`));
  const entries = result.outputFiles.filter((f) => !chunks.includes(f));
  const written = [];
  try {
    for (const f of [...chunks, ...entries]) {
      mkdirSync(dirname(f.path), { recursive: true });
      writeFileSync(f.path + tag, f.contents, { mode: 0o755 });
      chmodSync(f.path + tag, 0o755);
      written.push(f.path + tag);
      renameSync(f.path + tag, f.path);
    }
    writeFileSync(manifestOf(out) + tag, JSON.stringify(manifest));
    written.push(manifestOf(out) + tag);
    renameSync(manifestOf(out) + tag, manifestOf(out));
  } finally {
    for (const t of written) rmSync(t, { force: true });
  }
  pruneChunks(join(dir, "chunks"), new Set(chunks.map((f) => basename(f.path))));
  return Date.now() - started;
}

function pruneChunks(dir, keep) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    try {
      if (!keep.has(name) && Date.now() - statSync(p).mtimeMs > OLD_CHUNK_MS) rmSync(p, { force: true });
    } catch {
      /* another build pruned it */
    }
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // --outfile FILE: elsewhere
  const at = process.argv.indexOf("--outfile");
  const out = at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]) : DEFAULT_OUT;
  const ms = await buildCli(out);
  console.log(`built ${out} in ${ms} ms`);
}
