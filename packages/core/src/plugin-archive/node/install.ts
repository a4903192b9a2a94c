/**
 * Writing a checked plugin into a plugin folder (`<pluginDir>/<id>`): staged beside it from the
 * bytes that were checked, then renamed into place, so a plugin is never seen half-written and an
 * install that fails leaves the installed version as it was.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import { readManifestText } from "../../host/node/plugin-folder.js";

/** The version of the plugin installed in `<pluginDir>/<id>`: null when nothing is there, "unreadable" when its plugin.json cannot be read. */
export async function installedVersion(pluginDir: string, id: string): Promise<string | null> {
  const target = path.join(pluginDir, id);
  if (!(await fs.lstat(target).then(() => true, () => false))) return null;
  try {
    const v = (JSON.parse(readManifestText(target)) as { version?: unknown }).version;
    return typeof v === "string" ? v : "unreadable";
  } catch {
    return "unreadable";
  }
}

/**
 * Replaces (or creates) `<pluginDir>/<id>` with `files` ("/"-separated relative paths, already
 * checked by the archive or folder reader). Returns the installed folder.
 */
export async function installPluginFiles(files: ReadonlyMap<string, Uint8Array> | Record<string, Uint8Array>, pluginDir: string, id: string): Promise<string> {
  const dir = path.resolve(pluginDir);
  await fs.mkdir(dir, { recursive: true });
  const staging = path.join(dir, `.install-${id}-${randomBytes(4).toString("hex")}`);
  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
  const target = path.join(dir, id);
  try {
    for (const [rel, bytes] of entries) {
      const dest = path.join(staging, ...rel.split("/"));
      if (!dest.startsWith(staging + path.sep)) throw new Error(`${rel}: outside the plugin folder`);
      await fs.mkdir(path.dirname(dest), { recursive: true });
      await fs.writeFile(dest, bytes, { flag: "wx" });
    }
    const old = path.join(dir, `.old-${id}-${randomBytes(4).toString("hex")}`);
    const hadOld = await fs.rename(target, old).then(() => true, () => false);
    await fs.rename(staging, target);
    if (hadOld) await fs.rm(old, { recursive: true, force: true });
  } catch (err) {
    await fs.rm(staging, { recursive: true, force: true });
    throw err;
  }
  return target;
}
