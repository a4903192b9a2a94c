/**
 * `siglab suite host [--cpu id[@MHz]] [--probe probe.json] [--json]`: every figure of this
 * machine's probe (`siglab probe`, lmbench3's methods) beside the simulation of the same loop on
 * the profile that matches this CPU, under the linux-6 preset when a plugin provides it, with the
 * error (docs/modern.md).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { EXAMPLES, type VariantSpec } from "@siglab/core";
import { parseCpuRef, type CpuProfileFile } from "@siglab/cpu-profiles";
import { allProfiles, UsageError } from "../catalog.js";
import { hostKernelOptions, withHostKernel, hostFigure, NOT_SIMULATED, readVirtualization, virtualizationWarning } from "@siglab/core/common";
import { formatHostRows, hostRow, matchProfile, type HostRow } from "../host-compare.js";
import { findPreset } from "../plugins/catalog.js";
import { runInSandbox } from "../run/host.js";
import { inOrderWithProgress, progressLabel } from "../run/progress.js";
import { runProbe, type ProbeDocument } from "./probe.js";
import type { HostFacts } from "../probe/figures.js";
import { registerSuite } from "./suite.js";
import { shown } from "../terminal.js";

/** The preset of a current x86-64 kernel (a plugin provides it); without it the 2.4 kernel is simulated. */
export const MODERN_PRESET = "linux-6";

export function readProbe(file: string): ProbeDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(resolve(file), "utf8"));
  } catch (e) {
    throw new UsageError(`--probe ${file}: cannot read a probe document (${(e as Error).message})`);
  }
  const d = doc as Partial<ProbeDocument>;
  if (!d || typeof d !== "object" || !Array.isArray(d.figures) || !d.host || typeof d.host !== "object") throw new UsageError(`--probe ${file}: not the JSON of \`siglab probe --json\` (no host and figures)`);
  for (const f of d.figures) if (typeof f?.id !== "string" || typeof f?.median !== "number" || !Number.isFinite(f.median)) throw new UsageError(`--probe ${file}: a figure without an id and a median`);
  // a document from another version may lack what the text needs: its figures are named by id then
  const figures = d.figures.map((f) => ({ ...f, name: typeof f.name === "string" ? f.name : f.id }));
  // the host facts that pick the profile and name it: the right types or absent
  const h = d.host as unknown as Record<string, unknown>;
  const id = h["cpuid"] as Record<string, unknown> | null | undefined;
  if (id !== undefined && id !== null && !(typeof id === "object" && Number.isInteger(id["family"]) && Number.isInteger(id["model"]))) throw new UsageError(`${file}: host.cpuid must be { family, model, stepping } as integers`);
  const text = (v: unknown): string | null => (typeof v === "string" ? v.slice(0, 200) : null);
  // a document from before host.virtualization (or with it malformed): unknown, not bare metal
  const host = { ...(d.host as HostFacts), cpuid: (id ?? null) as HostFacts["cpuid"], cpuModel: text(h["cpuModel"]), vendor: text(h["vendor"]), virtualization: readVirtualization(h["virtualization"]) };
  return { ...(d as ProbeDocument), host, figures };
}

export async function modernStack(): Promise<{ stack: VariantSpec[]; note: string | null }> {
  try {
    return { stack: await findPreset(MODERN_PRESET, []), note: null };
  } catch {
    return { stack: [], note: `no '${MODERN_PRESET}' preset is installed: the simulation is the Linux 2.4 i386 kernel, which describes no modern system` };
  }
}

async function hostSuite(_name: string, o: Record<string, unknown>): Promise<number> {
  const probe = o["probe"] !== undefined ? readProbe(String(o["probe"])) : runProbe({});
  const profiles = await allProfiles(o["profileFile"] === undefined ? [] : ([] as unknown[]).concat(o["profileFile"]).map(String));
  const preset = await modernStack();
  let cpu: { id: string; mhz: number };
  let how: string;
  let chosen: CpuProfileFile;
  if (o["cpu"] !== undefined) {
    const ref = parseCpuRef(String(o["cpu"]));
    const p = profiles.find((x) => x.id === ref.id);
    if (!p) throw new UsageError(`unknown CPU profile '${ref.id}' (profiles: ${profiles.map((x) => x.id).join(", ")})`);
    cpu = { id: p.id, mhz: ref.mhz ?? p.clock.defaultMhz };
    how = "given with --cpu";
    chosen = p;
  } else {
    const m = matchProfile(probe.host, profiles, { longModeOnly: preset.stack.length > 0 });
    if (!m) throw new UsageError(`no CPU profile of this machine's vendor (${probe.host.vendor ?? "unknown"}): name one with --cpu`);
    cpu = { id: m.profile.id, mhz: m.profile.clock.defaultMhz };
    how = m.how;
    chosen = m.profile;
  }
  // a profile fitted to probe figures (calibrate --from-probe) says which in its fittedTo
  const fittedTo = Object.values(chosen.costs).flatMap((e) => e.fittedTo ?? []);
  // the kernel as the probe's machine runs it (its mitigation lines and CPU flags), unless asked not to
  const hostKernel = preset.stack.length && !o["kernelDefaults"] ? hostKernelOptions(probe.host) : null;
  const stack = hostKernel ? withHostKernel(preset.stack, hostKernel) : preset.stack;
  const note = preset.note;
  let failed = false;
  // each figure the simulator has, run in order with a progress line; the others are rows as they are
  const tasks = probe.figures.map((f) => {
    const sim = hostFigure(f.id);
    const e = sim && EXAMPLES.find((x) => x.id === sim.example)!;
    return { f, sim, spec: sim && e ? { workload: { id: e.id, file: e.file, source: e.source }, cpu: sim.smp ? { ...cpu, smp: sim.smp } : cpu, variants: stack, params: sim.params ?? {}, seed: 1 } : undefined };
  });
  const simulated = tasks.filter((t) => t.spec);
  const results = new Map(await inOrderWithProgress(simulated, (t) => progressLabel(t.spec!), async (t) => [t, await runInSandbox(t.spec!, { profiles: [chosen] })] as const));
  const rows: HostRow[] = tasks.map((t) => {
    const r = results.get(t);
    if (!t.sim || !r) return hostRow(t.f, null, [], NOT_SIMULATED[t.f.id] ?? "not simulated");
    const m = r.metrics.find((x) => x.name === t.sim!.metric);
    if (r.error || !m) {
      failed = true;
      return hostRow(t.f, null, [], r.error ? `${r.error.kind} error: ${r.error.message}` : `no metric '${t.sim.metric}'`);
    }
    return hostRow(t.f, m.value, fittedTo, t.sim.caveat);
  });
  const compared = { profile: cpu.id, mhz: cpu.mhz, matched: how, variants: stack, kernel: hostKernel ? { from: "probe", reasons: hostKernel.reasons } : { from: "defaults" }, ...(note ? { note } : {}) };
  const vm = virtualizationWarning(probe.host.virtualization);
  if (o["json"]) {
    // `warnings` only when there is one: { host, compared, rows } stay as they were
    process.stdout.write(JSON.stringify({ host: probe.host, compared, rows, ...(vm ? { warnings: [vm] } : {}) }, null, 2) + "\n");
  } else {
    const h = shown(probe.host);
    console.log(`siglab probe: ${typeof h.cpuModel === "string" ? h.cpuModel : typeof h.vendor === "string" ? h.vendor : "an unnamed CPU"}${typeof h.kernel === "string" ? `, ${h.kernel}` : ""}`);
    console.log(`simulated on ${cpu.id}@${cpu.mhz} (${how}), ${stack.length ? `preset ${MODERN_PRESET}` : "Linux 2.4 i386 baseline"}${note ? `\nnote: ${note}` : ""}\n`);
    if (hostKernel) console.log(`kernel options from the probe's host (--kernel-defaults: the preset's per-CPU defaults):\n${hostKernel.reasons.map((r) => `  ${r}`).join("\n")}\n`);
    if (vm) console.log(`warning: ${vm}\n`);
    console.log(formatHostRows(shown(rows)));
  }
  return failed ? 1 : 0;
}

export function registerHostSuite(): void {
  registerSuite("host", hostSuite, { about: "this machine (siglab probe, or --probe file.json) beside linux-6 simulated on the profile matching its CPU" });
}
