/**
 * Handles of kernel paths for the hot call sites: `k.run(P["setup_frame"])` resolves the path
 * once per run (an array slot) instead of a lookup by name on every call.
 */
export interface PathRef {
  readonly name: string;
  /** its slot in each kernel's resolved-path array */
  readonly id: number;
}

let nextId = 0;

/** One handle per name (module-level constants: ids are global, each kernel fills its own slots). */
export function pathRefs<N extends string>(names: readonly N[]): Readonly<Record<N, PathRef>> {
  const out = Object.create(null) as Record<N, PathRef>;
  for (const name of names) out[name] = Object.freeze({ name, id: nextId++ });
  return Object.freeze(out);
}
