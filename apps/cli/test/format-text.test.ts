import { describe, expect, it } from "vitest";
import type { RunResult, TimelineEvent } from "@siglab/core";
import { duration, fmt, formatRun, formatTimeline, group, signalName, timelineCutLines, unitText, withSignalNames, workloadLabel } from "../src/format.js";
import { parseTimelineLimit } from "../src/commands/run.js";
import { workloadTitle } from "../src/catalog.js";

const base = (over: Partial<RunResult> = {}): RunResult => ({
  workload: "lat_sig_catch", cpu: { id: "p4-northwood", mhz: 2000 }, variants: [], params: {}, seed: 1,
  metrics: [{ name: "Signal handler overhead", value: 2.41234, unit: "us" }, { name: "catch cycles", value: 1234567.25, unit: "cycles" }],
  phases: { "signal.frame": 1234567, user: 1000 }, counters: {}, findings: [], totalCycles: 1235567.4, simSeconds: 1235567.4 / 2e9, paths: [], ...over,
});

describe("numbers as people read them", () => {
  it("groups digits, keeps a sensible precision, says µs and names signals", () => {
    expect(group(1234567.4)).toBe("1,234,567");
    expect(fmt(1234567.25)).toBe("1,234,567.3");
    expect(fmt(2.41234)).toBe("2.412");
    expect(fmt(0.0123456)).toBe("0.01235");
    expect(fmt(42)).toBe("42");
    expect(duration(0.0000495)).toBe("49.500 µs");
    expect(duration(0.001841)).toBe("1.841 ms");
    expect(unitText("us")).toBe("µs");
    expect(unitText("us/op")).toBe("µs/op");
    expect(unitText("users")).toBe("users");
    expect(signalName(10)).toBe("SIGUSR1");
    expect(signalName(33)).toBe("SIGRTMIN+1");
    expect(withSignalNames("xmm0 of task 1 was corrupted across signal 10 (handler state leaked)")).toBe("xmm0 of task 1 was corrupted across SIGUSR1 (handler state leaked)");
    expect(withSignalNames("signal 34 to task 2 was unblocked")).toBe("SIGRTMIN+2 to task 2 was unblocked");
  });

  it("a run's text: the workload's own name, grouped cycles, µs, signal names, repeats counted once", () => {
    const f = { severity: "error" as const, kind: "fpu-corruption", message: "xmm0 of task 1 was corrupted across signal 10 (handler state leaked into the interrupted context)", evidence: { occurrences: 1999 } };
    const text = formatRun(base({ findings: [f] }), { title: "lat_sig catch" });
    const lines = text.split("\n");
    expect(lines[0]).toBe("== lat_sig catch (lat_sig_catch) on p4-northwood@2000 MHz, baseline (seed 1)");
    expect(text).toMatch(/Signal handler overhead +2\.412 {2}µs/);
    expect(text).toMatch(/catch cycles +1,234,567\.3 {2}cycles/);
    expect(text).toMatch(/where the cycles go \(1,235,567 cycles, 617\.8 µs simulated\)/);
    expect(text).toMatch(/signal\.frame +1,234,567 +99\.9%/);
    expect(text).toMatch(/\[error\] fpu-corruption: xmm0 of task 1 was corrupted across SIGUSR1 \(handler state leaked into the interrupted context\) \(1,999 times\)/);
    expect(text).not.toMatch(/\bus\b|signal 10/);
    expect(workloadLabel("x", "x")).toBe("x");
    // the same finding for four registers is one sentence
    const regs = ["xmm0", "xmm1", "xmm2", "xmm3"].map((reg) => ({ ...f, message: f.message.replace("xmm0", reg), evidence: { register: reg, occurrences: 100 } }));
    const four = formatRun(base({ findings: regs }));
    expect(four).toMatch(/findings \(4\):\n {5}\[error\] fpu-corruption: xmm0, xmm1, xmm2 and xmm3 of task 1 were corrupted across SIGUSR1 \(handler state leaked into the interrupted context\) \(100 times each\)$/);
  });

  it("reads a file workload's own name from its source", () => {
    expect(workloadTitle({ id: "mine", source: `import { workload } from "siglab";\nexport default workload({\n  name: "my probe",\n  params: {},\n  *main(t) {} });` })).toBe("my probe");
    expect(workloadTitle({ id: "lat_sig_catch", source: "" })).toBe("lat_sig catch");
    expect(workloadTitle({ id: "none", source: "export default 1;" })).toBeUndefined();
  });
});

describe("--timeline in text and --timeline-limit", () => {
  const ev = (task: number, name: string, start: number, end: number, kind: TimelineEvent["kind"] = "kernel", cpu?: number): TimelineEvent => ({ task, kind, name, phase: kind === "user" ? "user" : "x", start, end, ...(cpu !== undefined ? { cpu } : {}) });

  it("prints per task its paths with µs offsets, folds repeats, elides the middle with a count, says when the timeline was cut", () => {
    const tl: TimelineEvent[] = [ev(0, "schedule", 0, 100)];
    for (let i = 0; i < 40; i++) tl.push(ev(1, i % 2 ? "system_call" : "sys_kill", 100 + i * 100, 200 + i * 100));
    tl.push(ev(1, "user_fp_op", 4100, 4200, "user"), ev(1, "user_fp_op", 4200, 4300, "user"));
    const text = formatTimeline(base({ timeline: tl, counters: { "timeline.dropped": 1234567 } }), 80);
    const lines = text.split("\n");
    expect(lines[0]).toBe("   timeline (43 events, the first of 1,234,610: --timeline-limit N records more; µs from the start of the run):");
    expect(lines[1]).toBe("     idle task (pid 0): 1 event (kernel 0.05 µs)");
    expect(lines[2]).toBe("       0.00 schedule");
    expect(lines[3]).toBe("     task 1: 42 events (kernel 2.00 µs, user 0.10 µs)");
    expect(text).toMatch(/0\.05 sys_kill → 0\.10 system_call → /);
    expect(text).toMatch(/… 25 more … → /);
    expect(text).toMatch(/2\.05 user_fp_op ×2$/);
    for (const l of lines.filter((x) => x.startsWith("       "))) expect(l.length).toBeLessThanOrEqual(80);
    expect(formatTimeline(base())).toBe("   timeline: none recorded");
    const smp = formatTimeline(base({ timeline: [ev(1, "a", 0, 1, "kernel", 0), ev(1, "b", 1, 2, "kernel", 1)] }));
    expect(smp).toMatch(/\[CPU 0\] 0\.00 a → \[CPU 1\] 0\.00 b/);
  });

  it("says on stderr which runs were cut, with their numbers and how to raise the bound", () => {
    const rs = [base(), base({ timeline: [], counters: { "timeline.dropped": 5 } })];
    expect(timelineCutLines(rs, [3, 7])).toEqual(["run 7 (p4-northwood@2000 baseline): the timeline stopped after 0 events; 5 more were not recorded (raise the bound with --timeline-limit N, up to 10,000,000)"]);
  });

  it("--timeline-limit takes 1 to 10,000,000 and refuses anything else with the range", () => {
    expect(parseTimelineLimit(undefined)).toBeUndefined();
    expect(parseTimelineLimit("50000")).toBe(50_000);
    expect(parseTimelineLimit("1,000,000")).toBe(1_000_000);
    expect(parseTimelineLimit(10_000_000)).toBe(10_000_000);
    for (const bad of ["0", "-5", "1.5", "abc", "10000001", true, "1e6"]) expect(() => parseTimelineLimit(bad), String(bad)).toThrow(/--timeline-limit: expected a whole number of timeline events from 1 to 10,000,000/);
  });
});
