/** readBundle: untrusted bytes → a checked, migrated Bundle, or a BundleError naming the problem. */
import { BundleError } from "./errors.js";
import { decodeV1 } from "./decode.js";
import type { AvailablePlugin, Bundle } from "./format.js";
import { resolveLimits, type BundleLimits } from "./limits.js";
import { migrateBundle } from "./migrate.js";
import { readZipEntries } from "./zip-read.js";

export interface ReadBundleOptions {
  /** How the user knows the file; every error message starts with it. */
  fileName?: string;
  limits?: Partial<BundleLimits>;
  /** Built-in plugins of this SigLab: when given, a bundle that needs other versions is refused. */
  available?: AvailablePlugin[];
}

export function readBundle(bytes: Uint8Array, opts: ReadBundleOptions = {}): Bundle {
  const file = opts.fileName ?? "bundle";
  try {
    const entries = readZipEntries(bytes, file, resolveLimits(opts.limits));
    const migrated = migrateBundle(entries, { fileName: file });
    const bundle = decodeV1(migrated.files, file);
    if (migrated.fromVersion !== migrated.toVersion) {
      bundle.migratedFrom = migrated.fromVersion;
      bundle.warnings.unshift(...migrated.notes);
    }
    if (opts.available) {
      const check = checkBuiltinPlugins(bundle, opts.available);
      if (check.missing.length) {
        throw new BundleError("missing-plugin", file, `needs built-in plugin versions this SigLab does not have: ${check.missing.join(", ")}`, "plugins.json");
      }
      bundle.warnings.push(...check.changed);
    }
    return bundle;
  } catch (e) {
    if (e instanceof BundleError) throw e;
    // Anything else is a bug or an input we did not foresee: still a refusal with the file's name.
    throw new BundleError("corrupt", file, `unreadable bundle (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** Built-in plugins the bundle needs that are absent or at another version; hashes that changed. */
export function checkBuiltinPlugins(bundle: Pick<Bundle, "plugins">, available: AvailablePlugin[]): { missing: string[]; changed: string[] } {
  const missing: string[] = [];
  const changed: string[] = [];
  for (const p of bundle.plugins) {
    if (p.source !== "builtin") continue;
    const have = available.filter((a) => a.id === p.id);
    const same = have.find((a) => a.version === p.version);
    if (!same) {
      missing.push(`${p.id}@${p.version} (${have.length ? `this SigLab has ${have.map((a) => a.version).join(", ")}` : "not installed"})`);
    } else if (p.hash && same.hash && p.hash !== same.hash) {
      changed.push(`built-in plugin ${p.id}@${p.version} differs from the one the bundle was made with (hash ${same.hash.slice(0, 12)}… vs ${p.hash.slice(0, 12)}…): results may differ`);
    }
  }
  return { missing, changed };
}
