/** Why the bundle at `out` (default apps/cli/dist/siglab.mjs) must be rebuilt, or null when it is fresh. */
export function staleness(out?: string): string | null;
/** The path of a fresh CLI bundle, rebuilt first when stale. */
export function freshCli(o?: { out?: string; onBuild?: (why: string) => void }): Promise<string>;
