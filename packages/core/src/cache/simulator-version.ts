/**
 * The simulator's version, as the result cache keys it: a SHA-256 of the built code the execution
 * host runs (its process bundle and its sandbox worker's bundle: the kernel paths, the machine,
 * the built-in plugins and profiles). Any change to what simulates is a new version, whatever a
 * package's version number says.
 */
import { readFileSync, statSync } from "node:fs";
import { createHash } from "node:crypto";

const known = new Map<string, string>();

export function simulatorVersion(files: readonly string[]): string {
  const stamp = files.map((f) => {
    const st = statSync(f);
    return `${f}\0${st.size}\0${st.mtimeMs}`;
  }).join("\n");
  let v = known.get(stamp);
  if (v === undefined) {
    const h = createHash("sha256");
    for (const f of files) h.update(readFileSync(f)).update("\0");
    v = h.digest("hex");
    known.set(stamp, v);
  }
  return v;
}
