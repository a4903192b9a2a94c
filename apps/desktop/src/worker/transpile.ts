/**
 * TypeScript -> CommonJS for the execution host, with the options the CLI uses (so a workload
 * compiles to the same code in both), and syntax errors reported as file:line:column.
 * Runs in the compile worker only: the sandbox worker never loads the TypeScript compiler.
 */
import ts from "typescript";
import { meterTransformer, ReservedNameError } from "./meter-transform.js";

export class CompileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`${file}:${line}:${column}: ${detail}`);
  }
}

/**
 * With `meter`, every allocation of the workload calls the sandbox's allocation meter
 * (meter-transform.ts): what the app's sandbox worker runs. Without, the CLI's code exactly.
 */
export function transpileToCommonJs(source: string, file: string, opts: { meter?: boolean } = {}): string {
  let out: ts.TranspileOutput;
  try {
    out = ts.transpileModule(source, {
      fileName: file.endsWith(".ts") ? file : `${file}.ts`,
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, strict: false, sourceMap: false, inlineSourceMap: false },
      ...(opts.meter ? { transformers: { before: [meterTransformer(file)] } } : {}),
    });
  } catch (e) {
    if (e instanceof ReservedNameError) throw new CompileError(file, e.line, e.column, e.message.replace(/^.*?: /, ""));
    throw e;
  }
  const d = out.diagnostics?.find((x) => x.category === ts.DiagnosticCategory.Error);
  if (!d) return out.outputText;
  const msg = ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]!;
  if (d.file && d.start !== undefined) {
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    throw new CompileError(file, line + 1, character + 1, msg);
  }
  throw new CompileError(file, 1, 1, msg);
}
