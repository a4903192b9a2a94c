/** What the CLI can name: example workloads, CPU profiles, plugins. */
import { readFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { EXAMPLES, type WorkloadRef } from "@siglab/core";
import { BUILTIN_PROFILE_FILES, resolveInheritance, tryResolveInheritance, type CpuProfileFile } from "@siglab/cpu-profiles";
import { configDir } from "./consent.js";
import { didYouMean, profileAliases } from "./suggest.js";

export class UsageError extends Error {}

/** resolved once: resolving (and checking) every built-in profile costs ~10 ms, and suite examples asks once per example */
let runnable: CpuProfileFile[] | undefined;

export function runnableProfiles(): CpuProfileFile[] {
  runnable ??= resolveInheritance(BUILTIN_PROFILE_FILES).filter((p) => !(p as { abstract?: boolean }).abstract && !p.id.startsWith("_"));
  return [...runnable];
}

/** An example id or a path to a .ts file. */
export function resolveWorkload(arg: string, extraExamples: { id: string; file: string; source: string; title?: string }[] = []): WorkloadRef {
  const all = [...EXAMPLES, ...extraExamples];
  const ex = all.find((e) => e.id === arg);
  if (ex) return { id: ex.id, file: ex.file, source: ex.source };
  if (arg.endsWith(".ts") || arg.includes("/")) {
    const path = resolve(arg);
    if (!existsSync(path)) throw new UsageError(`workload file not found: ${arg}`);
    const source = readFileSync(path, "utf8");
    if (source.length > 1_000_000) throw new UsageError(`${arg}: workload file is larger than 1 MB`);
    return { id: arg.split("/").pop()!.replace(/\.ts$/, ""), file: arg, source };
  }
  const names = all.map((e) => ({ id: e.id, aliases: "title" in e && typeof e.title === "string" ? [e.title] : [] }));
  throw new UsageError(`unknown example '${arg}' (${didYouMean(arg, names)}examples: ${all.map((e) => e.id).join(", ")}; or give a path to a .ts file)`);
}

/** "unknown CPU profile 'pentium4' (did you mean 'p4-northwood'? profiles: …" (the caller closes it). */
export function unknownProfile(id: string, profiles: readonly CpuProfileFile[]): string {
  const names = profiles.map((p) => ({ id: p.id, aliases: profileAliases((p as { name?: string }).name) }));
  return `unknown CPU profile '${id}' (${didYouMean(id, names)}profiles: ${profiles.map((x) => x.id).join(", ")}`;
}

/**
 * The workload's own name (`workload({ name: "lat_sig catch", ... })`): an example's title, else
 * the first `name: "..."` of a file's source (undefined when there is none to read).
 */
export function workloadTitle(w: { id: string; source: string }, extraExamples: { id: string; title?: string }[] = []): string | undefined {
  const ex = [...EXAMPLES, ...extraExamples].find((e) => e.id === w.id) as { title?: string } | undefined;
  if (ex?.title) return ex.title;
  const m = /\bworkload\s*\(\s*\{[^]*?\bname\s*:\s*(["'`])([^"'`\n]{1,80})\1/.exec(w.source);
  return m?.[2];
}

/**
 * The user's own profiles: every profile of the user profiles folder ($SIGLAB_HOME/profiles, the
 * app's "CPU profiles" folder, with fitted/<id>.json overlays) and every `--profile-file`. A bad
 * file in the folder is skipped with a warning naming it; a bad --profile-file is an error; an id
 * that a built-in profile already has is refused.
 */
export async function userProfiles(files: readonly string[] = [], warn: (line: string) => void = (l) => console.error(l)): Promise<CpuProfileFile[]> {
  const { loadProfileFolder, readProfileFile } = await import("@siglab/cpu-profiles/node");
  const folder = join(configDir(), "profiles");
  const loaded = await loadProfileFolder(folder);
  for (const e of loaded.errors) warn(`siglab: skipped a profile of ${folder}: ${e.message}`);
  const sources = [];
  for (const f of files) {
    try {
      sources.push(await readProfileFile(resolve(f), f));
    } catch (e) {
      throw new UsageError(`--profile-file ${f}: ${(e as Error).message}`);
    }
  }
  let extra: CpuProfileFile[] = [];
  if (sources.length) {
    const r = tryResolveInheritance(sources);
    if (r.errors.length) throw new UsageError(`--profile-file: ${r.errors.map((e) => e.message).join("; ")}`);
    extra = r.profiles;
  }
  const builtin = new Set(runnableProfiles().map((p) => p.id));
  const out: CpuProfileFile[] = [];
  for (const p of [...loaded.profiles, ...extra]) {
    if (builtin.has(p.id)) throw new UsageError(`user profile '${p.id}' has the id of a built-in profile: rename it`);
    if (out.some((q) => q.id === p.id)) throw new UsageError(`two user profiles have the id '${p.id}'`);
    if (!(p as { abstract?: boolean }).abstract && !p.id.startsWith("_")) out.push(p);
  }
  return out;
}

/** The built-in profiles and the user's (see userProfiles). */
export async function allProfiles(files: readonly string[] = []): Promise<CpuProfileFile[]> {
  return [...runnableProfiles(), ...(await userProfiles(files))];
}
