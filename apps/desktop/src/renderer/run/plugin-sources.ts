/** The code of the third-party plugins some variant stacks use, as the execution host takes it. */
import type { VariantSpec } from "../../common/contracts.js";
import type { HostApi } from "../../common/host-api.js";
import type { PluginSource } from "@siglab/core/host";
import { toPluginSource } from "../sim-client.js";
import type { Catalog } from "../state/catalog.js";

export async function thirdPartySources(stacks: VariantSpec[][], catalog: Catalog, host: HostApi): Promise<PluginSource[]> {
  const entry = (id: string): Catalog["plugins"][number] | undefined => catalog.plugins.find((p) => p.id === id);
  const ids = [...new Set(stacks.flat().map((v) => v.id))].filter((id) => entry(id)?.origin === "third-party");
  return Promise.all(ids.map(async (id) => toPluginSource(await host.readPluginCode(id), entry(id)?.folder)));
}
