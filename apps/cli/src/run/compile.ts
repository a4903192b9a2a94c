/**
 * Workload compilation for the Node host: TypeScript -> CommonJS with syntax errors reported as
 * file:line:column, and an optional full type check against the workload API (siglab.d.ts).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import ts from "typescript";

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
  const msg = ts.flattenDiagnosticMessageText(d.messageText, "\n");
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
  const out = transpileUncached(source, file);
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

function transpileUncached(source: string, file: string): { js: string; map: string } {
  const out = ts.transpileModule(source, {
    fileName: file.endsWith(".ts") ? file : `${file}.ts`,
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, strict: false, sourceMap: true, inlineSourceMap: false, removeComments: true },
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

/** Full type check of one workload against siglab.d.ts; throws the first error as CompileError. */
export function typecheckWorkload(source: string, file: string): void {
  apiDts ??= readFileSync(apiDtsPath(), "utf8");
  const fileName = "/workload/" + (file.split("/").pop() ?? "workload.ts").replace(/\.ts$|$/, ".ts");
  const options: ts.CompilerOptions = { strict: false, noImplicitAny: false, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noEmit: true, lib: ["lib.es2022.d.ts"], types: [] };
  const host = ts.createCompilerHost(options, true);
  const files: Record<string, string> = { [fileName]: source, "/workload/siglab.d.ts": apiDts };
  const orig = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onErr, create) => (name in files ? ts.createSourceFile(name, files[name]!, lang, true) : orig(name, lang, onErr, create));
  host.fileExists = ((orig2) => (name: string) => name in files || orig2(name))(host.fileExists.bind(host));
  host.readFile = ((orig3) => (name: string) => files[name] ?? orig3(name))(host.readFile.bind(host));
  const program = ts.createProgram([fileName, "/workload/siglab.d.ts"], options, host);
  const diags = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()].filter((d) => d.file?.fileName === fileName && d.category === ts.DiagnosticCategory.Error);
  if (diags.length) throw toError(file, diags[0]!);
}
