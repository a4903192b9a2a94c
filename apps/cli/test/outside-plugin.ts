/**
 * A plugin author outside the repository, the setup steps: pack @siglab/plugin-api and
 * @siglab/plugin-harness as a release does (scripts/pack-api.mjs), scaffold a plugin with
 * `siglab plugin new` in a temporary folder outside the checkout, point its dependencies at the two
 * tarballs through pnpm overrides (as the scaffold's README says until the packages are published)
 * and `pnpm install` there. Shared by the CLI's test (plugin-outside-repo.test.ts) and the app's
 * (apps/desktop/e2e/plugin-outside-repo.e2e.test.ts), so both start from the same author's folder.
 *
 * The tarballs are packed from the dist/ already built (--no-build: rebuilding would pull dist/
 * from under other tests reading it). A step that fails throws with its output (and the folder goes).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PLUGIN_API_VERSION } from "@siglab/core";

export const ROOT = realpathSync(join(import.meta.dirname, "../../.."));

export interface Ran {
  status: number | null;
  stdout: string;
  /** stdout, stderr and any spawn error: what a failed assertion shows */
  out: string;
}

/**
 * The environment of an author's shell: none of the settings `pnpm test` hands its scripts (this
 * workspace's strictDepBuilds, linkWorkspacePackages, …) reaches the author's pnpm or npm.
 */
export const authorEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|pnpm_|PNPM_)/i.test(k)));

/** Runs a command as the author would, in `cwd`, with `env` added. */
export function runAsAuthor(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Ran {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", timeout: 240_000, maxBuffer: 64 << 20, env: { ...authorEnv(), npm_config_update_notifier: "false", ...env } });
  return { status: r.status, stdout: r.stdout, out: `${r.stdout}\n${r.stderr}${r.error ? `\n${r.error.message}` : ""}` };
}

/** Throws with the command's output unless it exited 0. */
export function succeeded(what: string, r: Ran): Ran {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.out}`);
  return r;
}

export interface OutsidePlugin {
  /** the temporary folder (outside the checkout) holding everything below; the caller removes it */
  tmp: string;
  /** the scaffolded plugin's folder, installed, not yet built */
  plugin: string;
  tarballs: { api: string; harness: string };
}

/**
 * Packs the API tarballs, scaffolds plugin `id` with the CLI bundle `siglabBin` and installs it
 * with pnpm against the tarballs. About 20 s (pnpm's store serves esbuild, tsx and typescript).
 */
export function scaffoldOutsidePlugin(siglabBin: string, id: string): OutsidePlugin {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), "siglab-author-")));
  try {
    return scaffoldIn(tmp, siglabBin, id);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

function scaffoldIn(tmp: string, siglabBin: string, id: string): OutsidePlugin {
  if (tmp.startsWith(ROOT)) throw new Error(`the author's folder ${tmp} is inside the checkout ${ROOT}`);
  const packs = join(tmp, "packs");
  succeeded("pack-api", runAsAuthor(process.execPath, [join(ROOT, "scripts/pack-api.mjs"), "--out", packs, "--no-build"], tmp));
  const tarballs = {
    api: join(packs, `siglab-plugin-api-${PLUGIN_API_VERSION}.0.tgz`),
    harness: join(packs, `siglab-plugin-harness-${PLUGIN_API_VERSION}.0.tgz`),
  };
  for (const t of Object.values(tarballs)) if (!existsSync(t)) throw new Error(`pack-api wrote no ${t}`);

  succeeded("siglab plugin new", runAsAuthor(process.execPath, [siglabBin, "plugin", "new", id, "--dir", tmp], tmp));
  const plugin = join(tmp, id);
  // what the scaffold's README says to do with pnpm until the packages are published
  const pkgFile = join(plugin, "package.json");
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as Record<string, unknown>;
  pkg["pnpm"] = { overrides: { "@siglab/plugin-api": `file:${tarballs.api}`, "@siglab/plugin-harness": `file:${tarballs.harness}` } };
  writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
  succeeded("pnpm install", runAsAuthor("pnpm", ["install", "--prefer-offline"], plugin));
  return { tmp, plugin, tarballs };
}
