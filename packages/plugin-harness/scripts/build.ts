/**
 * Builds what the package publishes: dist/index.js and dist/worker.js (the harness and the worker
 * thread of runInWorker, one ESM bundle each with the simulator in a shared chunk: SigLab's core,
 * built-in plugins and CPU profiles are not published on their own) and the declarations of the
 * public files (each file's own, by TypeScript's transpileDeclaration: they refer to
 * @siglab/plugin-api's types and never to the simulator's). The plugin API itself, typescript and
 * inversify stay external: the plugin under test and the harness share the @siglab/plugin-api the
 * author installed (a peer dependency).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import ts from "typescript";

const PKG = join(import.meta.dirname, "..");
const OUT = join(PKG, "dist");
const TMP = join(PKG, ".dist-tmp");
/** The files whose declarations make up the package's types (index.ts and what its types name). */
const DECLARED = ["index", "in-process", "in-worker", "types", "plugin-refs"];

function declarations(name: string): string {
  const file = join(PKG, "src", `${name}.ts`);
  const out = ts.transpileDeclaration(readFileSync(file, "utf8"), { fileName: file, reportDiagnostics: true, compilerOptions: { strict: true } });
  if (out.diagnostics?.length) throw new Error(`src/${name}.ts: ${out.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("; ")}`);
  const imports = [...out.outputText.matchAll(/from "([^"]+)"/g)].map((m) => m[1]!).filter((s) => !s.startsWith("./") && s !== "@siglab/plugin-api" && !s.startsWith("node:"));
  if (imports.length) throw new Error(`src/${name}.ts: its declarations import ${imports.join(", ")} (only @siglab/plugin-api and its own files may be named in the published types)`);
  return out.outputText;
}

rmSync(TMP, { recursive: true, force: true });
mkdirSync(TMP, { recursive: true });
try {
  await build({
    entryPoints: { index: join(PKG, "src/index.ts"), worker: join(PKG, "src/worker.ts") },
    outdir: TMP,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "es2022",
    logLevel: "error",
    absWorkingDir: PKG,
    tsconfig: join(PKG, "../../tsconfig.base.json"),
    // esbuild: only dev-worker.ts (never loaded from dist/) imports it
    external: ["@siglab/plugin-api", "typescript", "inversify", "reflect-metadata", "esbuild"],
    banner: { js: 'import { createRequire as __siglabRequire } from "node:module"; const require = __siglabRequire(import.meta.url);' },
  });
  for (const name of DECLARED) writeFileSync(join(TMP, `${name}.d.ts`), declarations(name));
  rmSync(OUT, { recursive: true, force: true });
  renameSync(TMP, OUT);
} finally {
  rmSync(TMP, { recursive: true, force: true });
}
console.log(`@siglab/plugin-harness: built ${OUT}`);
