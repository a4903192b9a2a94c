/**
 * (No Linux counterpart: part of the simulator's path table, path-table.ts.) Handles of kernel
 * paths for the hot call sites: `k.run(P["setup_frame"])` resolves the path once per run (an array
 * slot) instead of a lookup by name on every call.
 */
export interface PathRef {
  readonly name: string;
  /** its slot in each kernel's resolved-path array */
  readonly id: number;
}

/** every handle made, by id: a PathRef is one of these, never an object that looks like one */
const ALL: PathRef[] = [];

/** One handle per name (module-level constants: ids are global, each kernel fills its own slots). */
export function pathRefs<N extends string>(names: readonly N[]): Readonly<Record<N, PathRef>> {
  const out = Object.create(null) as Record<N, PathRef>;
  for (const name of names) ALL.push((out[name] = Object.freeze({ name, id: ALL.length })));
  return Object.freeze(out);
}

/** How many handles exist (the modules that make them load before any kernel is built). */
export function pathRefCount(): number {
  return ALL.length;
}

/** Is `r` a handle pathRefs made? (Kernel.run is also called by plugins, with anything.) */
export function isPathRef(r: unknown): r is PathRef {
  return typeof r === "object" && r !== null && ALL[(r as PathRef).id] === r;
}
