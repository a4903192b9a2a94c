/** A plugin ready to use: its manifest and the factory of its ContainerModule. */
import type { ContainerModule } from "inversify";
import type { ParamValue } from "../common/experiment.js";
import type { ExampleWorkload } from "./extension-points.js";
import { markHostThrown } from "../common/host-thrown.js";
import { PLUGIN_API_VERSION, type PluginManifest } from "./manifest.js";

export interface LoadedPlugin {
  manifest: PluginManifest;
  /** returns the plugin's module for the given (validated) options */
  module(options: Record<string, ParamValue>): ContainerModule;
  builtin: boolean;
  /** example workloads shipped with the plugin */
  examples?: ExampleWorkload[];
  /** where it came from (a folder) for messages */
  origin?: string;
}

export class PluginError extends Error {
  constructor(message: string) {
    super(message);
    markHostThrown(this);
  }
}

/** Refuse a plugin built for another plugin-API major version. */
export function checkApiVersion(m: PluginManifest): void {
  const [maj] = PLUGIN_API_VERSION.split(".");
  const [pmaj, pmin] = String(m.apiVersion ?? "").split(".");
  const [, min] = PLUGIN_API_VERSION.split(".");
  if (pmaj !== maj || Number(pmin ?? 0) > Number(min)) {
    throw new PluginError(`plugin '${m.id}' targets plugin API ${m.apiVersion}, but this SigLab implements plugin API ${PLUGIN_API_VERSION}`);
  }
}

/** Validate and default a plugin's options; unknown keys and wrong types are refused. */
export function resolveOptions(m: PluginManifest, given: Record<string, ParamValue> = {}): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const [k, spec] of Object.entries(m.options ?? {})) out[k] = spec.default;
  for (const [k, v] of Object.entries(given)) {
    const spec = m.options?.[k];
    if (!spec) throw new PluginError(`plugin '${m.id}' has no option '${k}' (options: ${Object.keys(m.options ?? {}).join(", ") || "none"})`);
    let val: ParamValue = v;
    if (spec.type === "boolean") {
      if (v === "true" || v === true) val = true;
      else if (v === "false" || v === false) val = false;
      else throw new PluginError(`plugin '${m.id}' option '${k}': expected true or false, got '${v}'`);
    } else if (spec.type === "number") {
      val = Number(v);
      if (!Number.isFinite(val)) throw new PluginError(`plugin '${m.id}' option '${k}': expected a number, got '${v}'`);
      if ((spec.min !== undefined && val < spec.min) || (spec.max !== undefined && val > spec.max)) throw new PluginError(`plugin '${m.id}' option '${k}': ${val} is outside [${spec.min ?? "-inf"}, ${spec.max ?? "inf"}]`);
    } else if (spec.type === "enum") {
      if (!spec.values?.includes(String(v))) throw new PluginError(`plugin '${m.id}' option '${k}': expected one of ${spec.values?.join(", ")}, got '${v}'`);
      val = String(v);
    } else val = String(v);
    out[k] = val;
  }
  return out;
}

/** Two plugins in one stack that replace the same extension point conflict. */
export function checkConflicts(stack: PluginManifest[]): void {
  const owner = new Map<string, string>();
  for (const m of stack) {
    for (const point of m.replaces ?? []) {
      const prev = owner.get(point);
      if (prev && prev !== m.id) throw new PluginError(`plugins '${prev}' and '${m.id}' conflict: both replace the ${point} extension point`);
      owner.set(point, m.id);
    }
  }
}
