/**
 * Which files of a plugin folder are its distributable part, the rule both the packer (what it
 * takes from a folder) and the reader (what an archive may hold) apply. The code rule is the one
 * `--plugin-dir` loads by (apps/cli/src/plugins/folders.ts): the code files under main's folder.
 */
import { INTEGRITY_ENTRY } from "./format.js";

const CODE = /\.(js|cjs|mjs|json|map)$/;
const EXAMPLE = /^examples\/[^/]+\.ts$/;
const DOCS = new Set(["plugin.json", "README.md", "LICENSE", "LICENSE.md", "LICENSE.txt"]);

/** main as an archive path ("./dist/index.cjs" -> "dist/index.cjs"); undefined when it is not a plain relative path. */
export function mainPath(main: string): string | undefined {
  const parts = main.replace(/\\/g, "/").split("/").filter((p) => p !== "" && p !== ".");
  if (main.startsWith("/") || parts.length === 0 || parts.includes("..")) return undefined;
  return parts.join("/");
}

/** Is `rel` ("/"-separated, relative) part of a plugin whose main is `main` (an archive path)? */
export function isDistributable(rel: string, main: string): boolean {
  if (DOCS.has(rel) || EXAMPLE.test(rel)) return true;
  if (rel === INTEGRITY_ENTRY || !CODE.test(rel)) return false;
  const codeDir = main.includes("/") ? main.slice(0, main.lastIndexOf("/")) : "";
  return codeDir === "" || rel.startsWith(`${codeDir}/`);
}
