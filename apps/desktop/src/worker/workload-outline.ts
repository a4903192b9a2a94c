/**
 * A workload's name, description and default parameters read from its text, never by running it
 * (issue 30: a shared link or an opened document must run nothing before Run). The TypeScript
 * parser finds the default export — `workload({ … })`, an object literal, or a top-level `const`
 * holding either — and folds each default that is a constant: a literal, a sign, arithmetic on
 * numbers, `+` on strings, a top-level `const` of those, `as const`. A default computed by
 * anything else (a call, a loop) is named in `unread`: the workload gets it when it runs, the run
 * configuration cannot show it before. Runs in the compile worker (it has the compiler).
 */
import ts from "typescript";
import type { ParamValue } from "../common/contracts.js";

export interface WorkloadOutline {
  name?: string;
  description?: string;
  params: Record<string, ParamValue>;
  /** parameters whose default is not a constant of the text */
  unread: string[];
  /** why nothing could be read (no default export of a workload found), or absent */
  problem?: string;
  /** the first syntax error, as the parser saw it (the rest was read as it recovered) */
  syntax?: { line: number; column: number; message: string };
}

const NOT_CONSTANT = Symbol("not constant");
type Folded = ParamValue | typeof NOT_CONSTANT;

/** The outline of a workload module's text (a syntax error leaves what the parser recovered). */
export function readWorkloadOutline(source: string, file: string): WorkloadOutline {
  const sf = ts.createSourceFile(file.endsWith(".ts") ? file : `${file}.ts`, source, ts.ScriptTarget.ESNext, true, ts.ScriptKind.TS);
  const consts = topLevelConsts(sf);
  const def = workloadObject(defaultExport(sf, consts), consts, workloadNames(sf));
  const out: WorkloadOutline = { params: {}, unread: [] };
  const parseError = (sf as unknown as { parseDiagnostics?: ts.DiagnosticWithLocation[] }).parseDiagnostics?.[0];
  if (parseError) {
    const { line, character } = sf.getLineAndCharacterOfPosition(parseError.start);
    out.syntax = { line: line + 1, column: character + 1, message: ts.flattenDiagnosticMessageText(parseError.messageText, "\n").split("\n")[0]! };
  }
  if (!def) return { ...out, problem: "no `export default workload({ … })` found in the text" };
  const fold = (e: ts.Expression): Folded => foldConstant(e, consts, new Set());
  for (const prop of def.properties) {
    const key = propName(prop);
    if (!key || !ts.isPropertyAssignment(prop)) continue;
    if (key === "name" || key === "description") {
      const v = fold(prop.initializer);
      if (typeof v === "string") out[key] = v;
    } else if (key === "params") {
      const params = resolveObject(prop.initializer, consts);
      if (!params) {
        out.unread.push("(all: params is not an object literal)");
        continue;
      }
      for (const p of params.properties) {
        const name = propName(p);
        if (!name) continue;
        const v = ts.isPropertyAssignment(p) ? fold(p.initializer) : ts.isShorthandPropertyAssignment(p) ? fold(p.name) : NOT_CONSTANT;
        if (v === NOT_CONSTANT) out.unread.push(name);
        else out.params[name] = v;
      }
    }
  }
  return out;
}

function topLevelConsts(sf: ts.SourceFile): Map<string, ts.Expression> {
  const out = new Map<string, ts.Expression>();
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !(st.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) out.set(d.name.text, d.initializer);
  }
  return out;
}

function defaultExport(sf: ts.SourceFile, consts: Map<string, ts.Expression>): ts.Expression | undefined {
  for (const st of sf.statements) {
    if (ts.isExportAssignment(st) && !st.isExportEquals) return st.expression;
    // export { def as default }
    if (ts.isExportDeclaration(st) && !st.moduleSpecifier && st.exportClause && ts.isNamedExports(st.exportClause)) {
      for (const el of st.exportClause.elements) if (el.name.text === "default") return consts.get((el.propertyName ?? el.name).text);
    }
  }
  return undefined;
}

/** Strips parentheses, `as`, `satisfies`, `!` and type assertions. */
function bare(e: ts.Expression): ts.Expression {
  for (;;) {
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
    else return e;
  }
}

/** An object literal, directly or through a top-level const (one level of names, no cycles). */
function resolveObject(e: ts.Expression, consts: Map<string, ts.Expression>, seen = new Set<string>()): ts.ObjectLiteralExpression | undefined {
  const b = bare(e);
  if (ts.isObjectLiteralExpression(b)) return b;
  if (ts.isIdentifier(b) && consts.has(b.text) && !seen.has(b.text)) return resolveObject(consts.get(b.text)!, consts, seen.add(b.text));
  return undefined;
}

/** Local names of siglab's `workload` (`import { workload as w }`), and `workload` itself. */
function workloadNames(sf: ts.SourceFile): Set<string> {
  const names = new Set(["workload"]);
  for (const st of sf.statements) {
    const bindings = ts.isImportDeclaration(st) ? st.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) if ((el.propertyName ?? el.name).text === "workload") names.add(el.name.text);
  }
  return names;
}

/** The definition object of `workload({ … })` (or `siglab.workload`, an alias) or of a plain object. */
function workloadObject(e: ts.Expression | undefined, consts: Map<string, ts.Expression>, names: Set<string>, seen = new Set<string>()): ts.ObjectLiteralExpression | undefined {
  if (!e) return undefined;
  const b = bare(e);
  if (ts.isIdentifier(b) && consts.has(b.text) && !seen.has(b.text)) return workloadObject(consts.get(b.text), consts, names, seen.add(b.text));
  if (ts.isCallExpression(b)) {
    const callee = bare(b.expression);
    const isWorkload = ts.isIdentifier(callee) ? names.has(callee.text) : ts.isPropertyAccessExpression(callee) && callee.name.text === "workload";
    return isWorkload && b.arguments[0] ? resolveObject(b.arguments[0], consts) : undefined;
  }
  return ts.isObjectLiteralExpression(b) ? b : undefined;
}

function propName(p: ts.ObjectLiteralElementLike): string | undefined {
  const n = p.name;
  if (!n) return undefined;
  if (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n)) return n.text;
  return undefined;
}

function foldConstant(e: ts.Expression, consts: Map<string, ts.Expression>, seen: Set<string>): Folded {
  const b = bare(e);
  if (ts.isNumericLiteral(b)) return Number(b.text);
  if (ts.isStringLiteral(b) || ts.isNoSubstitutionTemplateLiteral(b)) return b.text;
  if (b.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (b.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isIdentifier(b)) {
    if (!consts.has(b.text) || seen.has(b.text)) return NOT_CONSTANT;
    return foldConstant(consts.get(b.text)!, consts, new Set(seen).add(b.text));
  }
  if (ts.isPrefixUnaryExpression(b)) {
    const v = foldConstant(b.operand, consts, seen);
    if (typeof v !== "number") return b.operator === ts.SyntaxKind.ExclamationToken && typeof v === "boolean" ? !v : NOT_CONSTANT;
    if (b.operator === ts.SyntaxKind.MinusToken) return -v;
    if (b.operator === ts.SyntaxKind.PlusToken) return v;
    if (b.operator === ts.SyntaxKind.TildeToken) return ~v;
    return NOT_CONSTANT;
  }
  if (ts.isBinaryExpression(b)) {
    const l = foldConstant(b.left, consts, seen);
    const r = foldConstant(b.right, consts, seen);
    if (l === NOT_CONSTANT || r === NOT_CONSTANT) return NOT_CONSTANT;
    const op = b.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken && (typeof l === "string" || typeof r === "string")) return typeof l === "boolean" || typeof r === "boolean" ? NOT_CONSTANT : `${l}${r}`;
    if (typeof l !== "number" || typeof r !== "number") return NOT_CONSTANT;
    const arith: Partial<Record<ts.SyntaxKind, (x: number, y: number) => number>> = {
      [ts.SyntaxKind.PlusToken]: (x, y) => x + y,
      [ts.SyntaxKind.MinusToken]: (x, y) => x - y,
      [ts.SyntaxKind.AsteriskToken]: (x, y) => x * y,
      [ts.SyntaxKind.SlashToken]: (x, y) => x / y,
      [ts.SyntaxKind.PercentToken]: (x, y) => x % y,
      [ts.SyntaxKind.AsteriskAsteriskToken]: (x, y) => x ** y,
      [ts.SyntaxKind.LessThanLessThanToken]: (x, y) => x << y,
      [ts.SyntaxKind.GreaterThanGreaterThanToken]: (x, y) => x >> y,
      [ts.SyntaxKind.GreaterThanGreaterThanGreaterThanToken]: (x, y) => x >>> y,
      [ts.SyntaxKind.BarToken]: (x, y) => x | y,
      [ts.SyntaxKind.AmpersandToken]: (x, y) => x & y,
      [ts.SyntaxKind.CaretToken]: (x, y) => x ^ y,
    };
    const f = arith[op];
    return f ? f(l, r) : NOT_CONSTANT;
  }
  return NOT_CONSTANT;
}
