/**
 * The type gate before a run: the editor's own TypeScript service (Monaco's TS worker, the same
 * diagnostics as the squiggles, with the compiler options of the CLI's `typecheckWorkload`) is
 * asked for the model's syntactic and semantic errors. A workload with an error is not run; the
 * first error is reported with its line:column, as the CLI does.
 */
import { monaco } from "./monaco-setup.js";

export interface TypeProblem {
  line: number;
  column: number;
  message: string;
  /** how many errors in all */
  count: number;
  /** the first error is a syntax error (the parser's), not a type error */
  syntax: boolean;
}

type DiagnosticChain = { messageText: string; next?: DiagnosticChain[] };

function flatten(m: string | DiagnosticChain): string {
  if (typeof m === "string") return m;
  // the first line is the headline; the chain elaborates (as tsc prints it, indented)
  return m.messageText;
}

/** The first type or syntax error of the model, or null; throws if the TS worker is unavailable. */
export async function firstTypeError(model: monaco.editor.ITextModel, timeoutMs = 20_000): Promise<TypeProblem | null> {
  const check = (async (): Promise<TypeProblem | null> => {
    const getWorker = await monaco.typescript.getTypeScriptWorker();
    const worker = await getWorker(model.uri);
    const uri = model.uri.toString();
    const version = model.getVersionId();
    const [syn, sem] = await Promise.all([worker.getSyntacticDiagnostics(uri), worker.getSemanticDiagnostics(uri)]);
    if (model.isDisposed()) return null;
    if (model.getVersionId() !== version) return firstTypeError(model, timeoutMs);
    // this model's errors only: `start` is an offset in `d.file`, placed in this model's text
    const own = (d: (typeof syn)[number]): boolean => d.category === 1 && (!d.file || d.file.fileName === uri);
    const synErrors = syn.filter(own);
    const errors = [...synErrors, ...sem.filter(own)].sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
    const first = errors[0];
    if (!first) return null;
    const pos = model.getPositionAt(first.start ?? 0);
    return { line: pos.lineNumber, column: pos.column, message: flatten(first.messageText as string | DiagnosticChain), count: errors.length, syntax: synErrors.includes(first) };
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the TypeScript checker did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
