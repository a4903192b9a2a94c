/**
 * Zip entries that say they are links or special files. An entry's Unix mode sits in the high 16
 * bits of its central-directory "external attributes" when the "version made by" host is Unix (3);
 * `zip --symlinks` stores a link that way, with its target as the data. SigLab writes an archive's
 * entries as regular files whatever they say, but an archive holding a link is refused as a plugin
 * folder holding one is: it is not what `siglab plugin pack` makes.
 */
import { PluginArchiveError } from "./errors.js";

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const KIND: Record<number, string> = { 0o120000: "a symbolic link", 0o020000: "a device", 0o060000: "a device", 0o010000: "a FIFO (named pipe)", 0o140000: "a socket" };

/** Throws naming the first entry whose Unix mode is neither a regular file nor a folder. Call after the zip itself was read. */
export function refuseSpecialEntries(bytes: Uint8Array, file: string): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // end of central directory: 22 bytes plus a comment of at most 65535
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new PluginArchiveError(file, "not a zip archive (no end of central directory)");
  const count = view.getUint16(eocd + 10, true);
  let off = view.getUint32(eocd + 16, true);
  for (let n = 0; n < count; n++) {
    if (off + 46 > bytes.length || view.getUint32(off, true) !== 0x02014b50) throw new PluginArchiveError(file, "corrupt zip central directory");
    const madeBy = view.getUint16(off + 4, true) >> 8;
    const nameLen = view.getUint16(off + 28, true);
    const extraLen = view.getUint16(off + 30, true);
    const commentLen = view.getUint16(off + 32, true);
    const mode = view.getUint32(off + 38, true) >>> 16;
    const type = mode & S_IFMT;
    if (madeBy === 3 && type !== 0 && type !== S_IFREG && type !== S_IFDIR) {
      const name = new TextDecoder().decode(bytes.subarray(off + 46, off + 46 + nameLen));
      throw new PluginArchiveError(file, `${KIND[type] ?? "not a regular file"}; a plugin archive may hold only regular files`, name);
    }
    off += 46 + nameLen + extraLen + commentLen;
  }
}
