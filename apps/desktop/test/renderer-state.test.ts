/**
 * The renderer's pure parts (issue 13): CPU features of a workload and the CPU preselection, the
 * saved run configuration, shareable links, source links, run labels, the phase palette, the path
 * diff and the one-line run errors. No DOM: these are the rules the e2e tests exercise in Chromium.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXAMPLES } from "@siglab/core";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
import type { PathOpStat, RunResult } from "../src/common/contracts.js";
import { checkSourceUrlTemplate, DEFAULT_SOURCE_URL_TEMPLATE, sourceUrl } from "../src/common/url-policy.js";
import { adjustCpus, DEFAULT_CPU, describeAdjustment, featureNeeds, registersUsed } from "../src/renderer/state/cpu-features.js";
import { loadLayout, loadOpenDoc, loadRunState, loadSettings, MAX_PARAM_DOCS, rememberParams, RUN_STATE_KEY, LAYOUT_KEY, SETTINGS_KEY, type StorageLike } from "../src/renderer/state/persist.js";
import { decodeShare, encodeShare, findShareFragment, MAX_LINK_CHARS, ShareError, type SharePayload } from "../src/renderer/state/share.js";
import { clockLabel, shortCpuLabel, shortRunLabels } from "../src/renderer/results/labels.js";
import { orderPhases, phaseColors } from "../src/renderer/results/palette.js";
import { OKABE_ITO } from "@siglab/core/figure";
import { alignOps, counterpart, defaultPair, diffPath, fnDeltas, pathSummary } from "../src/renderer/results/path-diff.js";
import { describeRunError, runErrorLine } from "../src/renderer/results/errors.js";
import { restoredRunConfig } from "../src/renderer/state/restore.js";
import { recentLabel } from "../src/renderer/state/recent.js";
import { optionValue } from "../src/renderer/ui/run-config.js";

const source = (id: string): string => EXAMPLES.find((e) => e.id === id)!.source;

describe("CPU features a workload needs", () => {
  it("defaults to the CLI's CPU at the profile's default clock", () => {
    const cli = readFileSync(new URL("../../cli/src/commands/run.ts", import.meta.url), "utf8");
    expect(/export const DEFAULT_CPU = "([^"]+)"/.exec(cli)?.[1]).toBe(DEFAULT_CPU.id);
    expect(BUILTIN_PROFILE_FILES.find((p) => p.id === DEFAULT_CPU.id)?.clock.defaultMhz).toBe(DEFAULT_CPU.mhz);
  });

  it("finds SSE registers used outside try blocks, not the guarded ones of the UML examples", () => {
    expect(registersUsed(source("sa_nofp_hazard"))).toContain("xmm0");
    expect(registersUsed(source("longjmp_handler")).length).toBeGreaterThan(0);
    for (const id of ["uml_tt", "uml_jail", "uml_skas", "uml_compare", "lat_sig_catch", "lat_syscall"]) expect(registersUsed(source(id)), id).toEqual([]);
    expect(registersUsed(`// t.fpu.set("xmm0")\nconst s = "not xmm0"; /* "xmm1" */ yield* t.fpu.set('ymm2', []);`)).toEqual(["ymm2"]);
    expect(registersUsed(`try { yield* t.fpu.set("xmm0", [1]); } catch { } yield* t.fpu.set("zmm3", [])`)).toEqual(["zmm3"]);
    expect(registersUsed(`if (x) { try { a("xmm0") } finally {} } b({ r: "xmm5" })`)).toEqual(["xmm5"]);
  });

  it("needs SEP for a stack with sysenter", () => {
    expect(featureNeeds("", [[], [{ id: "sysenter" }]])).toEqual([{ feature: "sep", because: "sysenter", from: "variant" }]);
    expect(featureNeeds(source("sa_nofp_hazard"), [[]]).map((n) => n.feature)).toEqual(["sse"]);
  });

  it("replaces CPUs that lack a feature, keeps those that have it, says so", () => {
    const profiles = BUILTIN_PROFILE_FILES;
    const sse = featureNeeds(`t.fpu.set("xmm0")`, [[]]);
    const onlyP5 = adjustCpus([{ id: "p5-p54c", mhz: 133 }], profiles, sse);
    expect(onlyP5.cpus).toEqual([DEFAULT_CPU]);
    expect(onlyP5.added).toEqual(DEFAULT_CPU);
    const text = describeAdjustment(onlyP5, sse, profiles, (c) => `${c.id}@${c.mhz}`);
    expect(text).toMatch(/Intel Pentium \(P54C\) lacks SSE registers \(the workload uses xmm0\): selected p4-northwood@2200 instead/);
    const mixed = adjustCpus([{ id: "p5-p54c", mhz: 133 }, { id: "p6-coppermine", mhz: 1000 }], profiles, sse);
    expect(mixed.cpus).toEqual([{ id: "p6-coppermine", mhz: 1000 }]);
    expect(mixed.added).toBeNull();
    const fine = [{ id: "k7-palomino", mhz: 1400 }];
    expect(adjustCpus(fine, profiles, sse).cpus).toBe(fine);
    expect(adjustCpus([{ id: "p6-pentium-pro", mhz: 200 }], profiles, featureNeeds("", [[{ id: "sysenter" }]])).cpus).toEqual([DEFAULT_CPU]);
    // linux6 (the linux-6 preset) needs long mode: the P4 default gives way to a 64-bit CPU
    const lm = featureNeeds("", [[{ id: "linux6" }]]);
    expect(lm).toEqual([{ feature: "lm", because: "linux6", from: "variant" }]);
    const modern = adjustCpus([DEFAULT_CPU], profiles, lm);
    expect(modern.removed.map((x) => x.cpu)).toEqual([DEFAULT_CPU]);
    expect(profiles.find((p) => p.id === modern.cpus[0]!.id)!.features.lm).toBe(true);
    const impossible = adjustCpus([{ id: "p5-p54c", mhz: 133 }], [BUILTIN_PROFILE_FILES.find((p) => p.id === "p5-p54c")!], sse);
    expect(impossible.impossible).toBe(true);
  });
});

class MemoryStorage implements StorageLike {
  readonly m = new Map<string, string>();
  getItem(k: string): string | null {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.m.set(k, v);
  }
  removeItem(k: string): void {
    this.m.delete(k);
  }
}

describe("the run configuration kept across reloads", () => {
  const good = { v: 1, cpus: [{ id: "p4-northwood", mhz: 2400 }], stacks: [[], [{ id: "sa-nofp" }]], seed: 7, timeline: true, params: { "example:lat_sig_catch": { iterations: 50 } } };

  it("reads back a valid state", () => {
    const s = new MemoryStorage();
    s.setItem(RUN_STATE_KEY, JSON.stringify(good));
    expect(loadRunState(s)).toEqual({ value: { ...good } });
    expect(loadRunState(new MemoryStorage())).toEqual({ value: null });
  });

  it("ignores malformed states with a note, never throws", () => {
    const bad: unknown[] = ["{", "[]", "null", JSON.stringify({ ...good, v: 2 }), JSON.stringify({ ...good, cpus: [{ id: "x" }] }), JSON.stringify({ ...good, seed: -1 }),
      JSON.stringify({ ...good, stacks: "sa-nofp" }), JSON.stringify({ ...good, params: { k: { a: { b: 1 } } } }), JSON.stringify({ ...good, cpus: [{ id: "../x", mhz: 1 }] }), "x".repeat(300 * 1024)];
    for (const raw of bad) {
      const s = new MemoryStorage();
      s.setItem(RUN_STATE_KEY, raw as string);
      const r = loadRunState(s);
      expect(r.value, String(raw).slice(0, 40)).toBeNull();
      expect(r.note).toMatch(/^The saved run configuration was ignored: /);
    }
    const throwing: StorageLike = { getItem: () => { throw new Error("denied"); }, setItem: () => undefined, removeItem: () => undefined };
    expect(loadRunState(throwing).note).toMatch(/denied/);
  });

  it("keeps at most the most recent documents' parameters", () => {
    let all: Record<string, Record<string, number>> = {};
    for (let i = 0; i < MAX_PARAM_DOCS + 20; i++) all = rememberParams(all, `doc${i}`, { iterations: i }) as Record<string, Record<string, number>>;
    expect(Object.keys(all)).toHaveLength(MAX_PARAM_DOCS);
    expect(all[`doc${MAX_PARAM_DOCS + 19}`]).toEqual({ iterations: MAX_PARAM_DOCS + 19 });
    expect(all["doc0"]).toBeUndefined();
    expect(rememberParams({ a: { x: 1 } }, "a", {})).toEqual({});
  });

  it("reads layout and settings defensively", () => {
    const s = new MemoryStorage();
    s.setItem(LAYOUT_KEY, JSON.stringify({ resultsHeight: 321, phaseNorm: "iterations" }));
    expect(loadLayout(s)).toEqual({ resultsHeight: 321, phaseNorm: "iterations" });
    s.setItem(LAYOUT_KEY, JSON.stringify({ resultsHeight: "big" }));
    expect(loadLayout(s)).toEqual({});
    s.setItem(SETTINGS_KEY, JSON.stringify({ sourceUrlTemplate: "javascript:alert({fn})" }));
    expect(loadSettings(s, checkSourceUrlTemplate).note).toMatch(/template was ignored: links must be https/);
    s.setItem(SETTINGS_KEY, JSON.stringify({ sourceUrlTemplate: "https://lxr.example.org/ident?i={fn}" }));
    expect(loadSettings(s, checkSourceUrlTemplate).value).toEqual({ sourceUrlTemplate: "https://lxr.example.org/ident?i={fn}" });
  });
});

describe("shareable links", () => {
  const payload: SharePayload = {
    name: "lat_sig_catch",
    source: `import { workload } from "siglab";\n// é ✓ unicode survives\n`.repeat(20),
    config: { cpus: [{ id: "p4-northwood", mhz: 2200 }, { id: "p6-coppermine", mhz: 1000 }], stacks: [[], [{ id: "sa-nofp" }, { id: "lazy-fpu-frame", options: { mode: "ts" } }]], params: { iterations: 200 }, seed: 42, timeline: true, sweep: { param: "iterations", values: [10, 20] } },
  };

  it("round-trips the workload, the configuration and the seed, compressed", async () => {
    const frag = await encodeShare(payload);
    expect(frag).toMatch(/^#share=1\.[A-Za-z0-9_-]+$/);
    expect(frag.length).toBeLessThan(JSON.stringify(payload).length);
    const data = findShareFragment(`http://127.0.0.1:5178/${frag}`)!;
    expect(await decodeShare(data)).toEqual(payload);
    expect(findShareFragment("no link here")).toBeNull();
  });

  it("refuses malformed links with a clear error", async () => {
    const bad = async (data: string): Promise<string> => {
      try {
        await decodeShare(data);
      } catch (err) {
        expect(err).toBeInstanceOf(ShareError);
        return (err as Error).message;
      }
      throw new Error(`accepted ${data.slice(0, 30)}`);
    };
    expect(await bad("nodot")).toMatch(/not a SigLab link/);
    expect(await bad("2.abc")).toMatch(/newer SigLab \(format 2\)/);
    expect(await bad("1.a$b")).toMatch(/characters/);
    expect(await bad("1.")).toMatch(/no data/);
    expect(await bad("1.AAAAAAAAAAAA")).toMatch(/damaged/);
    const good = (await encodeShare(payload)).slice("#share=".length);
    expect(await bad(good.slice(0, good.length - 20))).toMatch(/damaged|cut/);
    expect(await bad("1." + "A".repeat(MAX_LINK_CHARS + 100))).toMatch(/longer than/);
    // valid compression, wrong contents
    const wrong = async (doc: unknown): Promise<string> => {
      const bytes = new TextEncoder().encode(JSON.stringify(doc));
      const packed = new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
      return bad(`1.${Buffer.from(packed).toString("base64url")}`);
    };
    expect(await wrong({ v: 1, name: "x", source: "s", config: { cpus: [], stacks: [[]], seed: 1 } })).toMatch(/at least one CPU/);
    expect(await wrong({ v: 1, name: "../../etc", source: "s", config: payload.config })).toMatch(/name/);
    expect(await wrong({ v: 1, name: "x", source: "s", config: { ...payload.config, seed: 2 ** 40 } })).toMatch(/seed/);
    expect(await wrong({ v: 1, name: "x", source: "s", config: { ...payload.config, params: { __proto__x: {} } } })).toMatch(/params/);
    // a deflate bomb: a small link that would decompress past the limit
    const bomb = new TextEncoder().encode(JSON.stringify({ v: 1, name: "x", source: " ".repeat(3 * 1024 * 1024), config: payload.config }));
    const packedBomb = new Uint8Array(await new Response(new Blob([bomb]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
    expect(await bad(`1.${Buffer.from(packedBomb).toString("base64url")}`)).toMatch(/larger than 1024 KB once decompressed/);
  });

  it("refuses to make a link too large to carry", async () => {
    const bytes = new Uint8Array(200_000);
    for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
    const noise = Array.from(bytes, (b) => String.fromCharCode(33 + (b % 90))).join("");
    const r = await encodeShare({ ...payload, source: noise }).then(() => "accepted", (e: Error) => e.message);
    expect(r).toMatch(/export a bundle instead/);
  });
});

describe("links from Linux functions to their source", () => {
  it("uses the configurable template for C identifiers only", () => {
    expect(sourceUrl(DEFAULT_SOURCE_URL_TEMPLATE, "do_signal")).toBe("https://elixir.bootlin.com/linux/2.4.18/C/ident/do_signal");
    expect(sourceUrl("https://lxr.example.org/source/ident?i={fn}&v=2.4.18", "setup_frame")).toBe("https://lxr.example.org/source/ident?i=setup_frame&v=2.4.18");
    for (const fn of ["int $0x80", "#NM", "user code", "retcode / __restore", "libc", "handler"]) expect(sourceUrl(DEFAULT_SOURCE_URL_TEMPLATE, fn), fn).toBeNull();
    expect(sourceUrl("http://insecure.example/{fn}", "do_signal")).toBeNull();
  });

  it("validates the template", () => {
    expect(checkSourceUrlTemplate(DEFAULT_SOURCE_URL_TEMPLATE)).toBeNull();
    expect(checkSourceUrlTemplate("https://elixir.bootlin.com/linux/2.4.18/C/ident/")).toMatch(/\{fn\}/);
    expect(checkSourceUrlTemplate("file:///{fn}")).toMatch(/https/);
    expect(checkSourceUrlTemplate("https://user:pw@host.example/{fn}")).toMatch(/https/);
    expect(checkSourceUrlTemplate("javascript:{fn}")).toMatch(/https/);
  });
});

const run = (cpu: string, mhz: number, variants: { id: string; options?: Record<string, string> }[], extra: Partial<RunResult> = {}): RunResult =>
  ({ workload: "w", cpu: { id: cpu, mhz }, variants, params: { iterations: 100 }, seed: 1, metrics: [], phases: {}, counters: {}, findings: [], totalCycles: 0, simSeconds: 0, paths: [], ...extra }) as RunResult;

describe("run labels, palette", () => {
  it("labels runs short, falling back to long labels when short ones collide", () => {
    expect(clockLabel(2200)).toBe("2.2 GHz");
    expect(clockLabel(733)).toBe("733 MHz");
    expect(shortCpuLabel({ id: "p4-northwood", mhz: 2200 }, BUILTIN_PROFILE_FILES)).toBe("P4 2.2 GHz");
    const labels = shortRunLabels([run("p4-northwood", 2200, []), run("p4-northwood", 2200, [{ id: "sa-nofp" }]), run("p6-coppermine", 1000, [{ id: "sa-nofp" }])], BUILTIN_PROFILE_FILES);
    expect(labels).toEqual(["P4 2.2 GHz · baseline", "P4 2.2 GHz · sa-nofp", "PIII 1 GHz · sa-nofp"]);
    const clash = shortRunLabels([run("p4-northwood", 2200, [{ id: "lazy-fpu-frame", options: { mode: "ts" } }]), run("p4-northwood", 2200, [{ id: "lazy-fpu-frame", options: { mode: "unmapped-page" } }])], BUILTIN_PROFILE_FILES);
    expect(clash[0]).toMatch(/mode=ts/);
  });

  it("groups phases by subsystem with one hue family each", () => {
    const phases = ["signal.frame", "syscall.exit", "fpu.nm_trap", "syscall.entry", "sched.schedule", "signal.fpu_save", "user", "ptrace.stop", "mm.mprotect", "aio.submit", "mystery.phase"];
    const ordered = orderPhases(phases);
    expect(ordered.slice(0, 1)).toEqual(["user"]);
    expect(ordered.indexOf("syscall.exit") - ordered.indexOf("syscall.entry")).toBe(1);
    expect(Math.abs(ordered.indexOf("signal.fpu_save") - ordered.indexOf("signal.frame"))).toBe(1);
    const colors = phaseColors(phases);
    expect(new Set(colors.values()).size).toBe(phases.length);
    const hueOf = (hex: string): number => {
      const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
      const max = Math.max(r, g, b), min = Math.min(r, g, b), d = max - min;
      const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
      return (h * 60 + 360) % 360;
    };
    const hue = (p: string): number => hueOf(colors.get(p)!);
    // each subsystem is an Okabe–Ito colour (shaded): syscall blue, signal vermillion, fpu bluish green
    for (const [p, base] of [["syscall.entry", OKABE_ITO.blue], ["syscall.exit", OKABE_ITO.blue], ["signal.frame", OKABE_ITO.vermillion], ["signal.fpu_save", OKABE_ITO.vermillion], ["fpu.nm_trap", OKABE_ITO.bluishGreen]] as const) {
      expect(Math.abs(hue(p) - hueOf(base)), p).toBeLessThan(4);
    }
    expect(Math.abs(hue("signal.frame") - hue("syscall.entry"))).toBeGreaterThan(60);
  });

  it("keeps six phases of one subsystem apart (issue 32: six near-identical browns)", () => {
    const six = ["signal.frame", "signal.fpu_save", "signal.fpu_restore", "signal.send", "signal.sigreturn", "signal.handler"];
    const colors = orderPhases(six).map((p) => phaseColors(six).get(p)!);
    const rgb = (hex: string): number[] => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
    const dist = (a: string, b: string): number => Math.hypot(...rgb(a).map((v, i) => v - rgb(b)[i]!));
    // neighbours in the stack (and so in the legend) differ by far more than a shade
    for (let i = 1; i < colors.length; i++) expect(dist(colors[i - 1]!, colors[i]!), `${colors[i - 1]} vs ${colors[i]}`).toBeGreaterThan(90);
    for (let i = 0; i < colors.length; i++) for (let j = i + 1; j < colors.length; j++) expect(dist(colors[i]!, colors[j]!)).toBeGreaterThan(25);
  });
});

describe("path diff", () => {
  const op = (fn: string, o: string, cycles: number): PathOpStat => ({ fn, op: o, cycles, repeat: 1 });
  const a = [op("do_signal", "call", 10), op("save_i387", "fxsave", 100), op("setup_frame", "store", 20), op("setup_frame", "store", 20)];
  const b = [op("do_signal", "call", 10), op("setup_frame", "store", 20), op("setup_frame", "store", 25), op("sa_nofp", "test", 2)];

  it("aligns ops and counts deltas per op and per function", () => {
    const rows = alignOps(a, b);
    expect(rows.map((r) => r.kind)).toEqual(["same", "removed", "same", "changed", "added"]);
    expect(rows.reduce((s, r) => s + r.delta, 0)).toBe(57 - 150);
    expect(fnDeltas(rows)).toEqual([
      { fn: "do_signal", a: 10, b: 10, delta: 0 },
      { fn: "save_i387", a: 100, b: 0, delta: -100 },
      { fn: "setup_frame", a: 40, b: 45, delta: 5 },
      { fn: "sa_nofp", a: 0, b: 2, delta: 2 },
    ]);
  });

  it("summarises both runs' paths and picks a sensible pair", () => {
    const ra = run("p4-northwood", 2200, [], { paths: [{ name: "setup_frame", phase: "signal.frame", origin: "core", count: 10, cycles: 1500, ops: a }, { name: "only_a", phase: "x", origin: "core", count: 1, cycles: 5, ops: [op("f", "o", 5)] }] });
    const rb = run("p4-northwood", 2200, [{ id: "sa-nofp" }], { paths: [{ name: "setup_frame", phase: "signal.frame", origin: "sa-nofp", count: 10, cycles: 570, ops: b }] });
    const sum = pathSummary(ra, rb);
    expect(sum[0]!.name).toBe("setup_frame");
    expect(sum[0]!.totalDelta).toBe(570 - 1500);
    expect(sum.find((x) => x.name === "only_a")!.b).toBeNull();
    const d = diffPath(ra, rb, "setup_frame");
    expect([d.perExecA, d.perExecB]).toEqual([150, 57]);
    expect(diffPath(ra, rb, "only_a").rows.map((r) => r.kind)).toEqual(["removed"]);
    const path = (name: string, phase: string) => ({ name, phase, origin: "core", count: 1, cycles: 1, ops: [op("f", "o", 1)] });
    const base = run("p4-northwood", 2200, [], { paths: [path("save_i387", "signal.fpu_save"), path("system_call", "syscall.entry")] });
    const nofp = run("p4-northwood", 2200, [{ id: "sa-nofp" }], { paths: [path("save_i387.nofp", "signal.fpu_save"), path("system_call", "syscall.entry")] });
    expect(counterpart("save_i387", base, nofp)).toBe("save_i387.nofp");
    expect(counterpart("save_i387.nofp", nofp, base)).toBe("save_i387");
    expect(counterpart("system_call", base, nofp)).toBe("system_call");
    expect(counterpart("only_a", ra, rb)).toBeNull();
    expect(diffPath(base, nofp, "save_i387", "save_i387.nofp").rows.map((r) => r.kind)).toEqual(["same"]);
    const other = run("p6-coppermine", 1000, []);
    expect(defaultPair([ra, other, rb])).toEqual([0, 2]);
    expect(defaultPair([ra, other])).toEqual([0, 1]);
    expect(defaultPair([ra])).toBeNull();
  });
});

describe("run errors, one clear line", () => {
  it("names the category once and the file once", () => {
    expect(runErrorLine({ kind: "config", message: "untitled-x.ts:6:21: ')' expected.", file: "untitled-x.ts" })).toBe("Syntax error at untitled-x.ts:6:21: ')' expected.");
    expect(runErrorLine({ kind: "compile", message: "new/untitled-x.ts:6:21: ')' expected.", file: "new/untitled-x.ts", line: 6, column: 21 })).toBe("Syntax error at untitled-x.ts:6:21: ')' expected.");
    expect(runErrorLine({ kind: "workload", message: "w.ts: task 1000 threw at cycle 12345: boom", file: "w.ts", line: 3, column: 5, task: 1000, cycle: 12345 })).toBe("Workload error at w.ts:3:5, task 1000, cycle 12,345: boom");
    expect(runErrorLine({ kind: "config", message: "plugin 'sysenter': CPU 'Intel Pentium (P54C)' (p5-p54c) has no SEP", file: "w.ts" })).toBe("Configuration error: plugin 'sysenter': CPU 'Intel Pentium (P54C)' (p5-p54c) has no SEP");
    expect(describeRunError({ kind: "budget", message: "w.ts: stopped after 1 s of host time" , file: "w.ts" }).category).toBe("Budget exceeded");
  });
});

describe("restored state is the state that ran (issue 32 item 4)", () => {
  it("reads a plugin option as the simulator does: the CLI's strings by the manifest's type, the default when absent", () => {
    const bool = { type: "boolean", default: false, description: "" } as const;
    const num = { type: "number", default: 2, description: "" } as const;
    expect(optionValue(bool, "true")).toBe(true);
    expect(optionValue(bool, "false")).toBe(false);
    expect(optionValue(bool, undefined)).toBe(false);
    expect(optionValue(num, "5")).toBe(5);
    expect(optionValue(num, "five")).toBe("five");
  });

  it("restores a bundle's or link's configuration with its options as they ran, CPUs per machine and repetitions", () => {
    const s = restoredRunConfig({ cpus: [{ id: "p4-northwood", mhz: 2200, smp: 2 }], stacks: [[], [{ id: "sa-nofp", options: { forceAll: "true" } }]], params: { iterations: 9 }, seed: 3, sweep: { param: "iterations", values: [1, 2] }, maxSeconds: 4, repeat: 5 });
    expect(s).toEqual({ cpus: [{ id: "p4-northwood", mhz: 2200 }], smp: 2, stacks: [{ variants: [] }, { variants: [{ id: "sa-nofp", options: { forceAll: "true" } }] }], params: { iterations: 9 }, seed: 3, sweep: { enabled: true, param: "iterations", values: "1, 2" }, timeline: false, maxSeconds: 4, repeat: 5 });
  });
});

describe("a tidy sidebar (issue 32 item 8)", () => {
  it("names a recent experiment by its CPUs, variant stacks and time", () => {
    const at = new Date(2026, 11, 1, 14, 5).getTime();
    const entry = (cpus: { id: string; mhz: number; smp?: number }[], stacks: { id: string; options?: Record<string, string | number | boolean> }[][]) =>
      ({ id: "x", title: "lat_syscall (lmbench) · 1 CPU × 1 stack", savedAtMs: at, workload: { kind: "example" as const, id: "lat_syscall" }, config: { workload: { id: "lat_syscall", file: "f.ts", source: "" }, cpus, stacks, params: {}, seed: 1 } });
    const a = recentLabel(entry([{ id: "p4-northwood", mhz: 2200 }], [[]]), BUILTIN_PROFILE_FILES, at);
    const b = recentLabel(entry([{ id: "p6-coppermine", mhz: 733, smp: 2 }], [[], [{ id: "sa-nofp", options: { forceAll: true } }]]), BUILTIN_PROFILE_FILES, at + 86_400_000 * 3);
    expect(a).toEqual({ title: "lat_syscall (lmbench)", detail: "P4 2.2 GHz · baseline · 14:05" });
    expect(b).toEqual({ title: "lat_syscall (lmbench)", detail: "PIII 733 MHz ×2 · baseline vs sa-nofp(forceAll=true) · 1 Dec" });
  });

  it("reads the open document back only when it is well formed", () => {
    const store = (v: unknown): StorageLike => ({ getItem: () => JSON.stringify(v), setItem: () => undefined, removeItem: () => undefined });
    expect(loadOpenDoc(store({ key: "example:lat_ctx" }))).toEqual({ key: "example:lat_ctx" });
    expect(loadOpenDoc(store({ key: "new:x", source: "s" }))).toEqual({ key: "new:x", source: "s" });
    expect(loadOpenDoc(store({ key: "user:../../etc" }))).toBeNull();
    expect(loadOpenDoc(store({ key: "new:x", source: 5 }))).toBeNull();
    expect(loadOpenDoc(store(["new:x"]))).toBeNull();
  });
});
