/**
 * The one place where the CLI writes a file the user named (`-o FILE`). Outputs never destroy data:
 *   - an existing file is replaced only with --force;
 *   - an input of the same command (the bundle read, the workload file, --chart files, files in
 *     --plugin-dir folders) is never written over, even with --force; "the same file" is decided
 *     by real path and by device+inode, so `..` paths, symlinks and hard links are caught;
 *   - directories, devices, FIFOs and sockets are always refused;
 *   - a symlink is refused unless --force; with --force the rules apply to the file it points to,
 *     whose contents are then replaced (the link stays);
 *   - the data goes to a temp file in the target's folder, is fsynced, then renamed over the
 *     target; the temp file is removed on any failure.
 * Refusals are OutputRefusal errors ("<file>: <reason>"), raised before anything is written;
 * `checkOutputTarget` runs the same checks up front so a command can refuse before long work.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  fchmodSync,
  type Stats,
} from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";

/** A target the rules refuse; nothing has been written. The message is "<file>: <reason>". */
export class OutputRefusal extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = "OutputRefusal";
  }
}

export interface OutputOptions {
  /** Replace an existing regular file, or write through a symlink to one (never an input). */
  force?: boolean;
  /** Files the command reads, and folders all of whose files it may read (--plugin-dir). */
  inputs?: readonly string[];
}

/** Where a checked output goes. */
export interface OutputPlan {
  /** The path as the user gave it (used in messages). */
  file: string;
  /** The absolute real path that will be replaced or created (the link's target for a symlink). */
  real: string;
  /** The real target exists now. */
  exists: boolean;
  /** Its permission bits, kept when it is replaced. */
  mode?: number;
}

/** Entries looked at per --plugin-dir folder when looking for hard links to the target. */
const MAX_WALK_ENTRIES = 20_000;

const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | null)?.code;

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch (e) {
    if (code(e) === "ENOENT" || code(e) === "ENOTDIR") return null; // the parent check names the problem
    throw e;
  }
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/** The real folder a new or existing file `abs` lives in (its parent must exist and be a folder). */
function realParent(file: string, abs: string): string {
  const parent = dirname(abs);
  let real: string;
  try {
    real = realpathSync(parent);
  } catch (e) {
    const c = code(e);
    if (c === "ENOENT") throw new OutputRefusal(file, `folder ${parent} does not exist`);
    if (c === "ENOTDIR") throw new OutputRefusal(file, `${parent} is not a folder`);
    throw new OutputRefusal(file, `cannot reach folder ${parent} (${c ?? (e as Error).message})`);
  }
  if (!statSync(real).isDirectory()) throw new OutputRefusal(file, `${parent} is not a folder`);
  return real;
}

/** Follows a chain of symlinks to a path that is not one (which may not exist yet). */
function followLinks(file: string, abs: string): string {
  let cur = abs;
  for (let hops = 0; hops < 40; hops++) {
    const st = lstatOrNull(cur);
    if (!st || !st.isSymbolicLink()) return join(realParent(file, cur), basename(cur));
    cur = resolve(dirname(cur), readlinkSync(cur));
  }
  throw new OutputRefusal(file, "too many levels of symbolic links");
}

interface InputId {
  path: string;
  real: string;
  dev: number;
  ino: number;
  dir: boolean;
}

function identify(p: string): InputId | null {
  try {
    const real = realpathSync(p);
    const st = statSync(real);
    return { path: p, real, dev: st.dev, ino: st.ino, dir: st.isDirectory() };
  } catch {
    return null; // an input that does not exist cannot be overwritten (its reader reports it)
  }
}

const within = (child: string, folder: string): boolean => child.startsWith(folder.endsWith(sep) ? folder : folder + sep);

/** The file under `dir` that is the same inode as `target`, if any (symlinked folders are not entered). */
function sameInodeUnder(dir: string, target: Stats): string | undefined {
  let seen = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      continue;
    }
    for (const name of names) {
      if (++seen > MAX_WALK_ENTRIES) return undefined;
      const p = join(d, name);
      const l = lstatOrNull(p);
      if (!l) continue;
      if (l.isDirectory()) {
        stack.push(p);
        continue;
      }
      let st: Stats = l;
      if (l.isSymbolicLink()) {
        try {
          st = statSync(p); // a plugin file may be a link to the target
        } catch {
          continue;
        }
      }
      if (st.isFile() && st.dev === target.dev && st.ino === target.ino) return p;
    }
  }
  return undefined;
}

function refuseInputs(file: string, real: string, st: Stats | null, inputs: readonly string[]): void {
  for (const p of inputs) {
    const id = identify(p);
    if (!id) continue;
    if (!id.dir) {
      if (real === id.real) throw new OutputRefusal(file, `is ${p}, an input of this command; refusing to write over it (even with --force)`);
      if (st && st.dev === id.dev && st.ino === id.ino) throw new OutputRefusal(file, `is the same file as ${p} (a hard link), an input of this command; refusing to write over it (even with --force)`);
      continue;
    }
    if (!st) continue; // a new file in an input folder destroys nothing
    if (within(real, id.real)) throw new OutputRefusal(file, `is inside ${p}, an input folder of this command; refusing to write over it (even with --force)`);
    const twin = sameInodeUnder(id.real, st);
    if (twin) throw new OutputRefusal(file, `is the same file as ${twin} (a hard link) in ${p}, an input folder of this command; refusing to write over it (even with --force)`);
  }
}

/** Applies every rule to `file` without writing anything; throws an OutputRefusal or returns the plan. */
export function checkOutputTarget(file: string, opts: OutputOptions = {}): OutputPlan {
  if (!file) throw new OutputRefusal("(empty)", "no output file named");
  if (/[/\\]$/.test(file)) throw new OutputRefusal(file, "names a folder, not a file");
  const abs = resolve(file);
  const own = lstatOrNull(abs);
  const link = own?.isSymbolicLink() === true;
  const real = link ? followLinks(file, abs) : join(realParent(file, abs), basename(abs));
  const st = lstatOrNull(real);
  // inputs first: their refusal holds even with --force, so say so rather than suggest it
  refuseInputs(file, real, st, opts.inputs ?? []);
  if (st && !st.isFile()) throw new OutputRefusal(file, link ? `is a symbolic link to ${real}, which is ${kindOf(st)}; refusing to write to it` : `is ${kindOf(st)}; refusing to write to it`);
  if (link && !opts.force) throw new OutputRefusal(file, `is a symbolic link (to ${real}); use --force to replace the file it points to`);
  if (st && !opts.force) throw new OutputRefusal(file, "already exists; use --force to replace it");
  return { file, real, exists: st !== null, ...(st ? { mode: st.mode & 0o7777 } : {}) };
}

/**
 * Writes `data` to `file` under the rules above. The temp file is created with O_EXCL next to the
 * real target and renamed over it; without --force the final step cannot replace a file that
 * appeared in the meantime (a hard link that fails on an existing name, then the rename).
 */
export function writeOutputFile(file: string, data: Uint8Array | string, opts: OutputOptions = {}): OutputPlan {
  const plan = checkOutputTarget(file, opts);
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  const folder = dirname(plan.real);
  const tmp = join(folder, `.${basename(plan.real)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, "wx", 0o644);
  } catch (e) {
    throw new Error(`${file}: cannot create a temporary file in ${folder} (${code(e) ?? (e as Error).message})`);
  }
  let open = true;
  try {
    if (plan.mode !== undefined) fchmodSync(fd, plan.mode); // a replaced file keeps its permissions
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
    closeSync(fd);
    open = false;
    // the target may have changed since the check: look again right before the rename
    const now = lstatOrNull(plan.real);
    if (now && !now.isFile()) throw new OutputRefusal(file, `${plan.real} became ${kindOf(now)}; refusing to write to it`);
    if (now && !opts.force) throw new OutputRefusal(file, "already exists; use --force to replace it");
    if (opts.force) renameSync(tmp, plan.real);
    else renameNoReplace(file, tmp, plan.real);
  } catch (e) {
    if (open) {
      try {
        closeSync(fd);
      } catch {
        /* already closed */
      }
    }
    rmSync(tmp, { force: true });
    if (e instanceof OutputRefusal) throw e;
    throw new Error(`${file}: cannot write (${code(e) ?? (e as Error).message})`);
  }
  syncFolder(folder);
  return plan;
}

/** Moves `tmp` to `target` only if `target` does not exist (link fails with EEXIST instead of replacing). */
function renameNoReplace(file: string, tmp: string, target: string): void {
  try {
    linkSync(tmp, target);
  } catch (e) {
    if (code(e) === "EEXIST") throw new OutputRefusal(file, "already exists; use --force to replace it");
    // file systems without hard links: the check above just ran, so rename
    renameSync(tmp, target);
    return;
  }
  rmSync(tmp, { force: true });
}

/** Makes the rename durable; some platforms cannot fsync a folder, which is not an error. */
function syncFolder(folder: string): void {
  try {
    const fd = openSync(folder, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* best effort */
  }
}

/** Plain atomic replace of `path` (no rules): for callers that already decided the target is theirs. */
export function atomicWriteFile(path: string, data: Uint8Array | string): void {
  writeOutputFile(path, data, { force: true });
}
