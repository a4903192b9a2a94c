/**
 * The one reader of third-party plugin folders (Node only), shared by the CLI (`--plugin-dir`,
 * `bundle export`) and the desktop app's installer: a plugin folder is somebody else's, and what
 * is read from it goes to the sandbox and into bundles the user shares. So a plugin folder is
 * closed: regular files and folders only — a symbolic link (to a file, a folder, a device) or a
 * special file anywhere in it, the folder itself included, is refused with its path — within
 * limits of depth, files and bytes. Each file is opened with O_NOFOLLOW, checked through its
 * handle (a regular file, the one that was listed, inside the folder) and read to at most its
 * limit + 1 bytes, so nothing swapped in between listing and reading is followed or read whole.
 *
 * Folders that are not the plugin's (node_modules, .git and other dot folders: a built plugin's
 * dependencies, often links themselves) are not entered and nothing in them is read.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, type Stats } from "node:fs";
import { join, sep } from "node:path";

export interface PluginFolderLimits {
  /** files in the folder (outside the folders not entered) */
  maxFiles: number;
  /** bytes of one file read */
  maxFileBytes: number;
  /** bytes of all files read */
  maxTotalBytes: number;
  /** folders nested below the plugin folder */
  maxDepth: number;
}

export const PLUGIN_FOLDER_LIMITS: Readonly<PluginFolderLimits> = Object.freeze({
  maxFiles: 500,
  maxFileBytes: 5 * 1024 * 1024,
  maxTotalBytes: 20 * 1024 * 1024,
  maxDepth: 8,
});

/** A plugin folder refused: the message names the path and the problem. */
export class PluginFolderError extends Error {
  override name = "PluginFolderError";
}

export interface ReadPluginFolderOptions {
  /** which files to read ("/"-separated path relative to the folder); the others are only checked. Default: all. */
  want?(rel: string): boolean;
  /** folders not entered, by name (default: node_modules and dot folders) */
  skipFolder?(name: string): boolean;
  limits?: Partial<PluginFolderLimits>;
}

const defaultSkip = (name: string): boolean => name === "node_modules" || name.startsWith(".");

/** What a path is, for a refusal ("a symbolic link", "a device", ...). */
function kindOf(st: Stats): string {
  if (st.isSymbolicLink()) return "a symbolic link";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isDirectory()) return "a folder";
  return "not a regular file";
}

const refuse = (path: string, st: Stats): PluginFolderError =>
  new PluginFolderError(`${path}: ${kindOf(st)}; a plugin folder may hold only regular files and folders (copy what it links to into the folder)`);

/** The plugin folder itself: a real folder (not a link to one). Returns its real path. */
export function checkPluginRoot(root: string): string {
  let st: Stats;
  try {
    st = lstatSync(root);
  } catch (e) {
    throw new PluginFolderError(`${root}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such folder" : `cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`}`);
  }
  if (!st.isDirectory()) throw st.isSymbolicLink() || !st.isFile() ? refuse(root, st) : new PluginFolderError(`${root}: not a folder`);
  return realpathSync(root);
}

/**
 * Reads one regular file of a plugin folder: never through a symbolic link in its last component
 * (O_NOFOLLOW), only if the handle is a regular file (and, given `listed`, the very file listed),
 * at most `limit` bytes (limit + 1 are read to tell). `inside`: the real folder it must be in (a
 * folder on its path replaced by a link is caught through /proc where there is one).
 */
export function readRegularFile(path: string, limit: number, listed?: Stats, inside?: string): Uint8Array {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO put in the file's place does not block the open (the fstat refuses it)
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "EMLINK") throw new PluginFolderError(`${path}: a symbolic link; a plugin folder may hold only regular files and folders (copy what it links to into the folder)`);
    throw new PluginFolderError(`${path}: cannot read (${code ?? (e as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw refuse(path, st);
    if (listed && (st.ino !== listed.ino || st.dev !== listed.dev)) throw new PluginFolderError(`${path}: changed while the plugin folder was read`);
    if (inside) checkOpenedInside(fd, path, inside);
    if (st.size > limit) throw new PluginFolderError(`${path}: ${st.size.toLocaleString("en")} bytes, over the ${limit.toLocaleString("en")}-byte limit of a plugin file`);
    const chunks: Buffer[] = [];
    const buf = Buffer.allocUnsafe(Math.min(limit + 1, Math.max(st.size + 1, 64 * 1024)));
    let got = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, limit + 1 - got), null);
      if (n === 0) break;
      chunks.push(Buffer.from(buf.subarray(0, n)));
      got += n;
      if (got > limit) throw new PluginFolderError(`${path}: more than the ${limit.toLocaleString("en")}-byte limit of a plugin file`);
    }
    return new Uint8Array(Buffer.concat(chunks, got));
  } finally {
    closeSync(fd);
  }
}

/** Where the kernel says the open file is must be inside `folder` (Linux; elsewhere no check). */
function checkOpenedInside(fd: number, path: string, folder: string): void {
  let real: string;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return;
  }
  if (!real.startsWith(folder.endsWith(sep) ? folder : folder + sep)) throw new PluginFolderError(`${path}: is not inside the plugin folder ${folder} (a folder on its path is a link?)`);
}

/**
 * Checks a whole plugin folder and reads the files `want` picks: relative "/"-separated path ->
 * bytes (an object without a prototype: file names are data). Throws a PluginFolderError naming
 * the first path refused.
 */
export function readPluginFolderFiles(root: string, opts: ReadPluginFolderOptions = {}): Record<string, Uint8Array> {
  const limits = { ...PLUGIN_FOLDER_LIMITS, ...opts.limits };
  const want = opts.want ?? (() => true);
  const skip = opts.skipFolder ?? defaultSkip;
  const real = checkPluginRoot(root);
  const out = Object.create(null) as Record<string, Uint8Array>;
  let files = 0;
  let total = 0;
  const walk = (dir: string, rel: string, depth: number): void => {
    if (depth > limits.maxDepth) throw new PluginFolderError(`${dir}: folders nested deeper than ${limits.maxDepth} levels in a plugin folder`);
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(path);
      if (st.isDirectory()) {
        if (!skip(name)) walk(path, r, depth + 1);
        continue;
      }
      if (!st.isFile()) throw refuse(path, st);
      if (++files > limits.maxFiles) throw new PluginFolderError(`${root}: more than ${limits.maxFiles} files in a plugin folder`);
      if (!want(r)) continue;
      const bytes = readRegularFile(path, limits.maxFileBytes, st, real);
      total += bytes.length;
      if (total > limits.maxTotalBytes) throw new PluginFolderError(`${root}: more than ${limits.maxTotalBytes.toLocaleString("en")} bytes in the plugin's files`);
      out[r] = bytes;
    }
  };
  walk(root, "", 0);
  return out;
}

/** A plugin folder's plugin.json, read by the same rules (a manifest is at most 1 MiB). */
export function readManifestText(dir: string): string {
  checkPluginRoot(dir);
  return new TextDecoder().decode(readRegularFile(join(dir, "plugin.json"), 1024 * 1024));
}
