/** Size limits of what a renderer may ask a host to store; the same for Electron and HTTP. */
import { PayloadTooLargeError } from "./host-errors.js";

const MiB = 1024 * 1024;

/** A workload source (saveWorkload, saveDraft): 1 MB, like a workload file the CLI accepts. */
export const MAX_WORKLOAD_SOURCE_BYTES = 1 * MiB;
/** An export or a bundle (saveExport, exportBundle). */
export const MAX_EXPORT_BYTES = 64 * MiB;

const sizeOf = (data: string | Uint8Array): number => (typeof data === "string" ? Buffer.byteLength(data, "utf8") : data.byteLength);

export function checkSourceSize(what: string, source: string): void {
  const n = sizeOf(source);
  if (n > MAX_WORKLOAD_SOURCE_BYTES) throw new PayloadTooLargeError(`${what}: the workload source is ${n} bytes, over the ${MAX_WORKLOAD_SOURCE_BYTES}-byte (1 MB) limit`);
}

export function checkExportSize(name: string, data: string | Uint8Array): void {
  const n = sizeOf(data);
  if (n > MAX_EXPORT_BYTES) throw new PayloadTooLargeError(`${name}: ${n} bytes, over the ${MAX_EXPORT_BYTES}-byte (64 MB) limit for exports and bundles`);
}
