/**
 * The allocation meter's instrumentation (compile worker). A browser cannot read a Web Worker's
 * heap while the worker runs (Chromium exposes no `performance.memory` in workers, and
 * `performance.measureUserAgentSpecificMemory` needs cross-origin isolation and does not answer
 * while the worker is busy), and a worker that reaches V8's heap limit takes the page's renderer
 * process with it. So the app counts what foreign code allocates: every expression that can
 * allocate — a call, `new`, an array or object literal, a closure, a string built with `+` or a
 * template — is wrapped in `__siglab_meter(value, bytes)`, which adds the value's size (an
 * array's length, a string's, a buffer's bytes, a Map's growth) and a fixed cost per call (the
 * growth `push` or `set` hide) to the request's total, and stops the request at its budget
 * (meter-runtime.ts). Code made at run time (eval, Function) is refused in the sandbox, so all
 * foreign code is this code. The value is returned unchanged: results do not depend on it.
 */
import ts from "typescript";
import { METER_GLOBAL } from "./meter-protocol.js";

/** Thrown when foreign source names the meter (it could shadow it). */
export class ReservedNameError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${file}:${line}:${column}: the name ${METER_GLOBAL} is reserved for the app's sandbox`);
  }
}

/** Bytes counted for the allocation itself, beyond what the runtime measures on the value. */
const OBJECT_BYTES = 32;
const PROPERTY_BYTES = 16;
const CLOSURE_BYTES = 64;

/** Literals that are destructuring targets (`[a, b] = x`, `for ({ k } of xs)`) are patterns, not allocations. */
function isAssignmentTarget(node: ts.Node): boolean {
  let child = node;
  for (let p = node.parent; p; child = p, p = p.parent) {
    if (ts.isBinaryExpression(p)) return p.operatorToken.kind === ts.SyntaxKind.EqualsToken && p.left === child;
    if (ts.isForOfStatement(p) || ts.isForInStatement(p)) return p.initializer === child;
    if (ts.isArrayLiteralExpression(p) || ts.isParenthesizedExpression(p) || ts.isSpreadElement(p) || ts.isSpreadAssignment(p) || ts.isShorthandPropertyAssignment(p) || ts.isObjectLiteralExpression(p)) continue;
    if (ts.isPropertyAssignment(p)) {
      if (p.initializer !== child) return false;
      continue;
    }
    return false;
  }
  return false;
}

/** What to count for `node` (the original node), or null when it is not an allocation to meter. */
function staticBytes(node: ts.Node): number | null {
  if (ts.isCallExpression(node)) {
    if (node.expression.kind === ts.SyntaxKind.SuperKeyword || node.expression.kind === ts.SyntaxKind.ImportKeyword) return null;
    // inside `a?.b().c()` only the whole chain may be wrapped: wrapping a link would break its short-circuit
    if (node.flags & ts.NodeFlags.OptionalChain) {
      const p = node.parent;
      const continues = (ts.isPropertyAccessExpression(p) || ts.isElementAccessExpression(p) || ts.isCallExpression(p) || ts.isNonNullExpression(p)) && p.expression === node && (p.flags & ts.NodeFlags.OptionalChain) !== 0;
      if (continues) return null;
    }
    if (node.parent && ts.isDecorator(node.parent)) return null;
    return 0;
  }
  if (ts.isNewExpression(node) || ts.isTaggedTemplateExpression(node)) return OBJECT_BYTES;
  if (ts.isArrayLiteralExpression(node)) return isAssignmentTarget(node) ? null : OBJECT_BYTES;
  if (ts.isObjectLiteralExpression(node)) return isAssignmentTarget(node) ? null : OBJECT_BYTES + PROPERTY_BYTES * node.properties.length;
  if (ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isClassExpression(node)) return CLOSURE_BYTES;
  // a tagged template's literal is part of the tag's call (metered there)
  if (ts.isTemplateExpression(node)) return ts.isTaggedTemplateExpression(node.parent) ? null : 0;
  if (ts.isBinaryExpression(node)) {
    const k = node.operatorToken.kind;
    return k === ts.SyntaxKind.PlusToken || k === ts.SyntaxKind.PlusEqualsToken ? 0 : null;
  }
  return null;
}

/** The transformer (TypeScript's `before` phase): wraps every allocation in a meter call. */
export function meterTransformer(file: string): ts.TransformerFactory<ts.SourceFile> {
  return (ctx) => {
    const f = ctx.factory;
    const visit = (node: ts.Node): ts.Node => {
      if (ts.isIdentifier(node) && node.text === METER_GLOBAL) {
        const sf = node.getSourceFile();
        const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
        throw new ReservedNameError(file, line + 1, character + 1);
      }
      const bytes = staticBytes(node);
      const out = ts.visitEachChild(node, visit, ctx);
      if (bytes === null) return out;
      const args: ts.Expression[] = [out as ts.Expression];
      if (bytes > 0) args.push(f.createNumericLiteral(bytes));
      return f.createCallExpression(f.createIdentifier(METER_GLOBAL), undefined, args);
    };
    return (sf) => ts.visitNode(sf, visit) as ts.SourceFile;
  };
}

/**
 * A third-party plugin's JavaScript file with every allocation metered (its workload-side twin is
 * transpileToCommonJs). Throws ReservedNameError, or a SyntaxError naming the file.
 */
export function instrumentJavaScript(js: string, file: string): string {
  const out = ts.transpileModule(js, {
    fileName: /\.[cm]?js$/.test(file) ? file : `${file}.js`,
    reportDiagnostics: true,
    compilerOptions: { allowJs: true, module: ts.ModuleKind.Preserve, target: ts.ScriptTarget.ESNext, sourceMap: false, removeComments: false },
    transformers: { before: [meterTransformer(file)] },
  });
  const d = out.diagnostics?.find((x) => x.category === ts.DiagnosticCategory.Error);
  if (d) {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : { line: 0, character: 0 };
    throw new SyntaxError(`${file}:${where.line + 1}:${where.character + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]}`);
  }
  return out.outputText;
}
