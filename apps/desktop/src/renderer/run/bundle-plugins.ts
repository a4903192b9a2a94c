/**
 * A bundle's embedded plugins in the app (issue 31): the third-party code a bundle carries runs
 * only after the user trusts it, as `siglab bundle run --trust-embedded` asks in the CLI, and then
 * only in the app's sandbox worker, under the same budgets and refusals as an installed plugin.
 * Trust is remembered per content hash (the bundle's hash of the plugin's files) in this browser
 * profile's storage; the code itself is never installed and lives only while the app is open.
 * A trusted bundle's plugins join the run configuration's plugins (origin "bundle"), so a re-run
 * reproduces the bundle, and a bundle exported again embeds the same code.
 */
import type { Bundle } from "@siglab/core/bundle";
import type { PluginSource } from "@siglab/core/host";
import { embeddedPluginSources } from "@siglab/core/bundle";
import type { PluginManifest } from "../../common/contracts.js";
import type { PluginEntry } from "../../common/host-api.js";

const TRUSTED_KEY = "siglab.trustedBundlePlugins";
/** At most this many trusted hashes are remembered (the oldest are forgotten first). */
const MAX_TRUSTED = 200;

/** One embedded plugin of an opened bundle. */
export interface EmbeddedPlugin {
  id: string;
  version: string;
  /** the bundle's SHA-256 of the plugin's files (what trust is given to) */
  hash: string;
  source: PluginSource;
}

export class BundlePlugins {
  private readonly trusted = new Map<string, EmbeddedPlugin>();

  constructor(private readonly storage: Pick<Storage, "getItem" | "setItem"> | null = globalThis.localStorage ?? null) {}

  /** The bundle's embedded plugins (with their code, as the execution host takes it). */
  static of(bundle: Bundle): EmbeddedPlugin[] {
    const sources = new Map(embeddedPluginSources(bundle).map((s) => [s.id, s]));
    return bundle.plugins.flatMap((p) => {
      const source = sources.get(p.id);
      return p.source === "embedded" && source ? [{ id: p.id, version: p.version, hash: p.hash ?? "", source }] : [];
    });
  }

  /** Whether the user trusted this code before (by its hash; a plugin without one never is). */
  isTrusted(p: EmbeddedPlugin): boolean {
    return p.hash !== "" && this.trustedHashes().includes(p.hash);
  }

  /** Trusts the plugins' code: they run from now on, and their hashes are remembered. */
  trust(plugins: EmbeddedPlugin[]): void {
    for (const p of plugins) this.trusted.set(p.id, p);
    const hashes = [...this.trustedHashes().filter((h) => !plugins.some((p) => p.hash === h)), ...plugins.map((p) => p.hash).filter((h) => h !== "")];
    try {
      this.storage?.setItem(TRUSTED_KEY, JSON.stringify(hashes.slice(-MAX_TRUSTED)));
    } catch {
      /* trust is then asked again next time */
    }
  }

  /** The code of a trusted bundle plugin, for a run or an export. */
  source(id: string): PluginSource | undefined {
    return this.trusted.get(id)?.source;
  }

  /** The trusted bundle plugins as the run configuration lists plugins. */
  entries(): PluginEntry[] {
    return [...this.trusted.values()].map((p) => {
      const manifest = asManifest(p.source.manifest);
      return {
        id: p.id,
        origin: "bundle",
        manifest,
        enabled: manifest !== null && p.source.refused === undefined,
        status: manifest !== null && p.source.refused === undefined ? "ok" : "refused",
        ...(p.source.refused ? { reason: p.source.refused } : manifest ? {} : { reason: `${p.source.origin}/plugin.json: not a plugin manifest` }),
        folder: p.source.origin,
      } satisfies PluginEntry;
    });
  }

  private trustedHashes(): string[] {
    try {
      const v = JSON.parse(this.storage?.getItem(TRUSTED_KEY) ?? "[]") as unknown;
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
    } catch {
      return [];
    }
  }
}

/**
 * The manifest as the run configuration reads it (names, options), or null when it is not one.
 * The sandbox validates it fully before any of the plugin's code runs.
 */
function asManifest(m: unknown): PluginManifest | null {
  if (typeof m !== "object" || m === null) return null;
  const o = m as Record<string, unknown>;
  const options = o["options"];
  if (typeof o["id"] !== "string" || typeof o["displayName"] !== "string" || typeof options !== "object" || options === null) return null;
  for (const spec of Object.values(options)) if (typeof spec !== "object" || spec === null || typeof (spec as { type?: unknown }).type !== "string") return null;
  return m as PluginManifest;
}
