/** Content hashes: SHA-256 in lower-case hex, pure JS so it runs in a browser worker too. */
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex } from "@noble/hashes/utils";
import { strToU8 } from "fflate";

export function sha256Hex(data: Uint8Array | string): string {
  return bytesToHex(sha256(typeof data === "string" ? strToU8(data) : data));
}

/**
 * One hash for a set of files (a plugin's code): hashes each file, then hashes the sorted
 * "path\0hash\n" lines, so the result does not depend on the order the files were listed in.
 */
export function hashFileSet(files: Record<string, Uint8Array>): string {
  const lines = Object.keys(files)
    .sort()
    .map((p) => `${p}\u0000${sha256Hex(files[p]!)}\n`)
    .join("");
  return sha256Hex(lines);
}
