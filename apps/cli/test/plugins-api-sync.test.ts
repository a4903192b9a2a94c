/**
 * The plugin-API declarations (src/plugins/template/plugin-api.d.ts) against what the sandbox
 * really gives plugin code (createPluginApi()), against the simulator's types (the compile-time
 * check in plugins-api-sync.check.ts), and against the copies third parties compile with.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createPluginApi, PLUGIN_API_VERSION, TOKENS } from "@siglab/core";
import { OP_CLASS_IDS } from "@siglab/cpu-profiles";
import { PLUGIN_API_DTS } from "../src/plugins/template/render.js";

const ROOT = join(import.meta.dirname, "../../..");
const source = ts.createSourceFile(PLUGIN_API_DTS, readFileSync(PLUGIN_API_DTS, "utf8"), ts.ScriptTarget.ES2022, true);

const isDeclared = (s: ts.Statement) => ts.getModifiers(s as ts.HasModifiers)?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword) ?? false;

/** name -> "const" | "function" | "class" | "namespace", for the declared top-level values */
function declaredValues(statements: readonly ts.Statement[], inNamespace = false): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of statements) {
    if (!inNamespace && !isDeclared(s)) continue;
    if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) out.set(d.name.getText(), "const");
    else if (ts.isFunctionDeclaration(s) && s.name) out.set(s.name.text, "function");
    else if (ts.isClassDeclaration(s) && s.name) out.set(s.name.text, "class");
    else if (ts.isModuleDeclaration(s)) out.set(s.name.getText(), "namespace");
  }
  return out;
}

function namespaceBody(name: string): readonly ts.Statement[] {
  const ns = source.statements.find((s): s is ts.ModuleDeclaration => ts.isModuleDeclaration(s) && s.name.getText() === name)!;
  return (ns.body as ts.ModuleBlock).statements;
}

const runtimeKind = (v: unknown) => (typeof v === "function" ? (/^class\b/.test(Function.prototype.toString.call(v)) ? "class" : "function") : typeof v === "object" ? "namespace" : "const");

describe("plugin-API declarations", () => {
  const api = createPluginApi();

  it("declare exactly the values require('@siglab/plugin-api') returns", () => {
    const declared = declaredValues(source.statements);
    const iface = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === "PluginApi")!;
    const ifaceKeys = iface.members.map((m) => m.name!.getText()).sort();
    expect([...declared.keys()].sort()).toEqual(Object.keys(api).sort());
    expect(ifaceKeys).toEqual(Object.keys(api).sort());
    for (const [name, kind] of declared) {
      const v = api[name];
      // TOKENS and NR are objects declared as consts; namespaces are objects too
      const expected = kind === "const" && typeof v === "object" ? "namespace" : kind;
      expect(runtimeKind(v), name).toBe(expected);
    }
  });

  it("every member declared in a namespace exists at run time with the declared kind and value", () => {
    for (const ns of ["signal", "i387", "sched"]) {
      const runtime = api[ns] as Record<string, unknown>;
      const members = declaredValues(namespaceBody(ns), true);
      expect(members.size, ns).toBeGreaterThan(3);
      for (const [name, kind] of members) {
        expect(name in runtime, `${ns}.${name}`).toBe(true);
        if (kind === "const") expect(typeof runtime[name], `${ns}.${name}`).toBe("number");
        else expect(runtimeKind(runtime[name]), `${ns}.${name}`).toBe(kind === "class" ? "class" : "function");
      }
    }
    expect(Object.keys(api["TOKENS"] as object).length).toBeGreaterThan(10);
  });

  it("match the simulator's types (the compile-time check has no errors)", () => {
    const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } })!;
    const check = join(ROOT, "apps/cli/test/plugins-api-sync.check.ts");
    const program = ts.createProgram([check], { ...config.options, noEmit: true });
    const diags = [...ts.getPreEmitDiagnostics(program, program.getSourceFile(check)), ...ts.getPreEmitDiagnostics(program, program.getSourceFile(PLUGIN_API_DTS))];
    const text = diags.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("\n");
    expect(text).toBe("");
  }, 120_000);

  it("the copies third parties compile against are identical", () => {
    const canonical = readFileSync(PLUGIN_API_DTS, "utf8");
    expect(readFileSync(join(ROOT, "examples/third-party-plugins/getpid-cache/types/plugin-api.d.ts"), "utf8")).toBe(canonical);
    expect(canonical).toMatch(new RegExp(`PLUGIN_API_VERSION: "${String(api["PLUGIN_API_VERSION"]).replace(".", "\\.")}"`));
  });
});

describe("docs/plugin-authoring.md", () => {
  const doc = readFileSync(join(ROOT, "docs/plugin-authoring.md"), "utf8");

  it("describes every extension point and every op class, and the current plugin-API version", () => {
    for (const point of Object.keys(TOKENS)) expect(doc, point).toContain(`\`${point}\``);
    for (const opClass of OP_CLASS_IDS) expect(doc, opClass).toContain(`\`${opClass}\``);
    expect(doc).toContain(`now \`${PLUGIN_API_VERSION}\``);
  });
});
