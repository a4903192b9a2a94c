/**
 * The plugin skeleton of `siglab plugin new`: the files under files/ (with `.tmpl` dropped and
 * `__ID__` / `__API_VERSION__` / `__PLUGIN_API_SPEC__` filled in). The skeleton depends on
 * @siglab/plugin-api and @siglab/plugin-harness by SemVer range (`^<major>.<minor>.0` of this
 * SigLab's plugin API), so its package.json can be shared; until the packages are on the npm
 * registry, its README says how to install the tarballs `pnpm pack` makes of them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { PLUGIN_API_VERSION } from "@siglab/core";

/** The version range a new plugin depends on for @siglab/plugin-api and @siglab/plugin-harness. */
export const PLUGIN_API_SPEC = `^${PLUGIN_API_VERSION}.0`;

export const TEMPLATE_DIR = fileURLToPath(new URL("./files/", import.meta.url));

/** Same rule as the manifest schema's id pattern. */
export const PLUGIN_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)]));
}

/** Relative path -> contents of a new plugin named `id`. */
export function renderPluginSkeleton(id: string): Record<string, string> {
  if (!PLUGIN_ID_PATTERN.test(id)) {
    throw new Error(`'${id}' is not a valid plugin id: use lower-case letters, digits and '-', starting with a letter or digit (at most 64)`);
  }
  const fill = (s: string) => s.replaceAll("__ID__", id).replaceAll("__API_VERSION__", PLUGIN_API_VERSION).replaceAll("__PLUGIN_API_SPEC__", PLUGIN_API_SPEC);
  const out: Record<string, string> = {};
  for (const file of walk(TEMPLATE_DIR).sort()) {
    let rel = relative(TEMPLATE_DIR, file).split(sep).join("/").replace(/\.tmpl$/, "");
    if (rel === "gitignore") rel = ".gitignore"; // npm drops files named .gitignore from packages
    out[fill(rel)] = fill(readFileSync(file, "utf8"));
  }
  return out;
}
