/**
 * A fresh CLI bundle, cheaply: the manifest written beside dist/siglab.mjs (build.mjs) lists every
 * file the bundle was built from with its size, mtime and SHA-256. Each is stat()ed (~1 ms for
 * ~800 files); a file whose size or mtime moved is read and hashed, and only a changed content
 * (or a file gone, the checkout moved, no bundle yet) rebuilds. A touched but unchanged file
 * refreshes the manifest instead, so the next start is back on the stat-only path.
 */
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { buildCli, DEFAULT_OUT, manifestOf, MANIFEST_FORMAT, prestartOf, WORKSPACE } from "./build.mjs";

/** Why the bundle at `out` must be rebuilt, or null when it is fresh. */
export function staleness(out = DEFAULT_OUT) {
  if (!existsSync(out) || !existsSync(prestartOf(out))) return "no CLI bundle yet";
  let m;
  try {
    m = JSON.parse(readFileSync(manifestOf(out), "utf8"));
  } catch {
    return "the bundle has no readable manifest";
  }
  if (m.format !== MANIFEST_FORMAT || m.workspace !== WORKSPACE || !Array.isArray(m.inputs)) return "the bundle was built by another build script or in another folder";
  let touched = false;
  for (const input of m.inputs) {
    const [path, size, mtimeMs, sha] = input;
    let st;
    try {
      st = statSync(join(WORKSPACE, path));
    } catch {
      return `${path} is gone`;
    }
    if (st.size === size && st.mtimeMs === mtimeMs) continue;
    if (st.size !== size || createHash("sha256").update(readFileSync(join(WORKSPACE, path))).digest("hex") !== sha) return `${path} changed`;
    input[1] = st.size;
    input[2] = st.mtimeMs;
    touched = true;
  }
  if (touched) refresh(out, m);
  return null;
}

/** Writes the manifest with today's mtimes (atomically; a failure only costs the next start some hashing). */
function refresh(out, m) {
  const tmp = `${manifestOf(out)}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(m));
    renameSync(tmp, manifestOf(out));
  } catch {
    rmSync(tmp, { force: true });
  }
}

/**
 * The path of a fresh bundle: `out` itself, rebuilt first when stale (`onBuild(why)` is told). A
 * failed rebuild throws (esbuild's errors name file and line).
 */
export async function freshCli({ out = DEFAULT_OUT, onBuild = () => {} } = {}) {
  const why = staleness(out);
  if (why) {
    onBuild(why);
    await buildCli(out);
  }
  return out;
}


