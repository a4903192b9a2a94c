/**
 * Argument shapes of every host method, checked by both hosts (Electron IPC and HTTP) before a
 * handler runs. Deep validation of content (profiles, plugin manifests) happens in the handlers.
 */
import { Type, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { HostMethod } from "./host-api.js";

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Source = Type.String({ maxLength: 2_000_000 });
const Bytes = Type.Uint8Array({ maxByteLength: 64 * 1024 * 1024 });
const Obj = Type.Object({}, { additionalProperties: true });
/** a run as the result cache keys it (node/run-cache.ts); its content is hashed, never run, on this side */
const CachedRun = Type.Object(
  {
    spec: Type.Object({ workload: Type.Object({ id: Name, file: Type.String({ maxLength: 1000 }), source: Source }), cpu: Obj, variants: Type.Array(Obj, { maxItems: 64 }), params: Obj, seed: Type.Number() }, { additionalProperties: true }),
    plugins: Type.Array(Obj, { maxItems: 64 }),
    profiles: Type.Array(Obj, { maxItems: 256 }),
    limits: Type.Optional(Obj),
  },
  { additionalProperties: false },
);

export const HOST_ARG_SCHEMAS: Record<HostMethod, TSchema[]> = {
  info: [],
  listExamples: [],
  listPresets: [],
  listProfiles: [],
  saveUserProfile: [Type.Object({ id: Name, name: Type.String() }, { additionalProperties: true })],
  listPlugins: [],
  setPluginEnabled: [Name, Type.Boolean()],
  installPluginFromFolder: [],
  installPluginFromFile: [],
  confirmPluginReplace: [Type.String({ pattern: "^[0-9a-f]{32}$" })],
  readPluginCode: [Name],
  listWorkloads: [],
  readWorkload: [Name],
  saveWorkload: [Name, Source],
  saveDraft: [Name, Source],
  listDrafts: [],
  discardDraft: [Name],
  listRecent: [],
  addRecent: [
    Type.Object(
      {
        id: Name,
        title: Type.String({ maxLength: 500 }),
        savedAtMs: Type.Number(),
        workload: Type.Object({ kind: Type.Union([Type.Literal("example"), Type.Literal("user")]), id: Name }),
        config: Obj,
        summary: Type.Optional(Type.String({ maxLength: 1000 })),
      },
      { additionalProperties: false },
    ),
  ],
  exportBundle: [Name, Bytes],
  importBundle: [],
  saveExport: [Name, Type.Union([Type.String({ maxLength: 64 * 1024 * 1024 }), Bytes])],
  openExternal: [Type.String({ maxLength: 2048 })],
  lookupRun: [CachedRun],
  storeRun: [CachedRun, Type.Object({ workload: Type.String(), metrics: Type.Array(Obj) }, { additionalProperties: true })],
  resultCacheInfo: [],
  setResultCacheEnabled: [Type.Boolean()],
  saveShortLink: [Type.String({ maxLength: 64 * 1024 + 16 })],
  readShortLink: [Type.String({ maxLength: 16 })],
};

export class HostArgumentError extends Error {}

/** Throws a HostArgumentError naming the method, the argument and the problem. */
export function checkHostArgs(method: string, args: unknown): asserts args is unknown[] {
  if (!Object.prototype.hasOwnProperty.call(HOST_ARG_SCHEMAS, method)) {
    throw new HostArgumentError(`unknown host method "${method}"`);
  }
  const schemas = HOST_ARG_SCHEMAS[method as HostMethod];
  if (!Array.isArray(args)) throw new HostArgumentError(`${method}: arguments must be an array`);
  if (args.length !== schemas.length) {
    throw new HostArgumentError(`${method}: expected ${schemas.length} argument(s), got ${args.length}`);
  }
  schemas.forEach((schema, i) => {
    if (!Value.Check(schema, args[i])) {
      const first = Value.Errors(schema, args[i]).First();
      const where = first?.path ? ` at ${first.path}` : "";
      throw new HostArgumentError(`${method}: argument ${i + 1} is invalid${where}: ${first?.message ?? "wrong shape"}`);
    }
  });
}

export function isHostMethod(method: unknown): method is HostMethod {
  return typeof method === "string" && Object.prototype.hasOwnProperty.call(HOST_ARG_SCHEMAS, method);
}
