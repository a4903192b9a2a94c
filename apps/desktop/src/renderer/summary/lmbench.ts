/**
 * The LMbench-style summary's rules, without a DOM: the benchmarks, rows, calibration figures and
 * simulated figures are @siglab/core/figure's (the CLI's `siglab summary` draws from the same);
 * here: the error of a simulated figure against a measured one and a probe of this machine. Every
 * figure is in microseconds.
 */
import { signedErrorPercent, type HostKernelFacts, readVirtualization, virtualizationWarning, type HostVirtualization } from "@siglab/core/common";
import { LMBENCH_BENCHMARKS, type MeasuredFigure } from "@siglab/core/figure";
import { isRecord } from "../state/validate.js";

export { calibrationFigures, clockOfMachine, formatUs, LMBENCH_BENCHMARKS, measuredFor, simulatedUs, summaryRows } from "@siglab/core/figure";
export type { CalibrationFigure, LmbenchBenchmark, MeasuredFigure, SummaryRow } from "@siglab/core/figure";

/**
 * Signed relative error of simulated against measured, in percent ((sim − measured) / measured):
 * core's signedErrorPercent. Null when measured is not positive (lmbench's settime(0) for a
 * subtraction that came out negative): there is no error relative to 0.
 */
export function errorPercent(simulated: number | null, measured: number | null | undefined): number | null {
  return signedErrorPercent(simulated, measured);
}

/** "+4.3 %", "−12.0 %", "0.0 %" */
export function formatError(pct: number): string {
  const r = Math.round(pct * 10) / 10;
  return r > 0 ? `+${r.toFixed(1)} %` : r < 0 ? `−${(-r).toFixed(1)} %` : "0.0 %";
}

// ---- a probe of this machine (`siglab probe --json`) ------------------------------------------------

export class ProbeError extends Error {}

/** What the summary keeps of a probe: the host's name, its CPU, its kernel's mitigations and the five benchmarks' figures. */
export interface ProbeSummary {
  host: string;
  figures: Record<string, MeasuredFigure>;
  /** the CPU as the probe read it (vendor and CPUID family/model): which profile matches it */
  cpu: { vendor?: string; cpuid?: { family: number; model: number }; cpuModel?: string };
  /** the kernel's lines of /sys/devices/system/cpu/vulnerabilities/ that are not "Not affected" */
  mitigations: [string, string][];
  /** what the simulated kernel's options are read off (every vulnerabilities line, the CPU flags, the kernel) */
  kernel: HostKernelFacts;
  /** host.virtualization: whether the probe measured a virtual machine; null when the probe does not say */
  virtualization: HostVirtualization | null;
}

/** The warning to show beside a probe of a virtual machine ("Warning: this machine is a virtual machine …"), or null. */
export function probeVmWarning(p: Pick<ProbeSummary, "virtualization"> | null): string | null {
  const w = virtualizationWarning(p?.virtualization);
  return w ? `Warning: ${w}` : null;
}

/** Largest probe file read (a probe's JSON is a few KB). */
export const MAX_PROBE_BYTES = 1024 * 1024;

/**
 * Reads `siglab probe --json` output: `{ host, figures: [{ id, name, unit: "us", min, median,
 * max }] }`. Validated field by field; figures of other benchmarks are ignored.
 */
export function parseProbe(text: string): ProbeSummary {
  if (text.length > MAX_PROBE_BYTES) throw new ProbeError(`the file is larger than ${MAX_PROBE_BYTES / 1024} KB; a probe's JSON is a few KB`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ProbeError("it is not JSON: save the output of `siglab probe --json -o my-machine.json`");
  }
  if (!isRecord(doc) || !Array.isArray(doc["figures"])) throw new ProbeError("it is not a probe's JSON (no figures list): save the output of `siglab probe --json`");
  const host = isRecord(doc["host"]) ? doc["host"] : {};
  const name = [host["cpuModel"], host["kernel"] ?? host["kernelVersion"]].filter((x): x is string => typeof x === "string" && x.length > 0).map((x) => x.slice(0, 120)).join(", ");
  const figures: Record<string, MeasuredFigure> = {};
  for (const f of doc["figures"] as unknown[]) {
    if (!isRecord(f)) continue;
    const b = LMBENCH_BENCHMARKS.find((x) => x.probeId === f["id"]);
    if (!b) continue;
    const [min, median, max] = [f["min"], f["median"], f["max"]];
    if (f["unit"] !== "us") throw new ProbeError(`figure ${b.probeId}: expected unit "us", got ${JSON.stringify(f["unit"])?.slice(0, 20)}`);
    for (const [k, v] of [["min", min], ["median", median], ["max", max]] as const) {
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new ProbeError(`figure ${b.probeId}: ${k} is not a number of µs`);
    }
    figures[b.example] = { kind: "probe", id: b.probeId, us: median as number, min: min as number, max: max as number, source: `siglab probe (${String(f["name"] ?? b.name).slice(0, 80)}, median)` };
  }
  if (Object.keys(figures).length === 0) throw new ProbeError(`it has none of the figures ${LMBENCH_BENCHMARKS.map((b) => b.probeId).join(", ")}`);
  const cpu: ProbeSummary["cpu"] = {};
  if (typeof host["vendor"] === "string" && host["vendor"].length <= 40) cpu.vendor = host["vendor"];
  if (typeof host["cpuModel"] === "string") cpu.cpuModel = host["cpuModel"].slice(0, 120);
  const id = host["cpuid"];
  if (isRecord(id) && Number.isInteger(id["family"]) && Number.isInteger(id["model"])) cpu.cpuid = { family: id["family"] as number, model: id["model"] as number };
  const mitigations: [string, string][] = isRecord(host["mitigations"])
    ? Object.entries(host["mitigations"]).filter((e): e is [string, string] => typeof e[1] === "string" && !/^not affected$/i.test(e[1].trim())).slice(0, 40).map(([k, v]) => [k.slice(0, 60), v.slice(0, 200)])
    : [];
  const str = (v: unknown, max: number): string | null => (typeof v === "string" ? v.slice(0, max) : null);
  const kernel: HostKernelFacts = {
    mitigations: isRecord(host["mitigations"]) ? Object.fromEntries(Object.entries(host["mitigations"]).filter((e): e is [string, string] => typeof e[1] === "string").slice(0, 40).map(([k, v]) => [k.slice(0, 60), v.slice(0, 200)])) : {},
    flags: Array.isArray(host["flags"]) ? host["flags"].filter((f): f is string => typeof f === "string" && f.length <= 40).slice(0, 600) : [],
    kernel: str(host["kernel"], 120),
    kernelVersion: str(host["kernelVersion"], 300),
  };
  return { host: name || "this machine", figures, cpu, mitigations, kernel, virtualization: readVirtualization(host["virtualization"]) };
}
