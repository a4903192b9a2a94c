/**
 * `siglab probe [--json] [--repeat N] [--quick] [-o file] [--force] [--cc path] [--time-limit s]`:
 * measures this machine with lmbench3's methods (probe/siglab-probe.c, compiled on demand with the
 * system C compiler) and prints lmbench's figures with min/median/max; --json and -o add the host
 * facts (CPU model, microcode, kernel, mitigations, XSAVE features). Never needs root.
 * docs/modern.md describes each figure. Exit status: 0 measured, 1 the probe could not be built or
 * run, 2 bad arguments or a refused -o file. It imports nothing of the simulator's packages.
 */
import { fmt, group } from "../numbers.js";
import type { CAC } from "cac";
import { checkOutputTarget, OutputRefusal, writeOutputFile } from "../output.js";
import { buildProbe, ProbeError, runProbeBinary } from "../probe/build.js";
import { checkRawProbe, hostFacts, probeFigures, skippedFigures, type HostFacts, type ProbeFigure } from "../probe/figures.js";

export const DEFAULT_PROBE_REPEAT = 11;
/** lmbench's `enough` on a machine with a fine clock (compute_enough's first choice), microseconds */
export const ENOUGH_US = 5000;
export const QUICK_ENOUGH_US = 1000;

export interface ProbeDocument {
  host: HostFacts;
  figures: ProbeFigure[];
  skipped: { id: string; name: string; reason: string }[];
  probe: { source: string; sourceSha256: string; compiler: string; repeat: number; intervalUs: number; method: string };
}

function intOption(v: unknown, flag: string, min: number, max: number, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new ProbeError(`${flag}: expected an integer from ${min} to ${max}, got '${String(v)}'`, 2);
  return n;
}

export function runProbe(o: Record<string, unknown>): ProbeDocument {
  const repeat = intOption(o["repeat"], "--repeat", 1, 101, DEFAULT_PROBE_REPEAT);
  const timeLimitS = intOption(o["timeLimit"], "--time-limit", 5, 3600, 300);
  const enoughUs = o["quick"] ? QUICK_ENOUGH_US : ENOUGH_US;
  const cc = o["cc"] === undefined ? undefined : String(o["cc"]);
  const built = buildProbe(cc === undefined ? {} : { cc });
  const raw = checkRawProbe(runProbeBinary(built.binary, { repeat, enoughUs, timeLimitS }));
  return {
    host: hostFacts(raw),
    figures: probeFigures(raw),
    skipped: skippedFigures(raw),
    probe: {
      source: "probe/siglab-probe.c",
      sourceSha256: built.sourceSha256,
      compiler: built.compiler,
      repeat,
      intervalUs: enoughUs,
      method: "lmbench3's benchmp: iterations scaled until one interval lasts about intervalUs, then `repeat` intervals; microseconds per iteration",
    },
  };
}

const num = fmt;

export function formatProbe(d: ProbeDocument): string {
  const h = d.host;
  const lines: string[] = [];
  lines.push(`siglab probe: ${h.cpuModel ?? h.vendor ?? h.machine}${h.microcode ? ` (microcode ${h.microcode})` : ""}, ${h.kernel}, ${h.cpus} CPU${h.cpus === 1 ? "" : "s"} online`);
  lines.push(`lmbench3's methods: ${d.probe.repeat} repetitions of about ${d.probe.intervalUs / 1000} ms each; pinned to CPU ${h.cpuPinned}${h.cpuAcross !== null ? `, "across" partner on CPU ${h.cpuAcross}` : ""}`);
  lines.push("");
  const w = Math.max(...d.figures.map((f) => f.name.length), 12);
  lines.push(`  ${"lmbench name".padEnd(w)}  ${"id".padEnd(21)} ${"min".padStart(10)} ${"median".padStart(10)} ${"max".padStart(10)}  unit  iterations`);
  for (const f of d.figures) lines.push(`  ${f.name.padEnd(w)}  ${f.id.padEnd(21)} ${num(f.min).padStart(10)} ${num(f.median).padStart(10)} ${num(f.max).padStart(10)}  µs    ${group(f.iterations).padStart(10)}`);
  for (const s of d.skipped) lines.push(`  ${s.name.padEnd(w)}  ${s.id.padEnd(21)} skipped: ${s.reason}`);
  lines.push("");
  const mit = Object.entries(h.mitigations).filter(([, t]) => t !== "Not affected");
  lines.push(`Mitigations (/sys/devices/system/cpu/vulnerabilities): ${mit.length ? "" : Object.keys(h.mitigations).length ? "not affected by any" : "not reported by this kernel"}`);
  for (const [n, t] of mit) lines.push(`  ${n}: ${t}`);
  const v = h.virtualization;
  if (v) lines.push(v.virtualized ? `Virtual machine${v.hypervisor ? `: ${v.hypervisor}` : ""} (${v.evidence.join("; ")}): every figure includes the hypervisor's exits; the simulation models bare metal` : "Virtual machine: no evidence of one (cpuinfo flags, /sys/hypervisor, DMI, kernel options)");
  lines.push(`XSAVE: ${h.xsaveFeatures.length ? h.xsaveFeatures.join(" ") : "none reported"}${h.xsaveAreaBytes ? ` (${h.xsaveAreaBytes}-byte area` + (h.xcr0 ? `, XCR0 ${h.xcr0})` : ")") : ""}${h.xsaveInstructions.length ? `; ${h.xsaveInstructions.join(" ")}` : ""}${h.minSigStkSz ? `; AT_MINSIGSTKSZ ${h.minSigStkSz}` : ""}`);
  return lines.join("\n");
}

export function registerProbeCommand(cli: CAC): void {
  cli
    .command("probe", "Measure this machine with lmbench3's methods (a C program compiled on demand with cc; no root)")
    .option("--json", "print one JSON document: host facts and figures")
    .option("--repeat <n>", `repetitions of each measurement (default ${DEFAULT_PROBE_REPEAT}, as lmbench)`)
    .option("--quick", `intervals of ${QUICK_ENOUGH_US / 1000} ms instead of ${ENOUGH_US / 1000} ms (tests, a first look)`)
    .option("-o, --out <file>", "also write the JSON document to a file")
    .option("--force", "replace an existing -o file")
    .option("--cc <path>", "C compiler (default $CC, else cc on PATH)")
    .option("--time-limit <s>", "stop the probe after s seconds (default 300)")
    .example("siglab probe")
    .example("siglab probe --json -o my-machine.json")
    .action((o: Record<string, unknown>) => {
      try {
        const out = o["out"];
        if (out !== undefined && (typeof out !== "string" || !out)) throw new ProbeError("-o: name a file", 2);
        const outOpts = { force: o["force"] === true };
        if (typeof out === "string") checkOutputTarget(out, outOpts); // before the measurement; the write checks again
        const doc = runProbe(o);
        const json = JSON.stringify(doc, null, 2) + "\n";
        if (typeof out === "string") writeOutputFile(out, json, outOpts);
        if (o["json"]) process.stdout.write(json);
        else console.log(formatProbe(doc) + (typeof out === "string" ? `\n\nwrote ${out}` : ""));
        process.exitCode = 0;
      } catch (e) {
        if (e instanceof ProbeError) {
          console.error(`siglab probe: ${e.message}`);
          process.exitCode = e.exitCode;
        } else if (e instanceof OutputRefusal) {
          console.error(`siglab probe: ${e.message}`);
          process.exitCode = 2;
        } else {
          console.error(`siglab probe: ${(e as Error)?.message ?? String(e)}`);
          process.exitCode = 1;
        }
      }
    });
}
