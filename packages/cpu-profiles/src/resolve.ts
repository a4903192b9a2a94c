/**
 * Inheritance (deep merge, costs per op) and resolution of a profile at one clock.
 * Pure data in, pure data out: no Node or DOM APIs, so it runs in the sim worker too.
 */
import { resolvedIssues } from "./checks.js";
import { ProfileError, type ProfileIssue } from "./errors.js";
import { MACHINE_OP_CLASS_IDS, OP_CLASS_IDS, SMP_OP_CLASS_IDS, type OpClass } from "./op-classes.js";
import { rememberSourceFile, sourceFileName } from "./parse.js";
import { CpuProfileFileSchema } from "./schema.js";
import { schemaIssues } from "./schema-issues.js";
import type { CostEntry, CpuProfileFile, CpuProfileSource, ResolvedProfile, SourcedNumber } from "./types.js";

export interface ResolveOptions {
  /** Profiles the files may inherit from but that are not resolved themselves (e.g. the builtins). */
  base?: readonly CpuProfileSource[];
}

export interface ResolveResult {
  /** Resolved runnable profiles, in input order (abstract ones are left out). */
  profiles: CpuProfileFile[];
  /** One error per profile that could not be resolved; the others still resolve. */
  errors: ProfileError[];
}

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === "object" && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => structuredClone(v);
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Fields that describe a file, not the CPU: never inherited, not kept in a resolved profile. */
const FILE_ONLY = new Set(["$schema", "id", "inherits", "abstract", "inheritedFrom"]);
/** Objects merged key by key; each of their values (a cost entry, a sourced number) is atomic. */
const KEYED = new Set(["clock", "features", "featureNotes", "geometry", "costs"]);
/** Keyed objects whose entries get an `inheritedFrom` annotation. */
const ANNOTATED = new Set(["geometry", "costs"]);

function chainOf(src: CpuProfileSource, byId: Map<string, CpuProfileSource>): CpuProfileSource[] {
  const chain = [src];
  const seen = new Set([src.id]);
  let cur = src;
  while (cur.inherits !== undefined) {
    const parent = byId.get(cur.inherits);
    const file = sourceFileName(cur);
    if (!parent) {
      const known = [...byId.keys()].sort().join(", ");
      throw new ProfileError(file, [{ path: "/inherits", message: `unknown profile "${cur.inherits}" (known: ${known})` }], cur.id);
    }
    if (seen.has(parent.id)) {
      const ids = [...chain.map((c) => c.id), parent.id].join(" → ");
      throw new ProfileError(sourceFileName(src), [{ path: "/inherits", message: `inheritance cycle ${ids}` }], src.id);
    }
    seen.add(parent.id);
    chain.push(parent);
    cur = parent;
  }
  return chain;
}

/** Merges `chain` (child first) root-first into one plain object, annotating inherited entries. */
function mergeChain(chain: CpuProfileSource[]): Dict {
  const self = chain[0]!.id;
  const out: Dict = {};
  const setBy = new Map<string, string>(); // "costs/fxsave" -> id of the profile that set it
  for (const src of [...chain].reverse()) {
    for (const [key, value] of Object.entries(src as unknown as Dict)) {
      if (FILE_ONLY.has(key) || value === undefined) continue;
      if (KEYED.has(key) && isDict(value)) {
        const target = (isDict(out[key]) ? out[key] : (out[key] = {})) as Dict;
        for (const [k, v] of Object.entries(value)) {
          if (v === undefined) continue;
          target[k] = clone(v);
          setBy.set(`${key}/${k}`, src.id);
        }
      } else {
        out[key] = clone(value);
      }
    }
  }
  for (const group of ANNOTATED) {
    const entries = out[group];
    if (!isDict(entries)) continue;
    for (const [k, v] of Object.entries(entries)) {
      if (!isDict(v)) continue;
      const from = setBy.get(`${group}/${k}`);
      if (from !== undefined && from !== self) v.inheritedFrom = from;
      else delete v.inheritedFrom;
    }
  }
  const ancestors = chain.slice(1).map((c) => c.id);
  return { id: self, ...(ancestors.length > 0 ? { inheritedFrom: ancestors } : {}), ...out };
}

/** Recomputes every `relativeTo` cost from its base op (chains allowed, cycles refused). */
function applyRelative(costs: Partial<Record<OpClass, CostEntry>>): ProfileIssue[] {
  const issues: ProfileIssue[] = [];
  const done = new Set<OpClass>();
  const visit = (op: OpClass, stack: OpClass[]): number => {
    const e = costs[op]!;
    if (!e.relativeTo || done.has(op)) return e.cycles;
    if (stack.includes(op)) throw [...stack, op];
    const base = visit(e.relativeTo.op, [...stack, op]);
    e.cycles = Math.max(0, round2(base * (e.relativeTo.factor ?? 1) + (e.relativeTo.plus ?? 0)));
    done.add(op);
    return e.cycles;
  };
  for (const op of OP_CLASS_IDS) {
    if (!costs[op]?.relativeTo) continue;
    try {
      visit(op, []);
    } catch (cycle) {
      if (!Array.isArray(cycle)) throw cycle;
      issues.push({ path: `/costs/${op}/relativeTo`, message: `relative costs form a cycle: ${cycle.join(" → ")}` });
      return issues;
    }
  }
  return issues;
}

/**
 * Validates a complete profile (resolved here, or read from a bundle) and recomputes its relative
 * costs in place. `ancestors` only improves the message for a missing op.
 */
function finish(candidate: Dict, file: string, ancestors: readonly string[] = []): CpuProfileFile {
  const id = String(candidate.id);
  const costs = isDict(candidate.costs) ? candidate.costs : {};
  const missing = OP_CLASS_IDS.filter((op) => costs[op] === undefined);
  if (missing.length > 0) {
    const where = ancestors.length > 0 ? ` (nor does any profile it inherits from: ${ancestors.join(" → ")})` : "";
    throw new ProfileError(
      file,
      missing.map((op) => ({ path: `/costs/${op}`, message: `profile "${id}" has no cost for op class "${op}"${where}` })),
      id,
    );
  }
  const shape = schemaIssues(CpuProfileFileSchema, candidate);
  if (shape.length > 0) throw new ProfileError(file, shape, id);
  const profile = candidate as unknown as CpuProfileFile;
  if (profile.abstract) throw new ProfileError(file, [{ path: "/abstract", message: `profile "${id}" is abstract: it can only be inherited` }], id);
  const issues = [...applyRelative(profile.costs), ...resolvedIssues(profile)];
  if (issues.length > 0) throw new ProfileError(file, issues, id);
  rememberSourceFile(profile as CpuProfileSource, file);
  return profile;
}

/** Resolves inheritance for `files`; a profile that fails does not stop the others. */
export function tryResolveInheritance(files: readonly CpuProfileSource[], options: ResolveOptions = {}): ResolveResult {
  const byId = new Map<string, CpuProfileSource>();
  const errors: ProfileError[] = [];
  for (const b of options.base ?? []) byId.set(b.id, b);
  const own: CpuProfileSource[] = [];
  for (const f of files) {
    const prev = byId.get(f.id);
    if (prev) {
      const msg = `duplicate profile id "${f.id}" (also defined by ${sourceFileName(prev)})`;
      errors.push(new ProfileError(sourceFileName(f), [{ path: "/id", message: msg }], f.id));
      continue;
    }
    byId.set(f.id, f);
    own.push(f);
  }
  const profiles: CpuProfileFile[] = [];
  for (const f of own) {
    if (f.abstract) continue;
    try {
      const chain = chainOf(f, byId);
      profiles.push(finish(mergeChain(chain), sourceFileName(f), chain.slice(1).map((c) => c.id)));
    } catch (err) {
      if (!(err instanceof ProfileError)) throw err;
      errors.push(err);
    }
  }
  return { profiles, errors };
}

/** Resolves inheritance for `files` (raw profiles); throws the first ProfileError. */
export function resolveInheritance(files: readonly CpuProfileSource[], options: ResolveOptions = {}): CpuProfileFile[] {
  const { profiles, errors } = tryResolveInheritance(files, options);
  if (errors.length > 0) throw errors[0]!;
  return profiles;
}

/**
 * Checks a self-contained profile from elsewhere (a bundle, the UI) and returns a validated copy.
 * A profile that still `inherits` must go through resolveInheritance instead.
 */
export function checkResolvedProfile(value: unknown, fileName: string): CpuProfileFile {
  if (!isDict(value)) throw new ProfileError(fileName, [{ path: "", message: "expected a JSON object" }]);
  const copy = clone(value);
  const id = typeof copy.id === "string" ? copy.id : undefined;
  if (copy.inherits !== undefined && (!isDict(copy.costs) || OP_CLASS_IDS.some((op) => (copy.costs as Dict)[op] === undefined))) {
    throw new ProfileError(fileName, [{ path: "/inherits", message: `profile inherits "${String(copy.inherits)}": resolve inheritance first` }], id);
  }
  delete copy.$schema;
  delete copy.inherits;
  return finish(copy, fileName);
}

function numberOf(n: SourcedNumber): number {
  return n.value;
}

/**
 * A profile at one clock: what the simulator consumes. `mhz` defaults to the profile's default
 * clock and must lie within [minMhz, maxMhz]. Costs are cycles per op (relative ones recomputed).
 */
export function resolveProfile(file: CpuProfileFile, mhz?: number): ResolvedProfile {
  const name = sourceFileName(file as CpuProfileSource);
  const f = checkResolvedProfile(file, name);
  const clockMhz = mhz ?? f.clock.defaultMhz;
  const { minMhz, maxMhz } = f.clock;
  if (!Number.isFinite(clockMhz) || clockMhz < minMhz || clockMhz > maxMhz) {
    throw new ProfileError(
      name,
      [{ path: "/clock", message: `${clockMhz} MHz is outside the clock range of profile "${f.id}" (${minMhz}–${maxMhz} MHz)` }],
      f.id,
    );
  }
  const costs = {} as ResolvedProfile["costs"];
  const unavailableOps: OpClass[] = [];
  for (const op of OP_CLASS_IDS) {
    const e = f.costs[op];
    // a cost fixed in time (ns) takes the run's clock
    costs[op] = e.ns !== undefined && !e.unavailable ? Math.round((e.ns * clockMhz) / 1000) : e.cycles;
    if (e.unavailable) unavailableOps.push(op);
  }
  // the SMP op classes (API 2.2): NaN when the profile leaves them out (an SMP run refuses it)
  for (const op of [...SMP_OP_CLASS_IDS, ...MACHINE_OP_CLASS_IDS]) {
    const e = f.costs[op];
    costs[op] = !e ? NaN : e.ns !== undefined ? Math.round((e.ns * clockMhz) / 1000) : e.cycles;
  }
  const g = f.geometry;
  const caches = cacheGeometry(f, costs);
  return {
    id: f.id,
    name: f.name,
    vendor: f.vendor,
    mhz: clockMhz,
    features: { ...f.features, syscall: f.features.syscall ?? false, lm: f.features.lm ?? false },
    cacheLineBytes: numberOf(g.cacheLineBytes),
    dtlbEntries: numberOf(g.dtlbEntries),
    l1dKB: numberOf(g.l1dKB),
    l2KB: numberOf(g.l2KB),
    xmmRegs: numberOf(g.xmmRegs),
    xsaveBytes: numberOf(g.xsaveBytes),
    costs,
    ...(caches ? { caches } : {}),
    file: f,
    unavailableOps,
  };
}

/**
 * The caches the model keeps (API 2.3): only when the profile gives their whole geometry and the
 * latencies of L2 and memory; otherwise undefined, and every access hits L1 as before 2.3.
 */
function cacheGeometry(f: CpuProfileFile, costs: ResolvedProfile["costs"]): ResolvedProfile["caches"] {
  const g = f.geometry;
  if (!g.l1iKB || !g.l1iWays || !g.l1dWays || !g.l2Ways || !Number.isFinite(costs.l2_line) || !Number.isFinite(costs.memory_line)) return undefined;
  const line = numberOf(g.cacheLineBytes);
  return {
    l1i: { bytes: numberOf(g.l1iKB) * 1024, ways: numberOf(g.l1iWays), lineBytes: line },
    l1d: { bytes: numberOf(g.l1dKB) * 1024, ways: numberOf(g.l1dWays), lineBytes: line },
    l2: { bytes: numberOf(g.l2KB) * 1024, ways: numberOf(g.l2Ways), lineBytes: g.l2LineBytes ? numberOf(g.l2LineBytes) : line },
    l2Exclusive: g.l2Exclusive ? numberOf(g.l2Exclusive) === 1 : false,
    l1dWriteAllocate: g.l1dWriteAllocate ? numberOf(g.l1dWriteAllocate) === 1 : true,
    ...(g.l1iClearedByInterrupt && numberOf(g.l1iClearedByInterrupt) === 1 ? { l1iClearedByInterrupt: true } : {}),
  };
}
