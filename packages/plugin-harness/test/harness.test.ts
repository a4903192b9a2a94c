/**
 * The in-process harness gives the result object `siglab run --json` gives (the same run through
 * the execution host, byte for byte), for a plugin under test and for built-in variants.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ContainerModule, TOKENS, op, type CreateModule, type PluginModule } from "@siglab/plugin-api";
import { runWorkload } from "../src/index.js";
import { runWorkload as runWorkload22 } from "@siglab/plugin-api/harness";
import { createNodeHost } from "@siglab/builtin-plugins/host/node";
import { EXAMPLES } from "@siglab/core";
import ts from "typescript";

const GETTID_NR = 224;
const createModule: CreateModule = () =>
  new ContainerModule(({ bind }) => {
    bind(TOKENS.SyscallContribution).toConstantValue({ nr: GETTID_NR, name: "gettid", path: "sys_gettid", handler: (_k, t) => t.pid });
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => [{ name: "sys_gettid", phase: "syscall.body", origin: "t-gettid", ops: [op("sys_gettid", "load", 1)] }] });
  });
const manifest = { id: "t-gettid", version: "1.0.0", apiVersion: "2.0", displayName: "gettid", description: "test plugin", options: {}, contributes: ["SyscallContribution", "PathContribution"] };
const plugin: PluginModule = { manifest, createModule };

const SOURCE = `import { workload } from "siglab";
export default workload({ name: "gettid", params: { n: 50 }, *main(t, { n }) {
  const t0 = t.rdtsc();
  let tid = 0;
  for (let i = 0; i < n; i++) tid = (yield* t.syscall(${GETTID_NR})) as number;
  t.report("gettid", (t.rdtsc() - t0) / n, "cycles");
  t.report("tid", tid, "pid");
} });
`;

const host = createNodeHost({ transpile: (s, f) => ts.transpileModule(s, { fileName: f, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText });
afterAll(() => host.close());

describe("@siglab/plugin-harness", () => {
  it("runs a plugin under test: its syscall, its path, its numbers", () => {
    const r = runWorkload({ plugins: [plugin], variant: "t-gettid", workload: { file: "gettid.ts", source: SOURCE }, cpu: "p6-coppermine@1000" });
    expect(r.error).toBeUndefined();
    expect(r.metrics.find((m) => m.name === "tid")?.value).toBe(1);
    expect(r.paths.find((p) => p.name === "sys_gettid")).toMatchObject({ origin: "t-gettid", count: 50 });
    const without = runWorkload({ workload: { file: "gettid.ts", source: SOURCE }, cpu: "p6-coppermine@1000" });
    expect(without.metrics.find((m) => m.name === "tid")?.value).toBe(-38); // ENOSYS
  });

  it("gives byte for byte the result the execution host gives (what --json prints)", async () => {
    const e = EXAMPLES.find((x) => x.id === "lat_sig_catch")!;
    const mine = runWorkload({ workload: "lat_sig_catch", variant: "sa-nofp:forceAll=true", cpu: "p4-northwood@2200", params: { iterations: 200 } });
    const hosted = await host.run({ spec: { workload: { id: e.id, file: e.file, source: e.source }, cpu: { id: "p4-northwood", mhz: 2200 }, variants: [{ id: "sa-nofp", options: { forceAll: "true" } }], params: { iterations: 200 }, seed: 1, timeline: false, budget: {} }, plugins: [], profiles: [] });
    expect(hosted.error).toBeUndefined();
    expect(JSON.stringify(mine)).toBe(JSON.stringify(hosted));
  });

  it("refuses what the manifest does not declare, naming the plugin and the point", () => {
    const sneaky: PluginModule = { manifest: { ...manifest, id: "sneaky", contributes: ["PathContribution"] }, createModule };
    const r = runWorkload({ plugins: [sneaky], variant: "sneaky", workload: "lat_syscall", params: { iterations: 10 } });
    expect(r.error?.message).toBe(`plugin 'sneaky' binds SyscallContribution but its manifest does not list it in "contributes"`);
  });

  it("loads an arrow module that returns its last bind, and refuses an async one", () => {
    const arrow: PluginModule = { manifest: { ...manifest, id: "arrow", contributes: ["PathContribution"] }, createModule: () => new ContainerModule(({ bind }) => bind(TOKENS.PathContribution).toConstantValue({ paths: () => [] })) };
    expect(runWorkload({ plugins: [arrow], variant: "arrow", workload: "lat_syscall", params: { iterations: 10 } }).error).toBeUndefined();
    const later: PluginModule = { manifest: { ...manifest, id: "later" }, createModule: () => new ContainerModule(async () => {}) };
    const r = runWorkload({ plugins: [later], variant: "later", workload: "lat_syscall", params: { iterations: 10 } });
    expect(r.error?.message).toBe("plugin 'later' returned a promise from its ContainerModule callback: plugin modules load synchronously");
  });

  it("an unknown libc id in a workload is refused with the ids there are", () => {
    const source = `import { workload } from "siglab";\nexport default workload({ name: "l", libc: "musl", params: {}, *main(t) { yield* t.getpid(); } });\n`;
    const r = runWorkload({ workload: { file: "l.ts", source } });
    expect(r.error?.message).toBe("l.ts: unknown libc model 'musl' (libc models: glibc-2.2, glibc-modern; a plugin of the variant stack may add others)");
  });

  it("the harness entry of API 2.0-2.2, @siglab/plugin-api/harness (deprecated), still runs a plugin, with the same result", () => {
    const o = { plugins: [plugin], variant: "t-gettid", workload: { file: "gettid.ts", source: SOURCE }, cpu: "p6-coppermine@1000" };
    const old = runWorkload22(o);
    expect(old.error).toBeUndefined();
    expect(JSON.stringify(old)).toBe(JSON.stringify(runWorkload(o)));
  });
});
