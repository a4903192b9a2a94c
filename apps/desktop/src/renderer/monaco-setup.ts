/**
 * Monaco with IntelliSense for the workload API: the one siglab.d.ts the runtime implements is a
 * model of its own, so `import { workload } from "siglab"` completes, hovers and type-checks.
 *
 * One file, under one name, per TypeScript worker. It was an extra lib at
 * file:///node_modules/@types/siglab/index.d.ts: when a diagnostic's related information pointed
 * into it, Monaco made a model of it, which the worker names `uri.toString()` (`%40types`), beside
 * the extra lib it resolved as `@types`. The declarations were then compiled twice, `workload()`
 * had two identical overloads, and every error in `main` became "No overload matches this call"
 * at `*main` (issue 32). A model is found again by `editor.getModel` instead of being made anew.
 */
import siglabDts from "@siglab/core/api/siglab.d.ts?raw";
import EditorWorker from "monaco-esm/editor/editor.worker.js?worker";
import TsWorker from "monaco-esm/languages/features/typescript/ts.worker.js?worker";
import * as monaco from "./monaco-slim.js";

export { monaco };

/**
 * One spelling whatever reads it: no character `Uri.toString()` would escape (an `@` in
 * `node_modules/@types` became `%40`), and outside node_modules, so `import … from "siglab"` finds
 * the ambient `declare module "siglab"` of this one file, as the CLI's check does.
 */
export const SIGLAB_DTS_URI = "file:///siglab/siglab.d.ts";

let configured = false;

export function setupMonaco(): typeof monaco {
  if (configured) return monaco;
  configured = true;
  (self as unknown as { MonacoEnvironment: unknown }).MonacoEnvironment = {
    getWorker(_id: string, label: string): Worker {
      return label === "typescript" || label === "javascript" ? new TsWorker() : new EditorWorker();
    },
  };
  const ts = monaco.typescript;
  // The CLI's type check (apps/cli/src/run/compile.ts typecheckWorkload): not strict, ES2022 lib,
  // so a workload the editor accepts is one `siglab run` accepts, and the other way round. The app
  // refuses to run a workload with an error here (src/renderer/typecheck.ts).
  ts.typescriptDefaults.setCompilerOptions({
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.NodeJs,
    lib: ["es2022"],
    strict: false,
    noImplicitAny: false,
    noEmit: true,
    allowNonTsExtensions: true,
    types: [],
  });
  ts.typescriptDefaults.setDiagnosticsOptions({ noSemanticValidation: false, noSyntaxValidation: false });
  ts.typescriptDefaults.setEagerModelSync(true);
  monaco.editor.createModel(siglabDts, "typescript", monaco.Uri.parse(SIGLAB_DTS_URI));
  return monaco;
}

/**
 * Where the TypeScript worker finds `workload()` declared, seen from `model` (which must call it):
 * one place when the API's declarations are in its program once (tests).
 */
export async function workloadDeclarations(model: monaco.editor.ITextModel): Promise<string[]> {
  const at = model.getValue().indexOf("workload(");
  if (at < 0) return [];
  const worker = await (await monaco.typescript.getTypeScriptWorker())(model.uri);
  const defs = (await worker.getDefinitionAtPosition(model.uri.toString(), at)) ?? [];
  return defs.map((d) => d.fileName);
}

/** Follows the OS theme (and switches live when the OS does). */
export function followOsTheme(): void {
  const mq = window.matchMedia("(prefers-color-scheme: dark)");
  const apply = (): void => monaco.editor.setTheme(mq.matches ? "vs-dark" : "vs");
  apply();
  mq.addEventListener("change", apply);
}
