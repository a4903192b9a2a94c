/** A set of resolved profiles looked up by id or by an "id@MHz" reference. */
import { CpuRefError, ProfileError } from "./errors.js";
import { parseCpuRef, type ParsedCpuRef } from "./cpu-ref.js";
import { tryResolveInheritance, resolveProfile, type ResolveOptions } from "./resolve.js";
import type { CpuProfileFile, CpuProfileSource, ResolvedProfile } from "./types.js";

export class ProfileCatalog {
  private readonly byId = new Map<string, CpuProfileFile>();

  /** Later profiles with an id already present are refused (ids must be unique). */
  constructor(profiles: readonly CpuProfileFile[]) {
    for (const p of profiles) {
      if (this.byId.has(p.id)) throw new ProfileError(`${p.id}.json`, [{ path: "/id", message: `duplicate profile id "${p.id}"` }], p.id);
      this.byId.set(p.id, p);
    }
  }

  /**
   * Resolves `sources` (inheriting from `options.base` as needed) and builds a catalog of `base`'s
   * resolved profiles plus the new ones. Profiles that fail are reported, not fatal.
   */
  static fromSources(
    sources: readonly CpuProfileSource[],
    baseProfiles: readonly CpuProfileFile[] = [],
    options: ResolveOptions = {},
  ): { catalog: ProfileCatalog; errors: ProfileError[] } {
    const { profiles, errors } = tryResolveInheritance(sources, options);
    return { catalog: new ProfileCatalog([...baseProfiles, ...profiles]), errors };
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  list(): CpuProfileFile[] {
    return [...this.byId.values()];
  }

  get(id: string): CpuProfileFile | undefined {
    return this.byId.get(id);
  }

  /** Resolves "p4-northwood@2200" (or a parsed reference) to what the simulator consumes. */
  resolve(ref: string | ParsedCpuRef): ResolvedProfile {
    const parsed = typeof ref === "string" ? parseCpuRef(ref) : ref;
    const file = this.byId.get(parsed.id);
    if (!file) {
      throw new CpuRefError(`unknown CPU profile "${parsed.id}" (known: ${this.ids().join(", ")})`);
    }
    return resolveProfile(file, parsed.mhz);
  }
}
