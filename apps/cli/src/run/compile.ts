/**
 * Workload compilation for the Node host: TypeScript -> CommonJS with syntax errors reported as
 * file:line:column, and an optional full type check against the workload API (siglab.d.ts). Both
 * are kept by content hash, in memory and on disk (cache/compile-cache.ts).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type ts from "typescript";
import { sha256Hex } from "@siglab/core/cache";
import { cachedCompile, compileKey } from "../cache/compile-cache.js";

/**
 * The TypeScript compiler, loaded on first use with require(): most commands never compile (a
 * workload's transpile and type check come from the compile cache), and importing the 9 MB
 * CommonJS module from an ES module costs ~0.6 s of CPU in Node's CommonJS export lexer alone.
 */
let tsModule: typeof ts | undefined;
function typescript(): typeof ts {
  return (tsModule ??= createRequire(import.meta.url)("typescript") as typeof ts);
}

/** siglab.d.ts, resolved lazily (the sandbox bundle never type-checks) */
function apiDtsPath(): string {
  return createRequire(import.meta.url).resolve("@siglab/core/api/siglab.d.ts");
}

export class CompileError extends Error {
  constructor(readonly file: string, readonly line: number, readonly column: number, readonly detail: string) {
    super(`${file}:${line}:${column}: ${detail}`);
  }
}

function toError(file: string, d: ts.Diagnostic): CompileError {
  const msg = typescript().flattenDiagnosticMessageText(d.messageText, "\n");
  if (d.file && d.start !== undefined) {
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return new CompileError(file, line + 1, character + 1, msg);
  }
  return new CompileError(file, 1, 1, msg);
}

/**
 * TypeScript -> CommonJS JavaScript and its source map (to name workload lines in errors); throws
 * CompileError on a syntax error. Comments are dropped: the sandbox refuses source text that merely
 * looks like `import(` or an HTML comment, even inside a comment.
 */
export function transpileWorkloadWithMap(source: string, file: string): { js: string; map: string } {
  // a sweep runs one workload many times: each transpile costs ~10-30 ms of this process's CPU,
  // which the execution hosts' workers would otherwise wait for (--jobs)
  const key = `${file}\0${source}`;
  const hit = transpiled.get(key);
  if (hit) {
    transpiled.delete(key); // most recently used last
    transpiled.set(key, hit);
    return { ...hit };
  }
  const out = cachedCompile(compileKey("transpile", { options: TRANSPILE_OPTIONS, file, source }), () => transpileUncached(source, file));
  transpiled.set(key, out);
  if (transpiled.size > TRANSPILED_MAX) transpiled.delete(transpiled.keys().next().value!);
  return { ...out };
}

/** Transpiled workloads by file and source (least recently used first); errors are not kept. */
const transpiled = new Map<string, { js: string; map: string }>();
const TRANSPILED_MAX = 64;

/** How many transpiled workloads are kept, and whether `file`'s `source` is one of them (tests). */
export function transpileCacheHas(source: string, file: string): { size: number; has: boolean } {
  return { size: transpiled.size, has: transpiled.has(`${file}\0${source}`) };
}

/** The transpile's options (by name: they key the compile cache without loading the compiler). */
const TRANSPILE_OPTIONS = { module: "CommonJS", target: "ES2022", strict: false, sourceMap: true, inlineSourceMap: false, removeComments: true } as const;

function transpileUncached(source: string, file: string): { js: string; map: string } {
  const ts = typescript();
  const out = ts.transpileModule(source, {
    fileName: file.endsWith(".ts") ? file : `${file}.ts`,
    reportDiagnostics: true,
    compilerOptions: { ...TRANSPILE_OPTIONS, module: ts.ModuleKind[TRANSPILE_OPTIONS.module], target: ts.ScriptTarget[TRANSPILE_OPTIONS.target] },
  });
  const err = out.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (err) throw toError(file, err);
  return { js: out.outputText.replace(/\n\/\/# sourceMappingURL=.*\s*$/, "\n"), map: out.sourceMapText ?? "" };
}

/** TypeScript -> CommonJS JavaScript; throws CompileError on a syntax error. */
export function transpileWorkload(source: string, file: string): string {
  return transpileWorkloadWithMap(source, file).js;
}

let apiDts: string | undefined;

/** The type check's options (by name: they key the compile cache without loading the compiler). */
const TYPECHECK_OPTIONS = { strict: false, noImplicitAny: false, target: "ES2022", module: "ESNext", moduleResolution: "Bundler", noEmit: true, lib: ["lib.es2022.d.ts"], types: [] as string[] } as const;

/** Full type check of one workload against siglab.d.ts; throws the first error as CompileError. */
export function typecheckWorkload(source: string, file: string): void {
  apiDts ??= readFileSync(apiDtsPath(), "utf8");
  const fileName = "/workload/" + (file.split("/").pop() ?? "workload.ts").replace(/\.ts$|$/, ".ts");
  // only a pass is stored: an error always comes from the compiler, naming this file
  cachedCompile(compileKey("typecheck", { options: TYPECHECK_OPTIONS, api: sha256Hex(apiDts), fileName, source }), () => {
    typecheckUncached(source, file, fileName, apiDts!);
    return true;
  });
}

function typecheckUncached(source: string, file: string, fileName: string, api: string): void {
  const ts = typescript();
  const o = TYPECHECK_OPTIONS;
  const options: ts.CompilerOptions = { ...o, lib: [...o.lib], types: [...o.types], target: ts.ScriptTarget[o.target], module: ts.ModuleKind[o.module], moduleResolution: ts.ModuleResolutionKind[o.moduleResolution] };
  const host = ts.createCompilerHost(options, true);
  const files: Record<string, string> = { [fileName]: source, "/workload/siglab.d.ts": api };
  const orig = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onErr, create) => (name in files ? ts.createSourceFile(name, files[name]!, lang, true) : orig(name, lang, onErr, create));
  host.fileExists = ((orig2) => (name: string) => name in files || orig2(name))(host.fileExists.bind(host));
  host.readFile = ((orig3) => (name: string) => files[name] ?? orig3(name))(host.readFile.bind(host));
  const program = ts.createProgram([fileName, "/workload/siglab.d.ts"], options, host);
  const diags = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()].filter((d) => d.file?.fileName === fileName && d.category === ts.DiagnosticCategory.Error);
  if (diags.length) throw toError(file, diags[0]!);
}
