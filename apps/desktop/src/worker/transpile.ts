/** TypeScript → CommonJS for the sandbox, with syntax errors reported as file:line:col. */
import ts from "typescript";

export function transpileToCommonJs(source: string, file: string): string {
  const out = ts.transpileModule(source, {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      sourceMap: false,
      inlineSourceMap: false,
      experimentalDecorators: true,
      useDefineForClassFields: false,
      allowJs: true,
    },
  });
  const errors = (out.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    const d = errors[0]!;
    const msg = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (d.file && d.start !== undefined) {
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      throw new SyntaxError(`${file}:${line + 1}:${character + 1}: ${msg}`);
    }
    throw new SyntaxError(`${file}: ${msg}`);
  }
  return out.outputText;
}
