/**
 * The three worked plugins of docs/plugin-authoring.md (examples/plugin-guide/), tested as the
 * third-party code they are: each file is bundled by esbuild to CommonJS with @siglab/plugin-api
 * left external (what a plugin's build does), then run in process with the harness and once
 * through the sandboxed execution host. For each: the mechanism (its paths, with its id as origin),
 * the speed (direction and a plausible range) and the hazard (present with the bug option only).
 */
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import ts from "typescript";
import * as api from "@siglab/plugin-api";
import type { ParamValue, PluginModule, RunResult, VariantSpec } from "@siglab/plugin-api";
import { runWorkload } from "../src/index.js";
import { createNodeHost } from "@siglab/builtin-plugins/host/node";
import { validateManifest } from "@siglab/core";

const GUIDE = fileURLToPath(new URL("../../../examples/plugin-guide/", import.meta.url));

/** esbuild, as a plugin's build script runs it: one CommonJS file, the plugin API external. */
function bundle(id: string): string {
  const out = buildSync({ entryPoints: [join(GUIDE, `${id}.ts`)], bundle: true, format: "cjs", platform: "neutral", target: "es2022", external: ["@siglab/plugin-api"], write: false, logLevel: "error" });
  return out.outputFiles[0]!.text;
}

/** Evaluates the bundle the way the host does: `require("@siglab/plugin-api")` is the API and nothing else resolves. */
function load(id: string): PluginModule & { manifest: api.PluginManifest } {
  const module = { exports: {} as Record<string, unknown> };
  const require = (m: string) => {
    if (m === "@siglab/plugin-api") return api;
    throw new Error(`${id}: require('${m}') is not available to a plugin`);
  };
  new Function("require", "module", "exports", bundle(id))(require, module, module.exports);
  return module.exports as unknown as PluginModule & { manifest: api.PluginManifest };
}

const workloadFile = (id: string, name: string) => ({ file: `${name}.ts`, source: readFileSync(join(GUIDE, id, `${name}.ts`), "utf8") });
const metric = (r: RunResult, name: string) => {
  const m = r.metrics.find((x) => x.name === name);
  if (!m) throw new Error(`no metric '${name}' (metrics: ${r.metrics.map((x) => x.name).join(", ")}; error: ${r.error?.message})`);
  return m.value;
};
const path = (r: RunResult, name: string) => r.paths.find((p) => p.name === name);

describe("sigtimedwait-batch: a system call and a checker", () => {
  const plugin = load("sigtimedwait-batch");
  const speed = workloadFile("sigtimedwait-batch", "batch_speed");
  const wakeup = workloadFile("sigtimedwait-batch", "batch_wakeup");
  const run = (workload: { file: string; source: string }, variant: string, params = {}) =>
    runWorkload({ plugins: [plugin], variant, cpu: "k7-palomino@1400", workload, params });

  it("mechanism and speed: one call collects the burst, cheaper per signal than one rt_sigtimedwait each", () => {
    const r = run(speed, "sigtimedwait-batch", { burst: 16, rounds: 20 });
    expect(r.error).toBeUndefined();
    expect(metric(r, "signals collected")).toBe(2 * 16 * 20);
    expect(path(r, "sys_rt_sigtimedwait_batch")).toMatchObject({ origin: "sigtimedwait-batch", count: 20 });
    expect(path(r, "rt_sigtimedwait_batch.dequeue")).toMatchObject({ origin: "sigtimedwait-batch", count: 15 * 20 });
    expect(path(r, "rt_sigtimedwait_batch.copy_siginfo")).toMatchObject({ origin: "sigtimedwait-batch", count: 16 * 20 });
    expect(r.counters["syscalls.rt_sigtimedwait_batch"]).toBe(20);
    const batch = metric(r, "batch: cycles per signal"), single = metric(r, "sigtimedwait: cycles per signal");
    expect(single).toBeGreaterThan(150); // a whole int $0x80 round trip per signal on the K7
    expect(single).toBeLessThan(500);
    expect(batch).toBeLessThan(single / 2); // one round trip per burst: dequeue + siginfo copy per signal
    expect(batch).toBeGreaterThan(30);
    expect(r.findings).toEqual([]);
  });

  it("hazard: sleeping with the awaited signal blocked, the caller wakes at its timeout; the checker says so", () => {
    const good = run(wakeup, "sigtimedwait-batch");
    const bad = run(wakeup, "sigtimedwait-batch:unblockWhileWaiting=false");
    expect(good.error).toBeUndefined();
    expect(bad.error).toBeUndefined();
    expect(metric(good, "signals collected")).toBe(1);
    expect(metric(good, "wake-up latency")).toBeLessThan(50);
    expect(good.findings).toEqual([]);
    expect(metric(bad, "signals collected")).toBe(1);
    expect(metric(bad, "wake-up latency")).toBeGreaterThan(30_000);
    expect(metric(bad, "time in rt_sigtimedwait_batch")).toBeGreaterThan(50_000); // the whole timeout
    expect(metric(good, "time in rt_sigtimedwait_batch")).toBeLessThan(20_000); // the child's nanosleep, rounded to a tick
    expect(bad.findings).toHaveLength(1);
    expect(bad.findings[0]).toMatchObject({ kind: "sigtimedwait-batch.sleeping-with-pending", evidence: { task: 1, signal: 32, variants: "sigtimedwait-batch" } });
  });
});

describe("vsyscall-gettimeofday: a libc model", () => {
  const plugin = load("vsyscall-gettimeofday");
  const vgtod = workloadFile("vsyscall-gettimeofday", "vgettimeofday");
  const run = (variant: string, workload = vgtod) => runWorkload({ plugins: [plugin], variant, cpu: "k7-palomino@1400", workload, params: { calls: 5000, ticks: 60 } });

  it("mechanism, speed and the same values as the system call", () => {
    const r = run("vsyscall-gettimeofday");
    // the guide's comparison: the same source without the libc line runs on glibc 2.2 (the system call)
    const syscallSource = { ...vgtod, source: vgtod.source.replace(/^\s*libc: "glibc-vsyscall",\n/m, "") };
    expect(syscallSource.source).not.toMatch(/libc: /);
    const base = run("vsyscall-gettimeofday", syscallSource);
    expect(r.error).toBeUndefined();
    expect(base.error).toBeUndefined();
    for (const p of ["vgettimeofday.xtime", "vgettimeofday.tsc", "vgettimeofday.retry"]) expect(path(r, p)).toMatchObject({ origin: "vsyscall-gettimeofday", phase: "user" });
    expect(path(r, "vgettimeofday.xtime")!.count).toBeGreaterThanOrEqual(5000 + 60 * 3);
    expect(path(r, "vxtime.update")).toMatchObject({ origin: "vsyscall-gettimeofday", phase: "irq.timer" });
    expect(path(r, "vxtime.update")!.count).toBe(r.counters["irq.timer"]);
    expect(path(base, "vgettimeofday.xtime")?.count ?? 0).toBe(0);
    const vsys = metric(r, "gettimeofday"), sys = metric(base, "gettimeofday");
    expect(vsys).toBeLessThan(0.3 * sys);
    expect(vsys).toBeGreaterThan(20);
    expect(Math.abs(metric(r, "gettimeofday system call") - sys) / sys).toBeLessThan(0.01);
    // ticks landed inside reads: the seqlock made them retry, and every value is the system call's
    expect(r.counters["vsyscall-gettimeofday.retries"]).toBeGreaterThan(5);
    expect(metric(r, "backwards steps")).toBe(0);
    expect(metric(r, "outside the system call's values")).toBe(0);
    expect(r.findings).toEqual([]);
    expect(metric(base, "backwards steps")).toBe(0);
    expect(metric(base, "outside the system call's values")).toBe(0);
  });

  it("hazard: without the seqlock retry a tick inside a read sends time back one tick", () => {
    const r = run("vsyscall-gettimeofday:seqlock=false");
    expect(r.error).toBeUndefined();
    const back = metric(r, "backwards steps");
    expect(back).toBeGreaterThan(3);
    expect(metric(r, "outside the system call's values")).toBeGreaterThanOrEqual(back);
    expect(r.counters["vsyscall-gettimeofday.retries"]).toBeUndefined();
    expect(r.findings).toHaveLength(1);
    const f = r.findings[0]!;
    expect(f.kind).toBe("vsyscall-gettimeofday.time-went-backwards");
    expect(f.evidence).toMatchObject({ task: 1, variants: "vsyscall-gettimeofday", occurrences: back });
    const step = (f.evidence["returnedUs"] as number) - (f.evidence["previousUs"] as number);
    expect(step).toBeLessThan(-9000); // about one tick (10 ms at HZ=100)
    expect(step).toBeGreaterThan(-10_001);
  });
});

/** Test-local: ecx/ebp after fork (the child returns into the stub) and after a restarted wait4. */
const FORK_AND_RESTART = `import { workload, SIGUSR1, SA_RESTART } from "siglab";
export default workload({ name: "fork and restart", params: {}, *main(t) {
  yield* t.sigaction(SIGUSR1, function* (h) { yield* h.getpid(); }, { flags: SA_RESTART });
  t.regs.set("ecx", 0x1111); t.regs.set("ebp", 0x2222);
  const parent = t.pid;
  yield* t.fork(function* (c) {
    c.report("child ecx", c.regs.get("ecx"), "value");
    c.report("child ebp", c.regs.get("ebp"), "value");
    yield* c.nanosleep(1e6);
    yield* c.kill(parent, SIGUSR1); // interrupts the parent's wait4: restarted after the handler
    return 0;
  });
  const r = yield* t.wait();
  t.report("wait", typeof r === "number" ? r : r.pid, "pid");
  t.report("parent ecx", t.regs.get("ecx"), "value");
  t.report("parent ebp", t.regs.get("ebp"), "value");
} });
`;

/** Test-local: signals from a device interrupt at arbitrary op boundaries (in user code, in the entry and exit paths). */
const ASYNC_SIGNALS = `import { workload, SIGUSR1, SA_RESTART } from "siglab";
export default workload({ name: "async signals", params: { iterations: 600 }, *main(t, { iterations }) {
  let caught = 0, ecx = 0, others = 0, children = 0;
  yield* t.sigaction(SIGUSR1, function* (h) { caught++; h.regs.set("ebp", 0x777); h.regs.set("ecx", 0x888); yield* h.getpid(); }, { flags: SA_RESTART });
  for (let i = 0; i < iterations; i++) {
    t.regs.set("ecx", 0x1000 + i); t.regs.set("edx", 0x2000 + i); t.regs.set("ebp", 0x3000 + i); t.regs.set("esi", 0x4000 + i);
    yield* t.compute(37 * (i % 23));
    if (i % 7 === 0) {
      yield* t.fork(function* (c) { return c.regs.get("ecx") === 0x1000 + i && c.regs.get("ebp") === 0x3000 + i ? 0 : 1; });
      const w = yield* t.wait(); // wait4: restarted after the handlers that interrupt it
      if (typeof w === "number" || w.status !== 0) children++;
    } else yield* t.getpid();
    if (t.regs.get("ecx") !== 0x1000 + i) ecx++;
    if (t.regs.get("edx") !== 0x2000 + i || t.regs.get("ebp") !== 0x3000 + i || t.regs.get("esi") !== 0x4000 + i) others++;
  }
  t.report("caught", caught, "signals"); t.report("ecx wrong", ecx, "calls"); t.report("others wrong", others, "calls"); t.report("children wrong", children, "children");
} });
`;
const irqSignals: PluginModule = {
  manifest: { id: "test-irq-signals", version: "1.0.0", apiVersion: "2.0", displayName: "test: SIGUSR1 from a device", description: "sends SIGUSR1 to pid 1 from a device interrupt", options: {}, contributes: ["KernelSetupContribution"] },
  createModule: () =>
    new api.ContainerModule(({ bind }) =>
      bind(api.TOKENS.KernelSetupContribution).toConstantValue({
        setup(k) {
          const arm = () => k.scheduleEvent(k.cycles + Math.round(3000 * (0.5 + k.random())), "device", fire);
          const fire = () => {
            const t = k.tasks.get(1);
            if (t && t.state !== "zombie" && t.state !== "dead") k.signal.send_sig_info(10, { signo: 10, errno: 0, code: 0 }, t);
            arm();
          };
          arm();
        },
      }),
    ),
};

describe("k7-syscall-entry: an entry mechanism", () => {
  const plugin = load("k7-syscall-entry");
  const ecx = workloadFile("k7-syscall-entry", "syscall_ecx");
  const run = (variant: string | undefined, workload: string | { file: string; source: string }, cpu = "k7-palomino@1400", params = {}) =>
    runWorkload({ plugins: [plugin], variant, cpu, workload, params });

  it("mechanism and speed: getpid through SYSCALL/SYSRET, cheaper than int $0x80 on the K7", () => {
    const base = run(undefined, "lat_syscall", "k7-palomino@1400", { iterations: 5000, call: "getpid" });
    const r = run("k7-syscall-entry", "lat_syscall", "k7-palomino@1400", { iterations: 5000, call: "getpid" });
    expect(r.error).toBeUndefined();
    for (const p of ["k7-syscall-entry.stub", "k7-syscall-entry.entry", "k7-syscall-entry.exit_test", "k7-syscall-entry.sysret", "k7-syscall-entry.stub_tail"]) {
      expect(path(r, p), p).toMatchObject({ origin: "k7-syscall-entry" });
      expect(path(r, p)!.count, p).toBeGreaterThan(5000);
    }
    expect(path(r, "system_call")?.count ?? 0).toBe(0);
    expect(path(r, "restore_all")?.count ?? 0).toBeLessThan(5); // only returns that had work
    expect(path(r, "k7-syscall-entry.stub")!.ops.map((o) => o.op)).toContain("syscall");
    expect(path(r, "k7-syscall-entry.sysret")!.ops.map((o) => o.op)).toContain("sysret");
    const int80 = metric(base, "getpid"), fast = metric(r, "getpid");
    // cheaper, by less than the int/iret alone would suggest: the entry's sti is 27 cycles on the K7
    // (Agner Fog's reciprocal throughput) against int $0x80's exit, which re-enables interrupts in iret
    expect(fast).toBeLessThan(0.95 * int80);
    expect(fast).toBeGreaterThan(0.4 * int80);
    expect(r.findings).toEqual([]);
  });

  it("refuses a CPU without SYSCALL, naming the plugin and the CPU", () => {
    const r = run("k7-syscall-entry", "lat_syscall", "p6-coppermine@1000", { iterations: 10 });
    expect(r.error?.kind).toBe("plugin");
    expect(r.error?.message).toBe("plugin 'k7-syscall-entry': CPU 'Intel Pentium III (Coppermine)' (p6-coppermine) has no SYSCALL/SYSRET in 32-bit mode (an AMD feature: the K7 has it, Intel CPUs only in 64-bit mode) — run this CPU without the k7-syscall-entry variant");
  });

  it("hazard: the naive stub returns the return address in ecx; the ia32 stub keeps ecx and ebp, through signals too", () => {
    const good = run("k7-syscall-entry", ecx);
    const bad = run("k7-syscall-entry:stub=naive", ecx);
    const base = run(undefined, ecx);
    for (const r of [good, bad, base]) {
      expect(r.error).toBeUndefined();
      expect(metric(r, "signals caught")).toBe(20);
      expect(r.findings).toEqual([]);
    }
    expect(metric(good, "ecx kept")).toBe(1);
    expect(metric(good, "ebp kept")).toBe(1);
    expect(metric(base, "ecx kept")).toBe(1);
    expect(metric(bad, "ecx kept")).toBe(0);
    expect(metric(bad, "ecx at the end")).toBe(api.SYSCALL_EIP);
    expect(metric(bad, "ebp kept")).toBe(1);
    // signals were delivered on the way out of kill() (iret), their handlers' getpid used SYSRET
    expect(path(good, "restore_all")!.count).toBeGreaterThanOrEqual(40);
    // a tail for every return into the stub: the loop's 200 calls, the handlers' 20, sigaction
    expect(path(good, "k7-syscall-entry.stub_tail")!.count).toBe(200 + 20 + 1);
    expect(path(good, "k7-syscall-entry.sysret")!.count).toBe(200 + 20 + 1 - 20); // the kills returned by iret
  });

  it("signals at arbitrary points (on the way out of the stub, in fork children, restarting wait4) leave the registers alone", () => {
    const async = (stub?: string) =>
      runWorkload({ plugins: [plugin, irqSignals], variant: ["test-irq-signals", ...(stub ? [`k7-syscall-entry:stub=${stub}`] : [])], cpu: "k7-palomino@1400", workload: { file: "async.ts", source: ASYNC_SIGNALS } });
    const base = async(), good = async("x86-64-ia32"), bad = async("naive");
    for (const r of [base, good, bad]) {
      expect(r.error).toBeUndefined();
      expect(metric(r, "caught")).toBeGreaterThan(100);
      expect(metric(r, "others wrong")).toBe(0);
      expect(r.findings).toEqual([]); // the core's signal-transparency checker included
    }
    expect(good.counters["signals.syscall_restarts"]).toBeGreaterThan(10);
    expect(metric(good, "ecx wrong")).toBe(0);
    expect(metric(base, "ecx wrong")).toBe(0);
    expect(metric(good, "children wrong")).toBe(0);
    expect(metric(bad, "ecx wrong")).toBe(600);
    expect(metric(bad, "children wrong")).toBe(Math.ceil(600 / 7));
  });

  it("a fork child and a restarted system call come back with the caller's registers", () => {
    const r = run("k7-syscall-entry", { file: "fork_restart.ts", source: FORK_AND_RESTART });
    expect(r.error).toBeUndefined();
    expect(r.findings).toEqual([]);
    expect(r.counters["signals.syscall_restarts"]).toBe(1);
    for (const who of ["child", "parent"]) {
      expect(metric(r, `${who} ecx`)).toBe(0x1111);
      expect(metric(r, `${who} ebp`)).toBe(0x2222);
    }
  });
});

describe("the guide's plugins as third-party code", () => {
  const cases: { id: string; variant: VariantSpec; workload: { file: string; source: string }; params: Record<string, ParamValue> }[] = [
    { id: "sigtimedwait-batch", variant: { id: "sigtimedwait-batch", options: { unblockWhileWaiting: false } }, workload: workloadFile("sigtimedwait-batch", "batch_wakeup"), params: {} },
    { id: "vsyscall-gettimeofday", variant: { id: "vsyscall-gettimeofday", options: { seqlock: false } }, workload: workloadFile("vsyscall-gettimeofday", "vgettimeofday"), params: { calls: 1000, ticks: 20 } },
    { id: "k7-syscall-entry", variant: { id: "k7-syscall-entry" }, workload: workloadFile("k7-syscall-entry", "syscall_ecx"), params: {} },
  ];
  const host = createNodeHost({ transpile: (s, f) => ts.transpileModule(s, { fileName: f, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText });
  afterAll(() => host.close());

  it("type-check against the published declarations (dist/index.d.ts, the workload API)", () => {
    const cfg = ts.getParsedCommandLineOfConfigFile(join(GUIDE, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n")); } })!;
    expect(cfg.fileNames.filter((f) => f.includes("examples/plugin-guide/"))).toHaveLength(7);
    const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram(cfg.fileNames, cfg.options));
    expect(ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => GUIDE, getNewLine: () => "\n" })).toBe("");
  });

  it("manifests are plugin.json as a third-party plugin ships it", () => {
    for (const { id } of cases) {
      const m = load(id).manifest;
      expect(m).toMatchObject({ id, version: "1.0.0", apiVersion: "2.0", main: "dist/index.cjs" });
      expect(JSON.parse(JSON.stringify(m))).toEqual(m);
      expect(validateManifest(JSON.parse(JSON.stringify(m)), `${id}/plugin.json`)).toEqual(m);
    }
    expect(load("k7-syscall-entry").manifest.replaces).toEqual(["EntryMechanism"]);
  });

  it.each(cases)("$id: deterministic in process, and byte for byte the same through the sandboxed host", async ({ id, variant, workload, params }) => {
    const plugin = load(id);
    const inProcess = () => runWorkload({ plugins: [plugin], variant: [variant], cpu: "k7-palomino@1400", workload, params });
    const a = inProcess(), b = inProcess();
    expect(a.error).toBeUndefined();
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const source = { id, manifest: plugin.manifest, origin: `examples/plugin-guide/${id}`, main: "dist/index.cjs", files: { "dist/index.cjs": bundle(id) } };
    const hosted = await host.run({ spec: { workload: { id: workload.file.replace(/\.ts$/, ""), ...workload }, cpu: { id: "k7-palomino", mhz: 1400 }, variants: [variant], params, seed: 1, timeline: false, budget: {} }, plugins: [source], profiles: [] });
    expect(hosted.error).toBeUndefined();
    expect(JSON.stringify(hosted)).toBe(JSON.stringify(a));
  });
});

describe("docs/plugin-authoring.md", () => {
  it("quotes each worked plugin as it is in examples/plugin-guide (so the guide's code runs)", () => {
    const guide = readFileSync(fileURLToPath(new URL("../../../docs/plugin-authoring.md", import.meta.url)), "utf8");
    const quoted = [...guide.matchAll(/<!-- guide-example: (\S+) -->\n```ts\n([\s\S]*?)\n```/g)];
    expect(quoted.map((m) => m[1])).toEqual(["sigtimedwait-batch", "vsyscall-gettimeofday", "k7-syscall-entry"].map((id) => `examples/plugin-guide/${id}.ts`));
    for (const [, file, code] of quoted) expect(code, `${file} differs from its quote in the guide`).toBe(readFileSync(join(GUIDE, "../..", file!), "utf8").trimEnd());
  });
});
