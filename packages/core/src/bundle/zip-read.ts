/**
 * Reading a zip from untrusted bytes. Two passes, both through fflate:
 *  1. the central directory (unzipSync with a filter that inflates nothing): names, declared sizes,
 *     duplicates and counts are checked before a single byte is inflated;
 *  2. the local entries (streaming Unzip fed in small chunks): inflated bytes are counted as they
 *     come, so a zip bomb is stopped after at most one chunk's worth of output, whatever it declares.
 * The two views must agree (same names, sizes), so a zip that says one thing in its directory and
 * another in its entries is refused rather than half-trusted.
 */
import { Unzip, UnzipInflate, unzipSync, type UnzipFile } from "fflate";
import { BundleError } from "./errors.js";
import type { BundleLimits } from "./limits.js";
import { entryKey, unsafeEntryReason } from "./paths.js";

/** Compressed bytes fed per push: bounds the output of one push to ~1 MiB (deflate ratio ≤ 1032). */
const CHUNK = 1024;

interface Listed {
  name: string;
  size: number;
  dir: boolean;
}

function isZipSignature(bytes: Uint8Array): boolean {
  if (bytes.length < 22 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) return false;
  // local file header, or end of central directory (an empty zip)
  return (bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6);
}

function listCentralDirectory(bytes: Uint8Array, file: string, limits: BundleLimits): Map<string, Listed> {
  const listed = new Map<string, Listed>();
  const keys = new Set<string>();
  let declaredTotal = 0;
  try {
    unzipSync(bytes, {
      filter(info) {
        if (listed.size + 1 > limits.maxEntries) {
          throw new BundleError("too-large", file, `more than ${limits.maxEntries} entries`);
        }
        const name = info.name;
        const reason = unsafeEntryReason(name);
        if (reason) throw new BundleError("unsafe-path", file, `refused entry: ${reason}`, JSON.stringify(name));
        const key = entryKey(name);
        if (keys.has(key)) throw new BundleError("duplicate-entry", file, "duplicate entry", name);
        keys.add(key);
        const dir = name.endsWith("/");
        if (dir && info.originalSize !== 0) throw new BundleError("corrupt", file, "directory entry with content", name);
        if (!dir && info.compression !== 0 && info.compression !== 8) {
          throw new BundleError("corrupt", file, `unsupported compression method ${info.compression}`, name);
        }
        if (info.originalSize > limits.maxEntryBytes) {
          throw new BundleError("too-large", file, `declares ${info.originalSize} bytes uncompressed, over the ${limits.maxEntryBytes}-byte limit per entry`, name);
        }
        declaredTotal += info.originalSize;
        if (declaredTotal > limits.maxTotalBytes) {
          throw new BundleError("too-large", file, `entries declare more than ${limits.maxTotalBytes} bytes uncompressed in total`);
        }
        listed.set(name, { name, size: info.originalSize, dir });
        return false; // list only; nothing is inflated in this pass
      },
    });
  } catch (e) {
    if (e instanceof BundleError) throw e;
    throw new BundleError("not-zip", file, `not a valid zip archive (${(e as Error)?.message ?? String(e)})`);
  }
  return listed;
}

/** Inflates every entry of a zip under the limits; returns file entries only (directories dropped). */
export function readZipEntries(bytes: Uint8Array, file: string, limits: BundleLimits): Map<string, Uint8Array> {
  if (bytes.length > limits.maxBundleBytes) {
    throw new BundleError("too-large", file, `file is ${bytes.length} bytes, over the ${limits.maxBundleBytes}-byte limit`);
  }
  if (!isZipSignature(bytes)) throw new BundleError("not-zip", file, "not a zip archive (no zip signature)");
  const listed = listCentralDirectory(bytes, file, limits);

  const out = new Map<string, Uint8Array>();
  const seen = new Set<string>();
  let failure: BundleError | undefined;
  let inflatedTotal = 0;

  const onFile = (f: UnzipFile): void => {
    if (failure) return;
    const name = f.name;
    const reason = unsafeEntryReason(name);
    if (reason) {
      failure = new BundleError("unsafe-path", file, `refused entry: ${reason}`, JSON.stringify(name));
      return;
    }
    const entry = listed.get(name);
    if (!entry) {
      failure = new BundleError("corrupt", file, "local entry not in the zip's central directory", name);
      return;
    }
    if (seen.has(name)) {
      failure = new BundleError("duplicate-entry", file, "duplicate entry", name);
      return;
    }
    seen.add(name);
    const parts: Uint8Array[] = [];
    let size = 0;
    f.ondata = (err, chunk, final) => {
      if (failure) return;
      if (err) {
        failure = new BundleError("corrupt", file, `cannot inflate: ${err.message}`, name);
        return;
      }
      size += chunk.length;
      inflatedTotal += chunk.length;
      if (size > entry.size) {
        failure = new BundleError("too-large", file, `inflates to more than the ${entry.size} bytes it declares (zip bomb?)`, name);
        return;
      }
      if (inflatedTotal > limits.maxTotalBytes) {
        failure = new BundleError("too-large", file, `entries inflate to more than ${limits.maxTotalBytes} bytes in total`);
        return;
      }
      if (chunk.length) parts.push(chunk.slice());
      if (final) {
        if (size !== entry.size) {
          failure = new BundleError("corrupt", file, `inflates to ${size} bytes but declares ${entry.size}`, name);
          return;
        }
        if (!entry.dir) out.set(name, concat(parts, size));
      }
    };
    try {
      f.start();
    } catch (e) {
      failure = new BundleError("corrupt", file, `cannot inflate: ${(e as Error)?.message ?? String(e)}`, name);
    }
  };

  const unzip = new Unzip(onFile);
  unzip.register(UnzipInflate);
  try {
    for (let off = 0; off < bytes.length && !failure; off += CHUNK) {
      const end = Math.min(off + CHUNK, bytes.length);
      unzip.push(bytes.subarray(off, end), end === bytes.length);
    }
  } catch (e) {
    if (!failure) failure = new BundleError("corrupt", file, `corrupt zip data (${(e as Error)?.message ?? String(e)})`);
  }
  if (failure) throw failure;
  for (const entry of listed.values()) {
    if (!entry.dir && !out.has(entry.name)) {
      throw new BundleError("corrupt", file, "listed in the central directory but its data could not be read", entry.name);
    }
  }
  return out;
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
