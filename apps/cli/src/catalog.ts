/** What the CLI can name: example workloads, CPU profiles, plugins. */
import { readFileSync, existsSync } from "node:fs";
import { resolve } from "node:path";
import { EXAMPLES, type WorkloadRef } from "@siglab/core";
import { BUILTIN_PROFILE_FILES, resolveInheritance, type CpuProfileFile } from "@siglab/cpu-profiles";

export class UsageError extends Error {}

export function runnableProfiles(): CpuProfileFile[] {
  return resolveInheritance(BUILTIN_PROFILE_FILES).filter((p) => !(p as { abstract?: boolean }).abstract && !p.id.startsWith("_"));
}

/** An example id or a path to a .ts file. */
export function resolveWorkload(arg: string, extraExamples: { id: string; file: string; source: string }[] = []): WorkloadRef {
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
  throw new UsageError(`unknown example '${arg}' (examples: ${all.map((e) => e.id).join(", ")}; or give a path to a .ts file)`);
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
