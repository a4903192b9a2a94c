/**
 * The proof that the plugin API is enough: the built-in plugins' sources import nothing of SigLab
 * but @siglab/plugin-api (and their own files and plugin.json) — and the types of the unstable
 * fast-call protocol, @siglab/plugin-api/internal, which has no module to import at run time.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const PLUGINS = join(import.meta.dirname, "../../plugins");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : n.endsWith(".ts") ? [p] : [];
  });
}

const IMPORT = /(?:^|\n)\s*((?:import|export)\s[^;]*?)\sfrom\s+"([^"]+)"|(?:^|\n)\s*import\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g;

/** Each import of `file`: its specifier, and whether it imports types only (`import type`/`export type`). */
function importsOf(file: string): { spec: string; typeOnly: boolean }[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT)].map((m) => ({ spec: m[2] ?? m[3] ?? m[4]!, typeOnly: m[1] !== undefined && /^(?:import|export)\s+type\s/.test(m[1]) }));
}

describe("built-in plugins program against @siglab/plugin-api only", () => {
  const plugins = readdirSync(PLUGINS).filter((n) => statSync(join(PLUGINS, n)).isDirectory());

  it("finds the ten built-in plugins", () => {
    expect(plugins.sort()).toEqual(["aio", "io-uring", "lazy-fpu-frame", "libc-r", "linux6", "ngpt", "no-cli-exit", "sa-nofp", "sysenter", "user-sigmask"]);
  });

  it.each(plugins)("%s: every import of its src/ is the plugin API, its own files or its plugin.json", (p) => {
    const bad: string[] = [];
    for (const f of sources(join(PLUGINS, p, "src"))) {
      for (const { spec, typeOnly } of importsOf(f)) {
        const ok = spec === "@siglab/plugin-api" || spec.startsWith("./") || spec === "../plugin.json" || (spec === "@siglab/plugin-api/internal" && typeOnly);
        if (!ok) bad.push(`${relative(PLUGINS, f)}: ${typeOnly ? "types of " : ""}${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("its package depends on the plugin API and on nothing else of SigLab at run time", () => {
    for (const p of plugins) {
      const pkg = JSON.parse(readFileSync(join(PLUGINS, p, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
      expect(Object.keys(pkg.dependencies ?? {}), p).toEqual(["@siglab/plugin-api"]);
    }
  });

  it("the import scanner sees every import form (so the check above can fail)", () => {
    const probe = join(import.meta.dirname, "fixtures", "imports.ts.txt");
    expect(importsOf(probe).map((i) => `${i.typeOnly ? "type " : ""}${i.spec}`).sort()).toEqual(["@siglab/core", "@siglab/core/runtime/gate.js", "type ./local.js", "inversify", "side-effect", "@siglab/plugin-api/internal", "type @siglab/plugin-api/internal"].sort());
  });
});
