/**
 * Where SigLab keeps what it can always recompute (stored run results, compiled workloads): the
 * user's cache folder, which the platform's tools treat as safe to delete.
 *   $SIGLAB_CACHE_DIR when set (CI, a shared disk);
 *   else $XDG_CACHE_HOME/siglab when XDG_CACHE_HOME is set (on any platform);
 *   else Linux and the BSDs ~/.cache/siglab, macOS ~/Library/Caches/siglab,
 *   Windows %LOCALAPPDATA%\siglab\Cache.
 */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

export function userCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  const own = env["SIGLAB_CACHE_DIR"]?.trim();
  if (own) return resolve(own);
  // the XDG spec: a relative path is invalid and must be ignored
  const xdg = env["XDG_CACHE_HOME"]?.trim();
  if (xdg && isAbsolute(xdg)) return join(xdg, "siglab");
  if (platform === "darwin") return join(home, "Library", "Caches", "siglab");
  if (platform === "win32") {
    const local = env["LOCALAPPDATA"]?.trim();
    return join(local && isAbsolute(local) ? local : join(home, "AppData", "Local"), "siglab", "Cache");
  }
  return join(home, ".cache", "siglab");
}
