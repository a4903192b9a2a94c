/** The code of the third-party plugins some variant stacks use, as the execution host takes it. */
import type { VariantSpec } from "../../common/contracts.js";
import type { HostApi } from "../../common/host-api.js";
import type { PluginSource } from "@siglab/core/host";
import { toPluginSource } from "../sim-client.js";
import type { Catalog } from "../state/catalog.js";

/** Installed third-party plugins come from the host; a trusted bundle's plugins (which take their ids' place) from the bundle. */
export async function thirdPartySources(stacks: VariantSpec[][], catalog: Catalog, host: HostApi): Promise<PluginSource[]> {
  const entry = (id: string): Catalog["plugins"][number] | undefined => catalog.plugins.find((p) => p.id === id);
  const ids = [...new Set(stacks.flat().map((v) => v.id))];
  const out: PluginSource[] = [];
  for (const id of ids) {
    const embedded = catalog.bundlePlugins.source(id);
    if (embedded) out.push(embedded);
    else if (entry(id)?.origin === "third-party") out.push(toPluginSource(await host.readPluginCode(id), entry(id)?.folder));
  }
  return out;
}
