/**
 * The simulator's path table of one run (no Linux counterpart: Linux's paths are its code): the
 * kernel paths by name, compiled for the run's CPU profile on first use, and by handle — the core's
 * own (path-refs.ts) and the ones plugins ask for (Kernel.pathHandle, plugin API 2.2).
 */
import type { CompiledPath, Executor } from "../exec/executor.js";
import type { PhaseTable } from "../exec/phases.js";
import type { PathRegistry } from "../exec/registry.js";
import { isPathRef, pathRefCount, type PathRef } from "./path-refs.js";

export class PathTable {
  /** paths by name, resolved once */
  private readonly byName = new Map<string, CompiledPath>();
  /**
   * The core handles' paths by handle id, resolved on first use: dense from the start (null until
   * resolved), so a load is an element load whatever order the handles are first used in.
   */
  private readonly byRef: (CompiledPath | null)[] = Array.from({ length: pathRefCount() }, () => null);
  /** the handles pathHandle made, by -1 - id, their paths, and each name's handle */
  private readonly handles: PathRef[] = [];
  private readonly handlePaths: CompiledPath[] = [];
  private readonly handleByName = new Map<string, PathRef>();

  constructor(private readonly paths: PathRegistry, private readonly phases: PhaseTable, private readonly ex: Executor) {}

  /** Path by name (compiled for this profile, cached). */
  get(name: string): CompiledPath {
    let p = this.byName.get(name);
    if (!p) {
      p = this.paths.get(name);
      this.byName.set(name, p);
      this.ex.ensurePhases(this.phases.names.length);
    }
    return p;
  }

  /**
   * API 2.2: a handle of path `name`, valid in this kernel only: run/runN/runUser* resolve it with
   * an array load instead of the lookup by name. Resolved (and an unknown name refused) now.
   */
  handle(name: string): PathRef {
    // not a name: the unknown-path error run() gives it (get() throws)
    if (typeof name !== "string") this.get(typeof name === "object" || typeof name === "function" ? `(${name === null ? "null" : "an object"}, not a path name)` : String(name));
    let h = this.handleByName.get(name);
    if (h) return h;
    const p = this.get(name);
    // negative ids: apart from the core's handles (path-refs.ts), which index byRef
    h = Object.freeze({ name, id: -1 - this.handles.length });
    this.handles.push(h);
    this.handlePaths.push(p);
    this.handleByName.set(name, h);
    return h;
  }

  /**
   * A core handle's resolved path. Kernel.runRef/runNRef are reachable by plugins too: anything
   * that is not a resolved slot (a forged `{ id: "length" }` reads an array property) takes
   * resolve's checked way and is an unknown path, never a host TypeError.
   */
  compiled(r: PathRef): CompiledPath {
    const id = typeof r === "object" && r !== null ? r.id : -1;
    // a whole number below byRef's length indexes a resolved path or null, nothing else
    const c = id >>> 0 === id && id < this.byRef.length ? this.byRef[id]! : null;
    return c !== null ? c : this.resolve(r);
  }

  /** A handle's path, resolved on first use in this run (path-refs.ts); anything else a plugin passes is an unknown path. */
  resolve(r: PathRef): CompiledPath {
    if (typeof r === "object" && r !== null) {
      const id = r.id;
      // a handle pathHandle made (this kernel's own: another run's is an unknown path)
      if (typeof id === "number" && id < 0 && this.handles[-1 - id] === r) return this.handlePaths[-1 - id]!;
    }
    if (!isPathRef(r)) return this.get(typeof r === "object" || typeof r === "function" ? `(${r === null ? "null" : "an object"}, not a path name)` : String(r));
    const c = r.id < this.byRef.length ? this.byRef[r.id] : null;
    if (c) return c;
    const p = this.get(r.name);
    if (r.id < this.byRef.length) this.byRef[r.id] = p;
    return p;
  }
}
