/**
 * Creating a folder of new files the user named (`siglab plugin new`): the folder must not exist
 * yet, or be an empty real folder; a symlink or anything non-empty is refused. Files are created
 * with O_EXCL (never replacing or following anything), and a failure removes what was created.
 */
import { lstatSync, mkdirSync, readdirSync, realpathSync, rmSync, rmdirSync, writeFileSync, type Stats } from "node:fs";
import { dirname, join, sep } from "node:path";

/** A refusal; nothing was written. */
export class NewFolderRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NewFolderRefusal";
  }
}

const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | null)?.code;

/** Creates `target` with `files` (relative "/" paths → text). Throws NewFolderRefusal or a write error. */
export function writeNewFolder(target: string, files: Record<string, string>): void {
  let created = false;
  let st: Stats | undefined;
  try {
    st = lstatSync(target);
  } catch (e) {
    if (code(e) !== "ENOENT") throw e;
  }
  if (st?.isSymbolicLink()) throw new NewFolderRefusal(`${target}: is a symbolic link; refusing to create files through it`);
  if (st && !st.isDirectory()) throw new NewFolderRefusal(`${target} already exists (and is not a folder); refusing to overwrite it (pick another name or --dir)`);
  if (st && readdirSync(target).length) throw new NewFolderRefusal(`${target} already exists; refusing to overwrite it (pick another name or --dir)`);
  if (!st) {
    mkdirSync(dirname(target), { recursive: true });
    try {
      mkdirSync(target); // not recursive: fails if someone created it meanwhile
    } catch (e) {
      if (code(e) === "EEXIST") throw new NewFolderRefusal(`${target} already exists; refusing to overwrite it (pick another name or --dir)`);
      throw e;
    }
    created = true;
  }
  const root = realpathSync(target);
  const made: { path: string; dir: boolean }[] = []; // what this call created, in order
  try {
    // the folder was empty, so every sub-folder is new: create each once, parents first, never -p
    const dests = Object.keys(files).map((rel) => {
      if (rel.split("/").some((seg) => seg === "" || seg === "." || seg === "..")) throw new NewFolderRefusal(`${target}: bad file name in the skeleton: ${rel}`);
      return join(root, ...rel.split("/"));
    });
    const dirs = new Set<string>();
    for (const dest of dests) for (let d = dirname(dest); d !== root && d.startsWith(root + sep); d = dirname(d)) dirs.add(d);
    for (const d of [...dirs].sort((a, b) => a.length - b.length)) {
      mkdirSync(d);
      made.push({ path: d, dir: true });
    }
    Object.values(files).forEach((text, i) => {
      writeFileSync(dests[i]!, text, { flag: "wx" }); // O_EXCL: never replaces or follows
      made.push({ path: dests[i]!, dir: false });
    });
  } catch (e) {
    if (created) rmSync(root, { recursive: true, force: true });
    else for (const m of made.reverse()) removeQuiet(m.path, m.dir);
    throw e;
  }
}

function removeQuiet(p: string, dir: boolean): void {
  try {
    if (dir) rmdirSync(p);
    else rmSync(p, { force: true });
  } catch {
    /* gone, or holds something this call did not create */
  }
}
