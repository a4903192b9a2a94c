/**
 * Watching a plugin's folder for `siglab plugin dev`: one non-recursive fs.watch per folder (an
 * inotify watch on Linux), never entering a skipped folder (node_modules/, the build output, dot
 * folders) or following a symbolic link. Node's recursive watch on Linux walks every folder,
 * node_modules included; this one watches only the sources. A folder created later is watched
 * from its first event on.
 */
import { lstatSync, readdirSync, watch, type Dirent, type FSWatcher } from "node:fs";
import { join, relative } from "node:path";

const isFolder = (p: string): boolean => {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
};

export interface TreeWatch {
  close(): void;
}

/**
 * Calls `onChange(rel)` for each change under `root` whose relative path `skip` does not reject;
 * `onError` when the root itself cannot be watched any more (removed, unreadable).
 */
export function watchTree(root: string, skip: (rel: string) => boolean, onChange: (rel: string) => void, onError: (e: Error) => void): TreeWatch {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;

  const add = (dir: string): void => {
    if (closed || watchers.has(dir)) return;
    let w: FSWatcher;
    try {
      w = watch(dir, (event, name) => {
        const full = name ? join(dir, String(name)) : dir;
        const rel = relative(root, full);
        if (rel && skip(rel)) return;
        if (event === "rename" && full !== dir && isFolder(full)) add(full); // a new sub-folder: watch it too
        onChange(rel);
      });
    } catch (e) {
      if (dir === root) throw e;
      return; // gone meanwhile
    }
    w.on("error", (e) => {
      w.close();
      watchers.delete(dir);
      if (dir === root && !closed) onError(e);
    });
    watchers.set(dir, w);
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      /* removed meanwhile: its watcher reports it */
    }
    for (const d of entries) {
      const sub = join(dir, d.name);
      if (d.isDirectory() && !skip(relative(root, sub))) add(sub); // a link is no directory here: never followed
    }
  };

  add(root);
  return {
    close() {
      closed = true;
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
