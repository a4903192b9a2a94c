/**
 * The LMbench summary's rules (measured figures, errors, probe files) and the SMP choice's
 * validation and labels, without a DOM.
 */
import { describe, expect, it } from "vitest";
import { EXAMPLES } from "@siglab/core";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
import figures from "@siglab/cpu-profiles/calibration/figures.json";
import { cpuLabel, shortCpuLabel } from "../src/renderer/results/labels.js";
import { loadRunState, RUN_STATE_KEY, type StorageLike } from "../src/renderer/state/persist.js";
import { decodeShare, encodeShare } from "../src/renderer/state/share.js";
import { calibrationFigures, clockOfMachine, errorPercent, formatError, formatUs, LMBENCH_BENCHMARKS, measuredFor, parseProbe, ProbeError, summaryRows } from "../src/renderer/summary/lmbench.js";
import { smpOf, withSmp } from "../src/renderer/ui/run-config.js";

const storage = (value: unknown): StorageLike => {
  const m = new Map<string, string>([[RUN_STATE_KEY, JSON.stringify(value)]]);
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k) };
};

describe("LMbench summary", () => {
  it("has a shipped example reporting each benchmark's metric in µs", () => {
    for (const b of LMBENCH_BENCHMARKS) {
      const ex = EXAMPLES.find((e) => e.id === b.example);
      expect(ex, b.example).toBeDefined();
      // lat_ctx names its figure `${procs}p/0K ctxsw` (procs = 2 by default)
      expect(ex!.source).toContain(b.example === "lat_ctx" ? "p/0K ctxsw`, ctx / t.mhz" : `"${b.metric}"`);
      expect(ex!.source).toMatch(/"us"\)/);
    }
  });

  it("reads the calibration figures from figures.json: value, unit and the machine's clock", () => {
    const cal = calibrationFigures();
    expect(cal.map((f) => [f.id, f.benchmark, f.us, f.cpu])).toEqual([
      ["p4-lat-sig-catch", "lat_sig_catch", 3.091, { id: "p4-northwood", mhz: 2200 }],
      ["p4-lat-ctx-2p-0k", "lat_ctx", 0.9, { id: "p4-northwood", mhz: 2200 }],
    ]);
    // the value comes from the file, not from this code
    const edited = JSON.parse(JSON.stringify(figures)) as { figures: { id: string; value: number }[] };
    edited.figures.find((f) => f.id === "p4-lat-ctx-2p-0k")!.value = 1.25;
    expect(calibrationFigures(edited).find((f) => f.benchmark === "lat_ctx")!.us).toBe(1.25);
    expect(clockOfMachine("Intel Pentium III, about 820 MHz")).toBe(820);
    expect(clockOfMachine("not stated")).toBeNull();
  });

  it("puts a measured figure only on the baseline row of the machine it was measured on, with one CPU", () => {
    const p4 = { id: "p4-northwood", mhz: 2200 };
    const rows = summaryRows([p4, { ...p4, mhz: 3000 }, { ...p4, smp: 2 }], [[], [{ id: "sa-nofp" }]]);
    expect(rows).toHaveLength(6);
    const has = rows.map((r) => measuredFor(r, "lat_ctx")?.us ?? null);
    expect(has).toEqual([0.9, null, null, null, null, null]);
    expect(measuredFor(rows[0]!, "lat_syscall")).toBeNull();
  });

  it("computes and formats the error and µs figures", () => {
    expect(errorPercent(0.99, 0.9)).toBeCloseTo(10, 9);
    expect(formatError(errorPercent(0.99, 0.9)!)).toBe("+10.0 %");
    // no error relative to a measured 0: null (the table shows —, the TSV an empty cell), not ±Infinity
    expect(errorPercent(1, 0)).toBeNull();
    expect(formatError(-32.54)).toBe("−32.5 %");
    expect(formatError(0.01)).toBe("0.0 %");
    expect([formatUs(0.9), formatUs(3.091), formatUs(12.54), formatUs(827.8), formatUs(1234.5)]).toEqual(["0.900", "3.09", "12.5", "828", "1,235"]);
  });

  it("reads a probe's JSON, keeps the five benchmarks' figures and refuses malformed ones", () => {
    const p = parseProbe(JSON.stringify({ host: { cpuModel: "AMD EPYC", kernel: "Linux 6.18" }, figures: [
      { id: "lat_pipe", name: "Pipe latency", unit: "us", min: 13.05, median: 13.17, max: 13.24 },
      { id: "lat_proc_fork", name: "Process fork+exit", unit: "us", min: 816, median: 827, max: 867 },
    ] }));
    expect(p.host).toBe("AMD EPYC, Linux 6.18");
    expect(Object.keys(p.figures)).toEqual(["lat_pipe"]);
    expect(p.figures["lat_pipe"]).toMatchObject({ us: 13.17, min: 13.05, max: 13.24, kind: "probe" });
    expect(() => parseProbe("nope")).toThrow(ProbeError);
    expect(() => parseProbe("{}")).toThrow(/no figures list/);
    expect(() => parseProbe(JSON.stringify({ figures: [{ id: "lat_pipe", unit: "us", min: 1, median: "x", max: 2 }] }))).toThrow(/median is not a number/);
    expect(() => parseProbe(JSON.stringify({ figures: [{ id: "other", unit: "us", min: 1, median: 1, max: 1 }] }))).toThrow(/has none of the figures/);
  });
});

describe("SMP in the app", () => {
  it("sets smp on every CPU of the experiment only above 1, and reads the control back from CPUs", () => {
    expect(withSmp({ id: "p4-northwood", mhz: 2200, smp: 4 }, undefined)).toEqual({ id: "p4-northwood", mhz: 2200 });
    expect(withSmp({ id: "p4-northwood", mhz: 2200 }, 1)).toEqual({ id: "p4-northwood", mhz: 2200 });
    expect(withSmp({ id: "p4-northwood", mhz: 2200 }, 2)).toEqual({ id: "p4-northwood", mhz: 2200, smp: 2 });
    expect(smpOf([{ smp: 2 }, {}])).toBe(2);
    expect(smpOf([])).toBe(1);
  });

  it("labels an SMP machine ×N, long and short", () => {
    expect(cpuLabel({ id: "p4-northwood", mhz: 2200, smp: 2 }, BUILTIN_PROFILE_FILES)).toBe("Intel Pentium 4 (Northwood) @ 2200 MHz ×2");
    expect(shortCpuLabel({ id: "p4-northwood", mhz: 2200, smp: 2 }, BUILTIN_PROFILE_FILES)).toBe("P4 2.2 GHz ×2");
    expect(shortCpuLabel({ id: "p4-northwood", mhz: 2200, smp: 1 }, BUILTIN_PROFILE_FILES)).toBe("P4 2.2 GHz");
  });

  it("keeps the CPUs choice across reloads and refuses a bad one", () => {
    const base = { v: 1, cpus: [{ id: "p4-northwood", mhz: 2200 }], stacks: [[]], seed: 1, timeline: false };
    expect(loadRunState(storage({ ...base, smp: 4 })).value!.smp).toBe(4);
    expect(loadRunState(storage({ ...base, smp: 1 })).value!.smp).toBeUndefined();
    expect(loadRunState(storage({ ...base, smp: 9 })).note).toMatch(/smp: expected CPUs of the machine, an integer from 1 to 8/);
    expect(loadRunState(storage({ ...base, smp: 1.5 })).value).toBeNull();
  });

  it("carries smp in a shared link and validates it there", async () => {
    const config = { cpus: [{ id: "p4-northwood", mhz: 2200, smp: 2 }], stacks: [[]], params: {}, seed: 3 };
    const back = await decodeShare((await encodeShare({ name: "x", source: "", config })).slice("#share=".length));
    expect(back.config.cpus).toEqual([{ id: "p4-northwood", mhz: 2200, smp: 2 }]);
    const bad = await encodeShare({ name: "x", source: "", config: { ...config, cpus: [{ id: "p4-northwood", mhz: 2200, smp: 64 }] } });
    await expect(decodeShare(bad.slice("#share=".length))).rejects.toThrow(/config\.cpus\[0\]\.smp/);
  });
});
