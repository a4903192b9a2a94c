/** /dev/null and /dev/zero (drivers/char/mem.c): read_null, read_zero, write_null. */
import type { KernelCore } from "../kernel/core.js";
import { pathRefs } from "../kernel/path-refs.js";
import { TALLY } from "../kernel/tallies.js";
import type { File } from "../fs/file.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["copy.pipe.io", "copy.pipe.io.setup", "dev_read", "dev_write"]);

/** read_zero: clear_user of the buffer; read_null: EOF. */
export function devRead(k: KernelCore, f: File, bytes: number): number {
  k.runRef(P["dev_read"]);
  if (f.dev === "null") return 0;
  k.runRef(P["copy.pipe.io.setup"]);
  k.runNRef(P["copy.pipe.io"], Math.ceil(bytes / k.profile.cacheLineBytes));
  k.tally(TALLY.bytes_copied, bytes);
  return bytes;
}

/** write_null: returns count without touching the data; /dev/zero likewise. */
export function devWrite(k: KernelCore, _f: File, bytes: number): number {
  k.runRef(P["dev_write"]);
  return bytes;
}
