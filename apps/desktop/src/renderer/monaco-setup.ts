/**
 * Monaco with IntelliSense for the workload API: the one siglab.d.ts the runtime implements is
 * added as an extra lib, so `import { workload } from "siglab"` completes, hovers and type-checks.
 */
import siglabDts from "@siglab/core/api/siglab.d.ts?raw";
import EditorWorker from "monaco-esm/editor/editor.worker.js?worker";
import TsWorker from "monaco-esm/languages/features/typescript/ts.worker.js?worker";
import * as monaco from "./monaco-slim.js";

export { monaco };

export const SIGLAB_DTS_URI = "file:///node_modules/@types/siglab/index.d.ts";

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
    typeRoots: ["file:///node_modules/@types"],
  });
  ts.typescriptDefaults.setDiagnosticsOptions({ noSemanticValidation: false, noSyntaxValidation: false });
  ts.typescriptDefaults.setEagerModelSync(true);
  ts.typescriptDefaults.addExtraLib(siglabDts, SIGLAB_DTS_URI);
  return monaco;
}

/** Follows the OS theme (and switches live when the OS does). */
export function followOsTheme(): void {
  const mq = window.matchMedia("(prefers-color-scheme: dark)");
  const apply = (): void => monaco.editor.setTheme(mq.matches ? "vs-dark" : "vs");
  apply();
  mq.addEventListener("change", apply);
}
