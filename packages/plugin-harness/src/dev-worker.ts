/**
 * The worker thread's code when the harness runs from its TypeScript source (in this repository):
 * a worker does not inherit its parent's TypeScript loader, and loading the simulator's sources
 * through one takes seconds per worker, so worker.ts is bundled once per process with esbuild
 * (as the package's build does) into node_modules/.cache, where its externals resolve.
 */
import { mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

let built: Promise<URL> | undefined;

/** The bundled worker (built on first use in this process). */
export function devWorker(): Promise<URL> {
  built ??= (async () => {
    const { build } = await import("esbuild");
    const pkg = fileURLToPath(new URL("..", import.meta.url));
    const dir = join(pkg, "node_modules/.cache/siglab-plugin-harness");
    mkdirSync(dir, { recursive: true });
    const out = join(dir, "worker.mjs");
    // written aside and renamed: another process may be starting a worker from the same file
    const tmp = join(dir, `worker.${process.pid}.${Date.now()}.mjs`);
    await build({
      entryPoints: [fileURLToPath(new URL("./worker.ts", import.meta.url))],
      outfile: tmp,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "es2022",
      logLevel: "error",
      tsconfig: join(pkg, "../../tsconfig.base.json"),
      external: ["typescript"],
      banner: { js: 'import { createRequire as __siglabRequire } from "node:module"; const require = __siglabRequire(import.meta.url);' },
    });
    renameSync(tmp, out);
    return pathToFileURL(out);
  })();
  return built;
}
