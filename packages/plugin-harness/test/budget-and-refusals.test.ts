/**
 * The harness reports like the CLI instead of throwing or hanging: a plugin the host refuses (a
 * bad manifest, another plugin-API version), an unknown example or a variant written wrong come
 * back as the result's error; in a worker thread (runInWorker) a hook, an event handler or a
 * workload that loops ends with a budget error naming the plugin and the hook (or the workload),
 * and marking plugin code to name it does not change a run.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import * as api from "@siglab/plugin-api";
import { ContainerModule, type PluginManifest, type PluginModule } from "@siglab/plugin-api";
import { runInWorker, runWorkload } from "../src/index.js";

const tmp = mkdtempSync(join(tmpdir(), "siglab-harness-budget-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const manifest = (id: string, over: Partial<PluginManifest> = {}): PluginManifest => ({ id, version: "1.0.0", apiVersion: "2.1", displayName: id, description: "test plugin", options: {}, contributes: [], ...over });

/** A plugin folder as a third party builds one: plugin.json and a CommonJS main. */
function pluginFolder(id: string, m: PluginManifest | string, main: string): string {
  const dir = join(tmp, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "plugin.json"), typeof m === "string" ? m : JSON.stringify({ ...m, main: "index.cjs" }));
  writeFileSync(join(dir, "index.cjs"), main);
  return dir;
}

const SCHEDULER = (pick: string) => `
const { ContainerModule, TOKENS } = require("@siglab/plugin-api");
exports.createModule = () => new ContainerModule(({ rebind }) => {
  rebind(TOKENS.Scheduler).toDynamicValue(() => ({
    id: "sched",
    pick_next_task(k, prev) { ${pick} },
    update_process_times(k, p) { return k.baseline.scheduler.update_process_times(k, p); },
    reschedule_idle(k, p) { return k.baseline.scheduler.reschedule_idle(k, p); },
  }));
});`;
const schedulerManifest = (id: string) => manifest(id, { contributes: ["Scheduler"], replaces: ["Scheduler"] });

const BUDGET = { hostMs: 1500 };

describe("refusals are the result's error, not thrown (in process)", () => {
  const noop: PluginModule["createModule"] = () => new ContainerModule(() => {});

  it("a plugin of another plugin-API major fails the runs that name it, naming it and both versions; others run", () => {
    const future: PluginModule = { manifest: manifest("future", { apiVersion: "3.0" }), createModule: noop };
    const r = runWorkload({ plugins: [future], variant: "future", workload: "lat_syscall", params: { iterations: 10 } });
    expect(r.error?.kind).toBe("plugin");
    expect(r.error?.message).toMatch(/plugin 'future' targets plugin API 3\.0, but this SigLab implements plugin API 2\.4/);
    expect(r).toMatchObject({ workload: "lat_syscall", variants: [{ id: "future" }], metrics: [] });
    expect(runWorkload({ plugins: [future], workload: "lat_syscall", params: { iterations: 10 } }).error).toBeUndefined();
  });

  it("a bad manifest is refused naming the manifest and the field; one without an id fails every run", () => {
    const bad: PluginModule = { manifest: { ...manifest("bad"), contributes: "SyscallContribution" }, createModule: noop };
    const r = runWorkload({ plugins: [bad], variant: "bad", workload: "lat_syscall", params: { iterations: 10 } });
    expect(r.error?.kind).toBe("plugin");
    expect(r.error?.message).toMatch(/harness plugin 1\/plugin\.json: .*contributes/);
    const nameless: PluginModule = { manifest: { version: "1.0.0" }, createModule: noop };
    const n = runWorkload({ plugins: [nameless], workload: "lat_syscall", params: { iterations: 10 } });
    expect(n.error?.kind).toBe("plugin");
    expect(n.error?.message).toMatch(/harness plugin 1\/plugin\.json/);
  });

  it("an unknown example and a variant written wrong are config errors", () => {
    const r = runWorkload({ workload: "no_such_example" });
    expect(r.error).toMatchObject({ kind: "config" });
    expect(r.error?.message).toMatch(/^no example 'no_such_example' \(examples: .*lat_syscall/);
    expect(runWorkload({ workload: "lat_syscall", variant: "sa-nofp:forceAll" }).error).toMatchObject({ kind: "config", message: "variant sa-nofp:forceAll: expected key=value, got 'forceAll'" });
  });
});

describe("runInWorker: a host-time budget that names the plugin", () => {
  it("a hook that loops (Scheduler.pick_next_task)", async () => {
    const dir = pluginFolder("looping-hook", schedulerManifest("looping-hook"), SCHEDULER("for (;;) {}"));
    const r = await runInWorker({ plugins: [{ dir }], variant: "looping-hook", workload: "lat_ctx", budget: BUDGET });
    expect(r.error?.kind).toBe("budget");
    expect(r.error?.message).toBe("lat_ctx: stopped after 1.5 s of host time (the run's budget.hostMs) in plugin 'looping-hook' (Scheduler.pick_next_task), which had not returned");
  });

  it("an event handler that loops (a checker's handler of 'tick')", async () => {
    const main = `
const { ContainerModule, TOKENS } = require("@siglab/plugin-api");
exports.createModule = () => new ContainerModule(({ bind }) => {
  bind(TOKENS.InvariantChecker).toDynamicValue(() => ({ id: "looping-checker", attach(k) { k.events.on("tick", () => { for (;;) {} }); } }));
});`;
    const dir = pluginFolder("looping-checker", manifest("looping-checker", { contributes: ["InvariantChecker"] }), main);
    // a tick within the first millisecond of simulated time (a workload that only computes)
    const source = `import { workload } from "siglab";\nexport default workload({ name: "compute", params: {}, hz: 1000, *main(t) { yield* t.compute(10_000_000); } });\n`;
    const r = await runInWorker({ plugins: [{ dir }], variant: "looping-checker", workload: { file: "compute.ts", source }, budget: BUDGET });
    expect(r.error?.message).toMatch(/in plugin 'looping-checker' \(its handler of event 'tick'\), which had not returned$/);
  });

  it("a generator hook that loops after its first step (a blocking system call)", async () => {
    const main = `
const { ContainerModule, TOKENS } = require("@siglab/plugin-api");
exports.createModule = () => new ContainerModule(({ bind }) => {
  bind(TOKENS.SyscallContribution).toConstantValue({ nr: 250, name: "spin", blocking: true, *handler(k, t) { yield* k.sched.schedule(); for (;;) {} } });
});`;
    const dir = pluginFolder("looping-syscall", manifest("looping-syscall", { contributes: ["SyscallContribution"] }), main);
    const source = `import { workload } from "siglab";\nexport default workload({ name: "spin", params: {}, *main(t) { yield* t.syscall(250); } });\n`;
    const r = await runInWorker({ plugins: [{ dir }], variant: "looping-syscall", workload: { file: "spin.ts", source }, budget: BUDGET });
    expect(r.error?.message).toMatch(/in plugin 'looping-syscall' \(SyscallContribution\.handler\), which had not returned$/);
  });

  it("a workload that loops: no plugin code was running", async () => {
    const source = `import { workload } from "siglab";\nexport default workload({ name: "loop", params: {}, *main(t) { yield* t.getpid(); for (;;) {} } });\n`;
    const r = await runInWorker({ workload: { file: "loop.ts", source }, budget: BUDGET });
    expect(r.error).toMatchObject({ kind: "budget", message: "loop: stopped after 1.5 s of host time (the run's budget.hostMs) while the workload (loop.ts) or the simulator was running: no plugin code was" });
  });

  it("a hook that throws is the plugin's error, at its source line when the plugin ships a source map", async () => {
    const dir = join(tmp, "throwing-hook");
    mkdirSync(join(dir, "src"), { recursive: true });
    writeFileSync(join(dir, "plugin.json"), JSON.stringify({ ...manifest("throwing-hook", { contributes: ["SyscallContribution"] }), main: "dist/index.cjs" }));
    writeFileSync(join(dir, "src/index.ts"), `import { ContainerModule, TOKENS } from "@siglab/plugin-api";
export const createModule = () => new ContainerModule(({ bind }) => {
  bind(TOKENS.SyscallContribution).toConstantValue({ nr: 250, name: "boom", handler() {
    throw new Error("boom in the hook");
  } });
});
`);
    buildSync({ entryPoints: [join(dir, "src/index.ts")], bundle: true, format: "cjs", platform: "neutral", target: "es2022", external: ["@siglab/plugin-api"], outfile: join(dir, "dist/index.cjs"), sourcemap: true, logLevel: "error" });
    const source = `import { workload } from "siglab";\nexport default workload({ name: "boom", params: {}, *main(t) { yield* t.syscall(250); } });\n`;
    const r = await runInWorker({ plugins: [{ dir }], variant: "throwing-hook", workload: { file: "boom.ts", source }, budget: BUDGET });
    expect(r.error).toMatchObject({ kind: "plugin", file: join(dir, "src/index.ts"), line: 4 });
    expect(r.error?.message).toMatch(/^plugin 'throwing-hook' threw in .*\(.*throwing-hook\/src\/index\.ts:4:\d+\) at cycle [\d.]+: boom in the hook$/);
  });

  it("refusals in a worker too: another API version, a main not built", async () => {
    const future = pluginFolder("future-dir", manifest("future-dir", { apiVersion: "3.0", contributes: ["Scheduler"], replaces: ["Scheduler"] }), SCHEDULER("return k.baseline.scheduler.pick_next_task(k, prev);"));
    const r = await runInWorker({ plugins: [{ dir: future }], variant: "future-dir", workload: "lat_syscall", params: { iterations: 10 }, budget: BUDGET });
    expect(r.error).toMatchObject({ kind: "plugin" });
    expect(r.error?.message).toMatch(/targets plugin API 3\.0/);
    const unbuilt = pluginFolder("unbuilt", JSON.stringify({ ...manifest("unbuilt"), main: "dist/index.cjs" }), "");
    const u = await runInWorker({ plugins: [{ dir: unbuilt }], workload: "lat_syscall", budget: BUDGET });
    expect(u.error).toMatchObject({ kind: "plugin", message: `${join(unbuilt, "dist/index.cjs")}: the plugin's main file is missing (build the plugin first)` });
  });

  it("marking a plugin's code changes nothing: the guide's sigtimedwait-batch (a blocking system call, a checker on events) gives the in-process result", async () => {
    const guide = join(import.meta.dirname, "../../../examples/plugin-guide");
    const dir = join(tmp, "sigtimedwait-batch");
    mkdirSync(dir, { recursive: true });
    buildSync({ entryPoints: [join(guide, "sigtimedwait-batch.ts")], bundle: true, format: "cjs", platform: "neutral", target: "es2022", external: ["@siglab/plugin-api"], outfile: join(dir, "index.cjs"), logLevel: "error" });
    // the same built file, evaluated in this process as the host evaluates it
    const module = { exports: {} as PluginModule & { manifest: PluginManifest } };
    new Function("require", "module", "exports", readFileSync(join(dir, "index.cjs"), "utf8"))((m: string) => (m === "@siglab/plugin-api" ? api : undefined), module, module.exports);
    const plugin = module.exports;
    writeFileSync(join(dir, "plugin.json"), JSON.stringify({ ...plugin.manifest, main: "index.cjs" }));
    const workload = { file: "batch_speed.ts", source: readFileSync(join(guide, "sigtimedwait-batch/batch_speed.ts"), "utf8") };
    const o = { variant: "sigtimedwait-batch", cpu: "k7-palomino@1400", workload };
    const inWorker = await runInWorker({ ...o, plugins: [{ dir }] });
    expect(inWorker.error).toBeUndefined();
    expect(inWorker.paths.some((p) => p.origin === "sigtimedwait-batch")).toBe(true);
    expect(JSON.stringify(inWorker)).toBe(JSON.stringify(runWorkload({ ...o, plugins: [plugin] })));
  });
});
