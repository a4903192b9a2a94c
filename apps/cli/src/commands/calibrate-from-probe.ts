/**
 * `siglab calibrate --from-probe probe.json -o my-machine.json [--id id] [--cpu id[@MHz]]`: a user
 * profile of this machine (probe-fit.ts), written atomically and never over an existing file
 * without --force; prints the fit and the errors on the figures it was not fitted to.
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fittedOverlayFileName, parseCpuRef, resolveProfile, serializeProfile, sourceFileName, type CpuProfileFile } from "@siglab/cpu-profiles";
import { allProfiles, runnableProfiles, UsageError } from "../catalog.js";
import { configDir } from "../consent.js";
import { matchProfile } from "../host-compare.js";
import { checkOutputTarget, writeOutputFile } from "../output.js";
import { fitProfileToProbe, type ProbeFitResult } from "../probe-fit.js";
import { hostKernelOptions, withHostKernel, virtualizationWarning } from "@siglab/core/common";
import { modernStack, readProbe } from "./suite-host.js";

const ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export async function calibrateFromProbe(o: Record<string, unknown>): Promise<number> {
  const file = String(o["fromProbe"]);
  const out = o["output"] === undefined ? undefined : String(o["output"]);
  if (!out) throw new UsageError("calibrate --from-probe: name the profile file to write with -o <file>");
  const profileFiles = o["profileFile"] === undefined ? [] : ([] as unknown[]).concat(o["profileFile"]).map(String);
  // every input is refused as the output, the profile files too (even with --force)
  const inputs = [file, ...profileFiles];
  checkOutputTarget(out, { force: o["force"] === true, inputs }); // refuse before the long work
  const probe = readProbe(file);
  const profiles = await allProfiles(profileFiles);
  // the kernel the probe measured: linux-6 when a plugin provides it (then only x86-64 profiles match)
  const preset = await modernStack();
  let base = profiles[0]!;
  let mhz: number;
  if (o["cpu"] !== undefined) {
    const ref = parseCpuRef(String(o["cpu"]));
    const p = profiles.find((x) => x.id === ref.id);
    if (!p) throw new UsageError(`unknown CPU profile '${ref.id}' (profiles: ${profiles.map((x) => x.id).join(", ")})`);
    base = p;
    mhz = ref.mhz ?? p.clock.defaultMhz;
  } else {
    const m = matchProfile(probe.host, profiles, { longModeOnly: preset.stack.length > 0 });
    if (!m) throw new UsageError(`no CPU profile of this machine's vendor (${probe.host.vendor ?? "unknown"}): name one with --cpu`);
    base = m.profile;
    mhz = m.profile.clock.defaultMhz;
  }
  resolveProfile(base, mhz); // the clock must be in the profile's range
  const id = o["id"] === undefined ? `my-${base.id}` : String(o["id"]);
  if (!ID.test(id)) throw new UsageError(`--id: '${id}' is not a profile id (lower-case letters, digits, '.', '_', '-')`);
  const idCheck = await checkNewId(id, profiles, out, { force: o["force"] === true, inputs });
  // fit the CPU's costs under the kernel the probe measured (its mitigations), so they do not absorb them
  const stack = preset.stack.length ? withHostKernel(preset.stack, hostKernelOptions(probe.host)) : preset.stack;
  const note = preset.note;
  const hostName = probe.host.cpuModel ?? probe.host.vendor ?? "this machine";
  const params = o["quickRuns"] ? { iterations: 200 } : undefined;
  const log = o["verbose"] ? (l: string) => console.error(l) : undefined;
  // allowed (the user may want a profile of the VM), said before the long work and kept in the profile
  const vm = virtualizationWarning(probe.host.virtualization, "fit");
  if (vm) console.error(`siglab: warning: ${vm}`);
  const r = await fitProfileToProbe({ base, mhz, id, name: `${hostName} (fitted to its probe)`, figures: probe.figures, stack, hostName, virtualization: probe.host.virtualization, ...(params ? { params } : {}), ...(log ? { log } : {}) });
  const wrote = writeOutputFile(out, serializeProfile(r.profile), { force: o["force"] === true, inputs });
  if (idCheck.replaces) {
    console.error(`siglab: replaced the user profile '${id}' of ${idCheck.replaces}`);
    // a fitted overlay beside it would still replace the new fit's costs: say so (it is the user's file, never deleted here)
    const overlay = join(dirname(idCheck.replaces), fittedOverlayFileName(id));
    if (existsSync(overlay)) console.error(`siglab: note: ${overlay} still overlays fitted costs on '${id}' and would replace this fit's; remove it if this fit should stand`);
  }
  if (o["json"]) process.stdout.write(JSON.stringify({ profile: id, base: base.id, mhz, variants: stack, ...(note ? { note } : {}), groups: r.groups, rows: r.rows, wrote: wrote.real, ...(vm ? { warnings: [vm] } : {}) }, null, 2) + "\n");
  else console.log(formatProbeFit(r, base.id, mhz, note) + `\n\nwrote ${out}: use it with a user profiles folder (docs/profiles.md)`);
  return 0;
}

/**
 * Whether the new profile may have the id `id`. A built-in profile's id is refused. So is the id of a
 * user profile (profiles are found by id: two with one id do not load), unless the output replaces
 * that profile's own file in the user profiles folder with --force, as -o replaces any file; a
 * --profile-file is an input, never replaced. Returns the file replaced, if any.
 */
async function checkNewId(id: string, profiles: readonly CpuProfileFile[], out: string, o: { force: boolean; inputs: string[] }): Promise<{ replaces: string | null }> {
  if (runnableProfiles().some((p) => p.id === id)) throw new UsageError(`--id: '${id}' is the id of a built-in profile; name yours otherwise`);
  const existing = profiles.find((p) => p.id === id);
  if (!existing) return { replaces: null };
  // the user profiles folder, or a --profile-file (ids are unique across the two: allProfiles checked)
  const { loadProfileFolder } = await import("@siglab/cpu-profiles/node");
  const dir = join(configDir(), "profiles");
  const inFolder = (await loadProfileFolder(dir)).profiles.find((p) => p.id === id);
  if (!inFolder) throw new UsageError(`--id: '${id}' is the id of the profile of --profile-file ${sourceFileName(existing)}; name yours otherwise with --id`);
  const file = join(dir, sourceFileName(inFolder));
  const own = checkOutputTarget(out, { force: o.force, inputs: o.inputs }).real;
  if (o.force && own === realOrSelf(file)) return { replaces: file };
  throw new UsageError(`--id: a user profile '${id}' exists already (${file}); name yours otherwise with --id, or replace it with -o ${file} --force`);
}

const realOrSelf = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

export function formatProbeFit(r: ProbeFitResult, base: string, mhz: number, note: string | null): string {
  const lines = [`profile ${r.profile.id}: ${base}@${mhz} with one scale per group fitted to this machine's probe${note ? `\nnote: ${note}` : ""}`, ""];
  for (const g of r.groups) lines.push(`  group ${g.id.padEnd(7)} ${g.figure.padEnd(18)} ${g.status === "fitted" ? `x${g.scale.toFixed(3)}` : g.status === "unreachable" ? "out of reach (x0.25..x4): starting values kept" : "not measured: starting values kept"}  ${g.ops.join(", ") || "(no op of the group ran)"}`);
  lines.push("", "  figure                 measured µs  simulated µs    error   leave-one-out");
  const f = (v: number | null | undefined) => (v === null || v === undefined ? "—" : v >= 100 ? v.toFixed(1) : v.toFixed(3));
  const e = (v: number | null | undefined) => (v === null || v === undefined ? "—" : `${v > 0 ? "+" : ""}${v.toFixed(1)}%`);
  for (const row of r.rows) lines.push(`  ${row.id.padEnd(22)} ${f(row.measured).padStart(11)}  ${f(row.simulated).padStart(12)}  ${e(row.errorPercent).padStart(7)}   ${row.fitted ? `${e(row.looErrorPercent)} (${f(row.looSimulated)} µs)` : "not fitted to it"}`);
  return lines.join("\n");
}
