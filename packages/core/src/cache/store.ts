/**
 * A bounded folder of verified entries, one file per key (`<dir>/<first 2 hex>/<key>`), shared by
 * every process of the user:
 *  - a write goes to a temp file in the same folder, then rename(): another process sees the old
 *    entry or the new one, never part of one (no torn reads), and two writers of one key both
 *    leave a whole entry;
 *  - a read verifies the entry (entry.ts); a damaged one is deleted and reported as a miss;
 *  - a hit sets the file's mtime to now, so mtime is the last use; when the folder grows past its
 *    bound, the least recently used entries go first, down to 90 % of the bound.
 * Every file-system failure is a miss (reads) or a skipped write: the cache never fails a command.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decodeEntry, encodeEntry } from "./entry.js";

export interface CacheStoreInfo {
  dir: string;
  entries: number;
  bytes: number;
  maxBytes: number;
}

export interface CacheStoreOptions {
  /** the bound of the folder's size in bytes */
  maxBytes: number;
  /** told about a damaged entry (it has been deleted and counts as a miss) */
  onDamaged?(file: string, problem: string): void;
  /** told when an entry could not be written (a full disk, a read-only folder) */
  onWriteFailed?(error: Error): void;
}

const KEY = /^[0-9a-f]{64}$/;
/** a temp file older than this was left by a writer that died: removed by the next walk */
const ABANDONED_MS = 10 * 60_000;
/** an entry bigger than this share of the bound is not stored (it would evict the rest) */
const LARGEST_SHARE = 1 / 8;

interface Walked {
  file: string;
  bytes: number;
  usedMs: number;
  /** a write in flight (counted toward the size, never evicted) */
  temp: boolean;
}

export class CacheStore {
  /** the folder's size as of the last walk, plus what this process wrote since */
  private size: number | undefined;

  constructor(
    readonly dir: string,
    private readonly opts: CacheStoreOptions,
  ) {}

  get maxBytes(): number {
    return this.opts.maxBytes;
  }

  fileOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`cache key must be 64 lower-case hex digits, got '${key}'`);
    return join(this.dir, key.slice(0, 2), key);
  }

  /** The verified body stored under `key`, or undefined (absent or damaged). */
  get(key: string): Buffer | undefined {
    const file = this.fileOf(key);
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      return undefined;
    }
    const entry = decodeEntry(key, bytes);
    if ("problem" in entry) {
      this.remove(file);
      this.opts.onDamaged?.(file, entry.problem);
      return undefined;
    }
    try {
      const now = new Date();
      utimesSync(file, now, now); // last use, for eviction
    } catch {
      /* evicted meanwhile by another process: the body read is whole */
    }
    return entry.body;
  }

  /** Stores `body` under `key` (atomically); false when it was not stored. */
  put(key: string, body: Uint8Array): boolean {
    const file = this.fileOf(key);
    const bytes = encodeEntry(key, body);
    if (bytes.length > this.opts.maxBytes * LARGEST_SHARE) return false;
    const tmp = join(file, "..", `.${key}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
    try {
      mkdirSync(join(file, ".."), { recursive: true });
      writeFileSync(tmp, bytes, { flag: "wx", mode: 0o600 });
      renameSync(tmp, file);
    } catch (e) {
      this.remove(tmp);
      this.opts.onWriteFailed?.(e as Error);
      return false;
    }
    this.size = this.size === undefined ? total(this.walk()) : this.size + bytes.length;
    if (this.size > this.opts.maxBytes) this.evict();
    return true;
  }

  /** Deletes the least recently used entries until the folder is within 90 % of its bound. */
  evict(): void {
    const all = this.walk().sort((a, b) => a.usedMs - b.usedMs);
    let size = total(all);
    const target = this.opts.maxBytes * 0.9;
    for (const w of all) {
      if (size <= target) break;
      if (w.temp) continue;
      this.remove(w.file);
      size -= w.bytes;
    }
    this.size = size;
  }

  info(): CacheStoreInfo {
    const all = this.walk();
    return { dir: this.dir, entries: all.filter((w) => !w.temp).length, bytes: total(all), maxBytes: this.opts.maxBytes };
  }

  /** Deletes every entry; returns how many there were. */
  clear(): number {
    const all = this.walk().filter((w) => !w.temp);
    for (const w of all) this.remove(w.file);
    this.size = undefined;
    return all.length;
  }

  /** Every entry (and in-flight temp file) with its size and last use; abandoned temp files are removed. */
  private walk(): Walked[] {
    const out: Walked[] = [];
    for (const sub of list(this.dir)) {
      if (!/^[0-9a-f]{2}$/.test(sub)) continue;
      const folder = join(this.dir, sub);
      for (const name of list(folder)) {
        const file = join(folder, name);
        let st;
        try {
          st = statSync(file);
        } catch {
          continue; // evicted meanwhile
        }
        if (!st.isFile()) continue;
        const temp = name.startsWith(".");
        if (temp && Date.now() - st.mtimeMs > ABANDONED_MS) {
          this.remove(file);
          continue;
        }
        if (!temp && !KEY.test(name)) continue;
        out.push({ file, bytes: st.size, usedMs: st.mtimeMs, temp });
      }
    }
    return out;
  }

  private remove(file: string): void {
    try {
      unlinkSync(file);
    } catch {
      /* gone already */
    }
  }
}

function total(all: readonly Walked[]): number {
  return all.reduce((n, w) => n + w.bytes, 0);
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
