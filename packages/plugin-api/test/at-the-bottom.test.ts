/**
 * The layering rule "@siglab/plugin-api imports nothing from any other workspace package", and no
 * import circle inside it, checked on what is published: the source (src/), the built files
 * (dist/: each JavaScript file's imports, each declaration file's) and package.json's dependencies.
 * A file of src/ may import only its own files and the package's dependencies (inversify); a built
 * file also the runtime's modules (node:*) and the peer dependency typescript, and dist/harness.js
 * (the 2.x harness, which bundles the simulator) the API itself.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const PKG = join(import.meta.dirname, "..");
const ROOT = join(PKG, "../..");
const pkg = JSON.parse(readFileSync(join(PKG, "package.json"), "utf8")) as { name: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; peerDependencies?: Record<string, string> };

/** The names of the workspace's packages (pnpm-workspace.yaml's globs, one level of `*` each). */
function workspacePackages(): string[] {
  const globs = [...readFileSync(join(ROOT, "pnpm-workspace.yaml"), "utf8").matchAll(/^\s*-\s*["']?([^"'\n]+\/\*)["']?\s*$/gm)].map((m) => m[1]!);
  return globs.flatMap((g) => {
    const dir = join(ROOT, g.slice(0, -2));
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, "package.json")))
      .map((d) => (JSON.parse(readFileSync(join(dir, d.name, "package.json"), "utf8")) as { name: string }).name);
  });
}

/** What a file imports: static imports and re-exports, `import("x")`, `require("x")` (as TypeScript's scanner reads them: not in comments or strings). */
function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

/** The package a specifier names ("@scope/name/sub" -> "@scope/name"), or null for a relative one. */
function packageOf(spec: string): string | null {
  if (spec.startsWith(".")) return null;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && ext.test(d.name))
    .map((d) => join(d.parentPath, d.name));
}

/** Import circles among `sources` (relative imports only), each as its files in order. */
function circles(sources: string[]): string[][] {
  // "./x.js" is ./x.ts (or, for the fixtures, ./x.ts.txt)
  const target = (from: string, spec: string) => resolve(dirname(from), spec.replace(/\.js$/, from.endsWith(".txt") ? ".ts.txt" : ".ts"));
  const edges = new Map(sources.map((f) => [f, importsOf(readFileSync(f, "utf8")).filter((s) => s.startsWith(".")).map((s) => target(f, s))]));
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (f: string): void => {
    if (state.get(f) === "done") return;
    if (state.get(f) === "open") {
      found.push(path.slice(path.indexOf(f)).map((p) => relative(PKG, p)));
      return;
    }
    state.set(f, "open");
    path.push(f);
    for (const to of edges.get(f) ?? []) visit(to);
    path.pop();
    state.set(f, "done");
  };
  for (const f of sources) visit(f);
  return found;
}

const WORKSPACE = workspacePackages().filter((n) => n !== pkg.name);
const DEPENDENCIES = Object.keys(pkg.dependencies ?? {});

describe("@siglab/plugin-api is at the bottom", () => {
  it("sees the workspace's packages (so the checks below can fail)", () => {
    expect(WORKSPACE).toEqual(expect.arrayContaining(["@siglab/core", "@siglab/builtin-plugins", "@siglab/cpu-profiles", "@siglab/plugin-harness", "@siglab/plugin-ngpt"]));
    expect(importsOf(`import { a } from "@siglab/core";\nexport type { B } from "./b.js";\nimport "side";\nconst c = await import("x/y");\nconst d = require("@siglab/core/kernel.js");\nexport * from "./e.js";\n// require("in-a-comment")`)).toEqual(["@siglab/core", "./b.js", "side", "x/y", "@siglab/core/kernel.js", "./e.js"]);
    expect(circles([join(PKG, "test/fixtures/ring/a.ts.txt"), join(PKG, "test/fixtures/ring/b.ts.txt")])).toEqual([["test/fixtures/ring/a.ts.txt", "test/fixtures/ring/b.ts.txt"]]);
  });

  it("package.json depends on no other workspace package (dependencies, peers, dev)", () => {
    const named = [pkg.dependencies, pkg.peerDependencies, pkg.devDependencies].flatMap((d) => Object.keys(d ?? {}));
    expect(named.filter((n) => WORKSPACE.includes(n))).toEqual([]);
  });

  it("src/ imports only its own files and the package's dependencies", () => {
    const bad = files(join(PKG, "src"), /\.ts$/).flatMap((f) => importsOf(readFileSync(f, "utf8")).filter((s) => packageOf(s) !== null && !DEPENDENCIES.includes(packageOf(s)!)).map((s) => `${relative(PKG, f)}: ${s}`));
    expect(bad).toEqual([]);
  });

  it("src/ has no import circle", () => {
    expect(circles(files(join(PKG, "src"), /\.ts$/))).toEqual([]);
  });

  it("dist/ (what is published) imports no other workspace package", () => {
    const built = files(join(PKG, "dist"), /\.(js|d\.ts)$/);
    expect(built.map((f) => relative(PKG, f)).sort()).toEqual(expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/internal.d.ts", "dist/harness.js"]));
    const allowed = (file: string, name: string) =>
      DEPENDENCIES.includes(name) || name.startsWith("node:") || name === "typescript" || (name === pkg.name && file.endsWith("harness.js"));
    const bad = built.flatMap((f) =>
      importsOf(readFileSync(f, "utf8"))
        .filter((s) => packageOf(s) !== null && !allowed(f, packageOf(s)!))
        .map((s) => `${relative(PKG, f)}: ${s}${WORKSPACE.includes(packageOf(s)!) ? " (a workspace package)" : ""}`),
    );
    expect(bad).toEqual([]);
  });
});
