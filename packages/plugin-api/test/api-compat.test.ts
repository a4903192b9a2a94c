/**
 * The plugin API's compatibility rules, checked on its generated declarations (dist/index.d.ts):
 *   - the declarations of this version are committed (api/<major.minor>.d.ts): any change to the
 *     API shows up as a difference, so it cannot happen without a version decision;
 *   - every earlier baseline of the same major must still be satisfied: each name it exports still
 *     exists, and its type is assignable both ways (members may be added only as optional ones;
 *     nothing a plugin of that version reads or implements may change or go away);
 *   - the members that left the public API for @siglab/plugin-api/internal in 2.3 (the
 *     generator-free fast-call protocol) count as still there for the 2.x baselines: the core still
 *     implements them, so the baselines are checked against the public declarations with
 *     dist/internal.d.ts merged back into the interfaces it extends (a plugin built against 2.2
 *     keeps working; packages/plugin-harness/test/api-2.2-plugin.test.ts runs one);
 *   - except the registries a minor version grows (REGISTRIES: the version, the extension points'
 *     tokens and names, the API's values, the kernel's events — a plugin subscribes to events, it
 *     never implements the map): each may only gain entries, every old entry unchanged.
 *     Inside every other type the baseline's registries are read as the current ones, so that a
 *     new extension point does not count as a change of everything that names the registries
 *     (a manifest's `contributes`, createModule's `api`).
 * Built by `pnpm --filter @siglab/plugin-api build` (pnpm typecheck runs it first).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION } from "../src/version.js";

const PKG = join(import.meta.dirname, "..");
const CURRENT = join(PKG, "dist/index.d.ts");
const INTERNAL = join(PKG, "dist/internal.d.ts");
/** The minor version in which the fast-call protocol left the public API (baselines before it had it). */
const FAST_PROTOCOL_INTERNAL_SINCE = 3;
/** The fast-call protocol's members (dist/internal.d.ts): none may be in the public declarations. */
const FAST_MEMBERS = ["runUserNow", "runUserRest", "sigprocmaskSetNow", "sigprocmaskSetRest", "gettimeofdayNow", "gettimeofdayRest", "returnedNow", "returnedRest", "enterNow", "enterRest", "createWithExit", "parkOut", "parkBack"];
const [MAJOR, MINOR] = PLUGIN_API_VERSION.split(".");

/** What a minor version may add to (checked by registryChecks); the values are declared by `const`, the others by `type`. */
const REGISTRY_VALUES = ["PLUGIN_API_VERSION", "TOKENS", "SINGLE_VALUED", "SERVICES"];
/** The kernel's events: a registry too (checked apart from the others, which name the kernel and so its events). */
const EVENTS = "KernelEventMap";
const REGISTRY_TYPES = ["ExtensionPointName", "PluginApi", EVENTS];

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

/**
 * The baseline's declarations with its registries taken from ./new (and the namespace of values
 * that only PluginApi uses dropped): every other type of the baseline, compared with the current
 * one, then differs only where that type itself changed.
 */
function withCurrentRegistries(baseline: string, values = REGISTRY_VALUES, types = REGISTRY_TYPES): string {
  const sf = ts.createSourceFile("old.d.ts", baseline, ts.ScriptTarget.ES2022, true);
  const drop = (st: ts.Statement): boolean =>
    (ts.isVariableStatement(st) && st.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && values.includes(d.name.text))) ||
    ((ts.isTypeAliasDeclaration(st) || ts.isInterfaceDeclaration(st)) && types.includes(st.name.text)) ||
    (values.length > 0 && ts.isModuleDeclaration(st) && st.name.text === "values");
  let out = "";
  let at = 0;
  for (const st of sf.statements) {
    if (!drop(st)) continue;
    out += baseline.slice(at, st.getFullStart());
    at = st.getEnd();
  }
  out += baseline.slice(at);
  const head = [
    ...(values.length ? [`import { ${values.join(", ")} } from "./new.js";`, `export { ${values.join(", ")} };`] : []),
    `import type { ${types.join(", ")} } from "./new.js";`,
    `export type { ${types.join(", ")} };`,
  ];
  return `${head.join("\n")}\n${out}`;
}

// TypeScript's own lib files (lib.es2023.d.ts and what it references) are parsed once for all
// checks below and not type-checked themselves (skipDefaultLibCheck): they are not what is tested.
// The declarations under test (orig, old, new) are checked in full (skipLibCheck stays off).
const OPTIONS: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [], lib: ["lib.es2023.d.ts"], skipLibCheck: false, skipDefaultLibCheck: true };
const LIB_DIR = dirname(ts.getDefaultLibFilePath(OPTIONS));
const libFiles = new Map<string, ts.SourceFile | undefined>();
function compilerHost(): ts.CompilerHost {
  const host = ts.createCompilerHost(OPTIONS);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onError, create) => {
    if (dirname(name) !== LIB_DIR) return read(name, lang, onError, create);
    if (!libFiles.has(name)) libFiles.set(name, read(name, lang, onError, create));
    return libFiles.get(name);
  };
  return host;
}

/** Type-checks `root`; returns the error messages, each with the line of `root` it is about. */
function typecheck(files: Record<string, string>, root: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "siglab-api-compat-"));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const program = ts.createProgram([join(dir, root)], OPTIONS, compilerHost());
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const msg = ts.flattenDiagnosticMessageText(d.messageText, "\n");
      if (!d.file || d.start === undefined) return msg;
      const line = d.file.getLineAndCharacterOfPosition(d.start).line;
      const where = d.file.fileName.endsWith(root) ? d.file.text.split("\n")[line]!.replace(/^.*\/\/ /, "") : `${d.file.fileName.replace(/^.*\//, "")}:${line + 1}`;
      return `${where}: ${msg}`;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The registries of the baseline (./registries: as committed, but with the current events, which
 * every type naming the kernel names) against the current ones: every old extension point keeps
 * its token's type, every old name and single-valued/service entry is still accepted, every old
 * value of the API is unchanged; and every old event (./orig) keeps its arguments. New entries are
 * the minor version's additions.
 */
const registryChecks = [
  `type Grows<Old, New> = [Old] extends [New] ? true : "removed or changed";`,
  `const r0: Both<Pick<typeof N.TOKENS, keyof typeof R.TOKENS>, typeof R.TOKENS> = true; // registry TOKENS: every old extension point, unchanged`,
  `const r1: Grows<R.ExtensionPointName, N.ExtensionPointName> = true; // registry ExtensionPointName`,
  `const r2: Grows<typeof R.SINGLE_VALUED, typeof N.SINGLE_VALUED> = true; // registry SINGLE_VALUED`,
  `const r3: Grows<typeof R.SERVICES, typeof N.SERVICES> = true; // registry SERVICES`,
  `type OldValues = Exclude<keyof R.PluginApi, ${REGISTRY_VALUES.map((n) => JSON.stringify(n)).join(" | ")}>;`,
  `const r4: Both<Pick<N.PluginApi, OldValues>, Pick<R.PluginApi, OldValues>> = true; // registry PluginApi: every old value, unchanged`,
  `const r5: Both<Pick<N.KernelEventMap, keyof E.KernelEventMap>, E.KernelEventMap> = true; // registry KernelEventMap: every old event, its arguments unchanged`,
];

function compatSource(old: Map<string, { type: boolean; value: boolean; params: number }>): string {
  const lines = [`import type * as O from "./old.js";`, `import type * as N from "./new.js";`, `import type * as R from "./registries.js";`, `import type * as E from "./orig.js";`, `type Both<A, B> = [A] extends [B] ? ([B] extends [A] ? true : "changed") : "changed";`];
  let i = 0;
  for (const [name, e] of old) {
    const args = e.params ? `<${Array(e.params).fill("any").join(", ")}>` : "";
    if (e.type) lines.push(`const t${i++}: Both<N.${name}${args}, O.${name}${args}> = true; // type ${name}`);
    if (e.value) lines.push(`const v${i++}: Both<typeof N.${name}, typeof O.${name}> = true; // value ${name}`);
  }
  lines.push(...registryChecks);
  return lines.join("\n") + "\n";
}

/**
 * What the core implements for 2.x plugins: the public declarations plus, for each interface of
 * dist/internal.d.ts (`interface FastX extends X { … }`), its members merged back into X.
 */
function withInternal(current: string): string {
  const sf = ts.createSourceFile("internal.d.ts", readFileSync(INTERNAL, "utf8"), ts.ScriptTarget.ES2022, true);
  const merged: string[] = [];
  for (const st of sf.statements) {
    if (!ts.isInterfaceDeclaration(st)) continue;
    const base = st.heritageClauses?.[0]?.types[0]?.expression.getText(sf);
    if (!base) throw new Error(`dist/internal.d.ts: interface ${st.name.text} extends no interface of the API`);
    merged.push(`export interface ${base} {${st.members.map((m) => m.getFullText(sf)).join("")}\n}`);
  }
  return `${current}\n${merged.join("\n")}\n`;
}

/** Checks the declarations `current` against the baseline `baseline`; returns the errors. */
function compatErrors(baseline: string, current: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "siglab-api-exports-"));
  try {
    writeFileSync(join(dir, "orig.d.ts"), baseline);
    const old = exportsOf(join(dir, "orig.d.ts"));
    // registries.d.ts: the baseline's registries, with the current events (every type that names the kernel names them)
    return typecheck({ "orig.d.ts": baseline, "registries.d.ts": withCurrentRegistries(baseline, [], [EVENTS]), "old.d.ts": withCurrentRegistries(baseline), "new.d.ts": current, "check.ts": compatSource(old) }, "check.ts");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
  it("has the baselines of every earlier minor of this major", () => {
    expect(baselines.map((f) => Number(f.split(".")[1])).sort((a, b) => a - b)).toEqual([...Array(Number(MINOR) + 1).keys()]);
  });

  it.each(baselines)("everything plugins of API %s use is still there, unchanged", (file) => {
    const old = exportsOf(join(PKG, "api", file));
    const now = exportsOf(CURRENT);
    const missing = [...old.keys()].filter((n) => !now.has(n));
    expect(missing).toEqual([]);
    const current = readFileSync(CURRENT, "utf8");
    const implemented = Number(file.split(".")[1]) < FAST_PROTOCOL_INTERNAL_SINCE ? withInternal(current) : current;
    expect(compatErrors(readFileSync(join(PKG, "api", file), "utf8"), implemented)).toEqual([]);
  });

  it("the fast-call protocol is not in the public declarations, only in @siglab/plugin-api/internal", () => {
    const current = readFileSync(CURRENT, "utf8"), internal = readFileSync(INTERNAL, "utf8");
    for (const m of FAST_MEMBERS) {
      expect(current, m).not.toMatch(new RegExp(`\\b${m}\\b`));
      expect(internal, m).toMatch(new RegExp(`\\b${m}\\??\\(`));
    }
  });

  describe("the check can fail", () => {
    const base = readFileSync(join(PKG, "api", `${PLUGIN_API_VERSION}.d.ts`), "utf8");
    const changed = (from: string, to: string): string => {
      expect(base).toContain(from);
      return base.replace(from, to);
    };

    it("catches a required member added to an extension point", () => {
      const errors = compatErrors(base, changed("export interface InvariantChecker {", "export interface InvariantChecker {\n\tdetach(): void;"));
      expect(errors.join("\n")).toMatch(/^type InvariantChecker: .*"changed"/m);
    });

    it("catches an extension point taken away", () => {
      const errors = compatErrors(base, changed("\tInvariantChecker: Token<InvariantChecker>;\n", ""));
      expect(errors.join("\n")).toMatch(/^registry TOKENS: every old extension point, unchanged: /m);
    });

    it("catches a value of the API taken away (one plugins get from require)", () => {
      const errors = compatErrors(base, changed("SYSCALL_EIP, Sigset, TOKENS,", "SYSCALL_EIP, Sigset, TOKENS,".replace(" Sigset,", "")));
      expect(errors.join("\n")).toMatch(/^registry PluginApi: every old value, unchanged: /m);
    });

    it("catches the 2.2 fast-call members gone (were they not implemented as the internal protocol)", () => {
      const errors = compatErrors(readFileSync(join(PKG, "api", "2.2.d.ts"), "utf8"), readFileSync(CURRENT, "utf8"));
      expect(errors.join("\n")).toMatch(/^type RuntimeThread: .*"changed"/m);
    });

    it("catches an event taken away or its arguments changed", () => {
      expect(compatErrors(base, changed('\t"user.store": [\n\t\ttask: Task,\n\t\taddr: number\n\t];', '\t"user.store": [\n\t\ttask: Task\n\t];')).join("\n")).toMatch(/^registry KernelEventMap: every old event, its arguments unchanged: /m);
      expect(compatErrors(base, changed('\t"user.store": [\n\t\ttask: Task,\n\t\taddr: number\n\t];', "")).join("\n")).toMatch(/^registry KernelEventMap: every old event, its arguments unchanged: /m);
    });

    it("lets a minor version add an event", () => {
      expect(compatErrors(base, changed("export interface KernelEventMap {", "export interface KernelEventMap {\n\t\"later.event\": [\n\t\ttask: Task\n\t];"))).toEqual([]);
    });

    it("lets a minor version add an extension point and a value", () => {
      const more = changed("\tInvariantChecker: Token<InvariantChecker>;\n", "\tInvariantChecker: Token<InvariantChecker>;\n\tLaterPoint: Token<InvariantChecker>;\n").replace("SYSCALL_EIP, Sigset, TOKENS,", "SYSCALL_EIP, Sigset, TOKENS, LATER_VALUE,").replace("export declare const SYSCALL_EIP", "export declare const LATER_VALUE = 1;\nexport declare const SYSCALL_EIP");
      expect(compatErrors(base, more)).toEqual([]);
    });
  });
});
