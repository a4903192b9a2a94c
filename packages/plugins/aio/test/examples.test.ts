import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { AIO_EXAMPLES } from "../src/index.js";
import { metric, runAioExample } from "./util.js";

describe("the aio_* example family", () => {
  it("the embedded sources are current (run node packages/plugins/aio/scripts/gen-examples.mjs after editing an example)", async () => {
    // @ts-expect-error plain .mjs script
    const { render } = await import("../scripts/gen-examples.mjs");
    const current = readFileSync(new URL("../src/examples.generated.ts", import.meta.url), "utf8");
    expect(current).toBe(render());
  });

  it.each(AIO_EXAMPLES.map((e) => e.id))("%s type-checks against the workload API (siglab.d.ts)", (id) => {
    const e = AIO_EXAMPLES.find((x) => x.id === id)!;
    expect(typeErrors(e.source)).toEqual([]);
  });

  it("the type check catches a wrong call (it is not vacuous)", () => {
    const bad = AIO_EXAMPLES[0]!.source.replace('t.open("/dev/siglab-disk")', 't.open("/dev/siglab-tape")');
    expect(typeErrors(bad).join("\n")).toMatch(/siglab-tape/);
  });

  it.each(["aio_sigio", "aio_sigtimedwait", "aio_helper_thread"])("%s runs on the baseline kernel (no plugin in the stack)", (id) => {
    const r = runAioExample(id, { params: { batch: 4, rounds: 3 } });
    expect(r.error).toBeUndefined();
    expect(r.variants).toEqual([]);
    expect(metric(r, "completions")).toBe(12);
    expect(r.findings).toEqual([]);
  });

  it("aio_ring without the plugin stops with a message that names it", () => {
    const r = runAioExample("aio_ring", { params: { batch: 4, rounds: 3 } });
    expect(r.error?.message).toMatch(/needs the aio plugin \(--variant aio\)/);
  });

  it("every example reports the per-event cost in cycles and microseconds", () => {
    for (const e of AIO_EXAMPLES) {
      const r = runAioExample(e.id, { stack: e.id === "aio_ring", params: { batch: 2, rounds: 2 } });
      const units = Object.fromEntries(r.metrics.map((m) => [m.name, m.unit]));
      expect(units["per-event cost"]).toBe("cycles");
      expect(units["per-event cost (us)"]).toBe("us");
    }
  });
});

function typeErrors(source: string): string[] {
  const api = readFileSync(new URL("../../../core/src/api/siglab.d.ts", import.meta.url), "utf8");
  const files: Record<string, string> = { "/w/example.ts": source, "/w/siglab.d.ts": api };
  const options: ts.CompilerOptions = { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noEmit: true, lib: ["lib.es2022.d.ts"], types: [] };
  const host = ts.createCompilerHost(options, true);
  const orig = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, onErr, create) => (name in files ? ts.createSourceFile(name, files[name]!, lang, true) : orig(name, lang, onErr, create));
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => name in files || exists(name);
  const read = host.readFile.bind(host);
  host.readFile = (name) => files[name] ?? read(name);
  const program = ts.createProgram(Object.keys(files), options, host);
  return [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()]
    .filter((d) => d.file?.fileName === "/w/example.ts" && d.category === ts.DiagnosticCategory.Error)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}
