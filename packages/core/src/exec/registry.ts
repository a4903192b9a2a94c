/**
 * All kernel paths of a run: the core's definitions, replaced or transformed by plugins, compiled
 * once for the run's CPU profile.
 */
import type { ResolvedProfile } from "@siglab/cpu-profiles";
import { CompiledPath } from "./executor.js";
import type { PathDef } from "./path.js";
import type { PhaseTable } from "./phases.js";
import type { Region } from "../machine/cache.js";

/** A plugin's change to a path: returns the new definition (it may add, drop or reorder ops). */
export interface PathTransform {
  target: string;
  origin: string;
  transform(def: PathDef): PathDef;
}

export class PathRegistry {
  private readonly defs = new Map<string, PathDef>();
  private readonly compiled = new Map<string, CompiledPath>();
  private sealed = false;
  /** where a path's code lies in kernel text (set by the kernel when it models caches) */
  codeLayout: ((def: PathDef) => Region[] | null) | null = null;

  constructor(private readonly phases: PhaseTable, private readonly profile: ResolvedProfile) {}

  define(def: PathDef): void {
    if (this.sealed) throw new Error(`path '${def.name}' defined after the run started`);
    this.defs.set(def.name, { origin: "core", ...def });
  }

  defineAll(defs: readonly PathDef[]): void {
    for (const d of defs) this.define(d);
  }

  applyTransform(t: PathTransform): void {
    const d = this.defs.get(t.target);
    if (!d) throw new Error(`plugin '${t.origin}' transforms unknown path '${t.target}'`);
    const nd = t.transform(d);
    this.defs.set(t.target, { ...nd, origin: d.origin === "core" ? t.origin : `${d.origin}+${t.origin}` });
  }

  /** Rebuild every path (the kernel compiled another way, e.g. CONFIG_SMP); origins are kept. */
  rebuildAll(f: (def: PathDef) => PathDef): void {
    if (this.sealed) throw new Error("paths rebuilt after the run started");
    for (const [name, d] of this.defs) this.defs.set(name, { ...f(d), origin: d.origin ?? "core" });
  }

  has(name: string): boolean {
    return this.defs.has(name);
  }

  def(name: string): PathDef {
    const d = this.defs.get(name);
    if (!d) throw new Error(`unknown kernel path '${name}'`);
    return d;
  }

  /** The compiled path (compiled lazily, once per run/profile). */
  get(name: string): CompiledPath {
    let c = this.compiled.get(name);
    if (!c) {
      this.sealed = true;
      const d = this.def(name);
      c = new CompiledPath(d, this.phases.id(d.phase), this.profile);
      if (this.codeLayout) c.code = this.codeLayout(d);
      this.compiled.set(name, c);
    }
    return c;
  }

  compileAll(): void {
    for (const n of this.defs.keys()) this.get(n);
  }

  all(): CompiledPath[] {
    return [...this.compiled.values()];
  }
}
