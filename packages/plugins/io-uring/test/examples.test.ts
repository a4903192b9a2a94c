import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { BUILTIN_PLUGINS, PRESETS } from "../../../builtin-plugins/src/index.js";
import { URING_EXAMPLES } from "../src/index.js";
import { metric, runUringExample } from "./util.js";

describe("the io_uring_* examples", () => {
  it("the embedded sources are current (run node packages/plugins/io-uring/scripts/gen-examples.mjs after editing an example)", async () => {
    // @ts-expect-error plain .mjs script
    const { render } = await import("../scripts/gen-examples.mjs");
    const current = readFileSync(new URL("../src/examples.generated.ts", import.meta.url), "utf8");
    expect(current).toBe(render());
  });

  it.each(URING_EXAMPLES.map((e) => e.id))("%s type-checks against the workload API (siglab.d.ts)", (id) => {
    const e = URING_EXAMPLES.find((x) => x.id === id)!;
    expect(typeErrors(e.source)).toEqual([]);
  });

  it("the type check catches a wrong call (it is not vacuous)", () => {
    const bad = URING_EXAMPLES[0]!.source.replace('t.open("/dev/siglab-disk")', 't.open("/dev/siglab-tape")');
    expect(typeErrors(bad).join("\n")).toMatch(/siglab-tape/);
  });

  it("io-uring is a built-in plugin", () => {
    const p = BUILTIN_PLUGINS.find((x) => x.manifest.id === "io-uring");
    expect(p).toBeDefined();
    expect(p!.examples?.map((e) => e.id).sort()).toEqual(["io_uring_poll", "io_uring_sqpoll", "io_uring_wait"]);
    // the preset that runs them: linux6's kernel with io_uring on top
    expect(PRESETS.find((x) => x.id === "linux-6+io-uring")?.stack).toEqual([{ id: "linux6" }, { id: "io-uring" }]);
  });

  it.each(URING_EXAMPLES.map((e) => e.id))("%s reports the aio_* family's figures, with one completion per request", (id) => {
    const r = runUringExample(id, { params: { batch: 2, rounds: 3 } });
    expect(r.error).toBeUndefined();
    const units = Object.fromEntries(r.metrics.map((m) => [m.name, m.unit]));
    expect(units["per-event cost"]).toBe("cycles");
    expect(units["per-event cost (us)"]).toBe("us");
    expect(units["system calls per event"]).toBe("calls");
    expect(metric(r, "completions")).toBe(6);
    expect(r.findings).toEqual([]);
  });

  it("without the plugin in the stack an example stops with a message that names it", () => {
    const r = runUringExample("io_uring_wait", { params: { batch: 2, rounds: 1 }, variants: [{ id: "linux6" }] });
    expect(r.error?.message).toMatch(/needs the io-uring plugin \(--preset linux-6\+io-uring\)/);
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
