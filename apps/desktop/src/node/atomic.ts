/**
 * Atomic file writes: write a temp file in the same folder, fsync it, then rename over the target.
 * A crash leaves either the old file or the new one, never a truncated mix.
 *
 * The target must be a regular file or absent: a symlink, a folder, a device, a FIFO or a socket
 * is refused (WriteRefusedError), checked before writing and again right before the rename. With
 * `within`, every folder from that root down to the target is a real folder (created if missing),
 * so a symlink planted in the workspace cannot redirect a write. With `existing: "create"` an
 * existing file is never replaced (the final step is a hard link, which fails on an existing name).
 */
import { randomBytes } from "node:crypto";
import { promises as fs, type Stats } from "node:fs";
import path from "node:path";
import { WriteRefusedError } from "./host-errors.js";

export interface AtomicWriteOptions {
  /** "replace" (default): an existing regular file is replaced; "create": it never is (code EEXIST). */
  existing?: "replace" | "create";
  /** A trusted folder (it may itself be a link) below which no symlink is followed. */
  within?: string;
}

const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | null)?.code;

async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await fs.lstat(p);
  } catch (e) {
    if (errno(e) === "ENOENT") return null;
    throw e;
  }
}

function kindOf(st: Stats): string {
  if (st.isSymbolicLink()) return "a symbolic link";
  if (st.isDirectory()) return "a folder";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

/** Creates the folders from `root` down to `dir`, refusing any that is a symlink or not a folder. */
async function realFoldersDown(root: string, dir: string): Promise<void> {
  const rel = path.relative(root, dir);
  if (rel.startsWith("..") || path.isAbsolute(rel)) throw new WriteRefusedError(`${dir}: is outside ${root}`);
  await fs.mkdir(root, { recursive: true });
  let cur = root;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    cur = path.join(cur, part);
    let st = await lstatOrNull(cur);
    if (!st) {
      await fs.mkdir(cur).catch((e: unknown) => {
        if (errno(e) !== "EEXIST") throw e;
      });
      st = await fs.lstat(cur);
    }
    if (st.isSymbolicLink()) throw new WriteRefusedError(`${cur}: is a symbolic link inside ${root}; refusing to follow it`);
    if (!st.isDirectory()) throw new WriteRefusedError(`${cur}: is not a folder`);
  }
}

/** Throws unless `file` is absent, or a regular file that may be replaced. */
async function checkTarget(file: string, existing: "replace" | "create"): Promise<void> {
  const st = await lstatOrNull(file);
  if (!st) return;
  if (!st.isFile()) throw new WriteRefusedError(`${file}: is ${kindOf(st)}; refusing to write to it`);
  if (existing === "create") throw new WriteRefusedError(`${file}: already exists; refusing to replace it`, "EEXIST");
}

export async function atomicWriteFile(target: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const file = path.resolve(target);
  const dir = path.dirname(file);
  const existing = opts.existing ?? "replace";
  if (opts.within) {
    await realFoldersDown(path.resolve(opts.within), dir);
  } else {
    const st = await fs.stat(dir).catch(() => null);
    if (!st?.isDirectory()) throw new WriteRefusedError(`${file}: folder ${dir} does not exist`);
  }
  await checkTarget(file, existing);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await fs.open(tmp, "wx", 0o644); // O_EXCL: never follows or reuses anything
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await checkTarget(file, existing); // again: it may have changed while writing
    if (existing === "replace") {
      await fs.rename(tmp, file);
    } else {
      await createFrom(tmp, file);
    }
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/** Gives `tmp` the name `file` only if no file has it (then drops the temp name). */
async function createFrom(tmp: string, file: string): Promise<void> {
  try {
    await fs.link(tmp, file);
  } catch (e) {
    if (errno(e) === "EEXIST") throw new WriteRefusedError(`${file}: already exists; refusing to replace it`, "EEXIST");
    // no hard links on this file system: the check just before is the guard
    await fs.rename(tmp, file);
    return;
  }
  await fs.rm(tmp, { force: true });
}

/** Reads a JSON file, returning `fallback` when it does not exist; names the file on bad JSON. */
export async function readJsonFile<T>(file: string, fallback: T): Promise<T> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return fallback;
    throw err;
  }
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new Error(`${file}: invalid JSON (${(err as Error).message})`);
  }
}
