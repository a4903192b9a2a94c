/**
 * Node-only helpers: read a folder of user profiles, write one atomically. Kept out of index.ts so
 * the browser bundle never sees `fs`. Import as "@siglab/cpu-profiles/node".
 */
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BUILTIN_PROFILE_SOURCES } from "./builtin.js";
import { serializeProfile } from "./clone.js";
import { ProfileError } from "./errors.js";
import { MAX_PROFILE_BYTES, parseProfileFile, validateProfileSource } from "./parse.js";
import { tryResolveInheritance } from "./resolve.js";
import type { CpuProfileFile, CpuProfileSource } from "./types.js";

export interface FolderLoadResult {
  /** Every file that parsed and validated, as written. */
  sources: CpuProfileSource[];
  /** The runnable ones, inheritance resolved (against the base, the builtins by default). */
  profiles: CpuProfileFile[];
  /** One error per bad file or unresolvable profile; good files still load. */
  errors: ProfileError[];
}

/** Reads and parses one profile file. */
export async function readProfileFile(path: string, fileName = path): Promise<CpuProfileSource> {
  const info = await stat(path);
  if (info.size > MAX_PROFILE_BYTES) {
    throw new ProfileError(fileName, [{ path: "", message: `file too large (${info.size} bytes, limit ${MAX_PROFILE_BYTES})` }]);
  }
  return parseProfileFile(await readFile(path, "utf8"), fileName);
}

/**
 * Loads every *.json in `dir` (not recursive). A missing folder is an empty result. Profiles may
 * inherit from `base` (default: the builtins) or from each other.
 */
export async function loadProfileFolder(
  dir: string,
  base: readonly CpuProfileSource[] = BUILTIN_PROFILE_SOURCES,
): Promise<FolderLoadResult> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { sources: [], profiles: [], errors: [] };
    throw err;
  }
  const sources: CpuProfileSource[] = [];
  const errors: ProfileError[] = [];
  for (const name of names) {
    try {
      sources.push(await readProfileFile(join(dir, name), name));
    } catch (err) {
      if (!(err instanceof ProfileError)) throw err;
      errors.push(err);
    }
  }
  const resolved = tryResolveInheritance(sources, { base });
  return { sources, profiles: resolved.profiles, errors: [...errors, ...resolved.errors] };
}

/**
 * Writes `src` as `<dir>/<id>.json` atomically (temp file + rename), after validating it, so a
 * crash never leaves a half-written profile. Returns the path written.
 */
export async function writeProfileFile(dir: string, src: CpuProfileSource): Promise<string> {
  const fileName = `${src.id}.json`;
  validateProfileSource(structuredClone(src), fileName);
  await mkdir(dir, { recursive: true });
  const target = join(dir, fileName);
  const tmp = join(dir, `.${fileName}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(tmp, serializeProfile(src), { encoding: "utf8", flag: "wx" });
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  return target;
}
