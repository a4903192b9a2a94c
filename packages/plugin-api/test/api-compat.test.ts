/**
 * The plugin API's compatibility rules, checked on its generated declarations (dist/index.d.ts):
 *   - the declarations of this version are committed (api/<major.minor>.d.ts): any change to the
 *     API shows up as a difference, so it cannot happen without a version decision;
 *   - every earlier baseline of the same major must still be satisfied: each name it exports still
 *     exists, and its type is assignable both ways (members may be added only as optional ones;
 *     nothing a plugin of that version reads or implements may change or go away).
 * Built by `pnpm --filter @siglab/plugin-api build` (pnpm typecheck runs it first).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION } from "../src/version.js";

const PKG = join(import.meta.dirname, "..");
const CURRENT = join(PKG, "dist/index.d.ts");
const [MAJOR] = PLUGIN_API_VERSION.split(".");

/** Exported names of a declaration file, with their kind and type-parameter count. */
function exportsOf(file: string): Map<string, { type: boolean; value: boolean; params: number }> {
  const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const out = new Map<string, { type: boolean; value: boolean; params: number }>();
  const add = (name: string, kind: "type" | "value", params = 0) => {
    const e = out.get(name) ?? { type: false, value: false, params: 0 };
    e[kind] = true;
    e.params = Math.max(e.params, params);
    out.set(name, e);
  };
  const exported = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const st of sf.statements) {
    if (!exported(st)) continue;
    if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) add(st.name.text, "type", st.typeParameters?.length ?? 0);
    else if (ts.isClassDeclaration(st) && st.name) {
      add(st.name.text, "type", st.typeParameters?.length ?? 0);
      add(st.name.text, "value");
    } else if (ts.isFunctionDeclaration(st) && st.name) add(st.name.text, "value");
    else if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) add(d.name.text, "value");
  }
  return out;
}

/** Type-checks `source` (which imports ./old and ./new); returns the error messages. */
function typecheck(files: Record<string, string>, root: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "siglab-api-compat-"));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [], lib: ["lib.es2023.d.ts"], skipLibCheck: false };
    const program = ts.createProgram([join(dir, root)], options);
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function compatSource(old: Map<string, { type: boolean; value: boolean; params: number }>): string {
  const lines = [`import type * as O from "./old.js";`, `import type * as N from "./new.js";`, `type Both<A, B> = [A] extends [B] ? ([B] extends [A] ? true : "changed") : "changed";`];
  let i = 0;
  for (const [name, e] of old) {
    const args = e.params ? `<${Array(e.params).fill("any").join(", ")}>` : "";
    if (e.type) lines.push(`const t${i++}: Both<N.${name}${args}, O.${name}${args}> = true; // type ${name}`);
    if (e.value) lines.push(`const v${i++}: Both<typeof N.${name}, typeof O.${name}> = true; // value ${name}`);
  }
  return lines.join("\n") + "\n";
}

describe("plugin API compatibility", () => {
  it("the generated declarations exist and stand alone (no imports)", () => {
    expect(existsSync(CURRENT), "run pnpm --filter @siglab/plugin-api build").toBe(true);
    expect(readFileSync(CURRENT, "utf8")).not.toMatch(/^\s*import\s|from\s+["']/m);
  });

  it(`the declarations of this version are committed (api/${PLUGIN_API_VERSION}.d.ts)`, () => {
    const committed = join(PKG, "api", `${PLUGIN_API_VERSION}.d.ts`);
    const msg = `the plugin API changed: a compatible addition is a new minor version (bump PLUGIN_API_VERSION and commit dist/index.d.ts as api/<version>.d.ts); a breaking change is a new major`;
    expect(existsSync(committed), msg).toBe(true);
    expect(readFileSync(CURRENT, "utf8"), msg).toBe(readFileSync(committed, "utf8"));
  });

  const baselines = readdirSync(join(PKG, "api")).filter((f) => f.startsWith(`${MAJOR}.`) && f.endsWith(".d.ts"));
  it.each(baselines)("everything plugins of API %s use is still there, unchanged", (file) => {
    const old = exportsOf(join(PKG, "api", file));
    const now = exportsOf(CURRENT);
    const missing = [...old.keys()].filter((n) => !now.has(n));
    expect(missing).toEqual([]);
    const errors = typecheck({ "old.d.ts": readFileSync(join(PKG, "api", file), "utf8"), "new.d.ts": readFileSync(CURRENT, "utf8"), "check.ts": compatSource(old) }, "check.ts");
    expect(errors).toEqual([]);
  });

  it("the check catches a breaking change (a required member added to an extension point)", () => {
    const base = readFileSync(join(PKG, "api", `${PLUGIN_API_VERSION}.d.ts`), "utf8");
    const broken = base.replace("export interface InvariantChecker {", "export interface InvariantChecker {\n\tdetach(): void;");
    expect(broken).not.toBe(base);
    const errors = typecheck({ "old.d.ts": base, "new.d.ts": broken, "check.ts": compatSource(exportsOf(join(PKG, "api", `${PLUGIN_API_VERSION}.d.ts`))) }, "check.ts");
    expect(errors.join("\n")).toMatch(/"changed"/);
  });
});
