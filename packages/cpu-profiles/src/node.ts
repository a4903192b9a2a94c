/**
 * Node-only helpers: read a folder of user profiles, write one atomically. Kept out of index.ts so
 * the browser bundle never sees `fs`. Import as "@siglab/cpu-profiles/node".
 */
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BUILTIN_PROFILE_SOURCES } from "./builtin.js";
import { serializeProfile } from "./clone.js";
import { ProfileError } from "./errors.js";
import { applyFittedOverlay, fittedOverlayFileName, parseFittedOverlay } from "./overlay.js";
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
 * inherit from `base` (default: the builtins) or from each other. A profile may have a fitted
 * overlay `fitted/<id>.json` beside it (as the shipped ones do); one without simply uses its own
 * values. A bad overlay, or one for a profile not in the folder, is an error naming the overlay
 * file (its profile then does not load).
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
  const overlaid = await applyFolderOverlays(dir, sources, errors);
  const resolved = tryResolveInheritance(overlaid, { base });
  return { sources: overlaid, profiles: resolved.profiles, errors: [...errors, ...resolved.errors] };
}

async function applyFolderOverlays(dir: string, sources: CpuProfileSource[], errors: ProfileError[]): Promise<CpuProfileSource[]> {
  let names: string[];
  try {
    names = (await readdir(join(dir, "fitted"))).filter((n) => n.endsWith(".json")).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return sources;
    throw err;
  }
  const out = [...sources];
  for (const name of names) {
    const file = `fitted/${name}`;
    try {
      const info = await stat(join(dir, file));
      if (info.size > MAX_PROFILE_BYTES) throw new ProfileError(file, [{ path: "", message: `file too large (${info.size} bytes, limit ${MAX_PROFILE_BYTES})` }]);
      const o = parseFittedOverlay(await readFile(join(dir, file), "utf8"), file);
      if (fittedOverlayFileName(o.profile) !== file) {
        throw new ProfileError(file, [{ path: "/profile", message: `an overlay for profile "${o.profile}" must be named ${fittedOverlayFileName(o.profile)}` }], o.profile);
      }
      const i = out.findIndex((s) => s.id === o.profile);
      if (i < 0) throw new ProfileError(file, [{ path: "/profile", message: `no profile "${o.profile}" in this folder to apply the overlay to` }], o.profile);
      out[i] = applyFittedOverlay(out[i]!, o, file);
    } catch (err) {
      if (!(err instanceof ProfileError)) throw err;
      errors.push(err);
      const id = err.profileId;
      if (id !== undefined) {
        const i = out.findIndex((s) => s.id === id);
        if (i >= 0) out.splice(i, 1); // a profile whose overlay is bad does not load with half its values
      }
    }
  }
  return out;
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
