/**
 * Shareable links: the workload source, the run configuration and the seed, compressed into the
 * URL fragment ("#share=1.<base64url of deflate-raw JSON>"). No server is involved: the fragment
 * never leaves the browser, and opening a link restores its contents into a new untitled document.
 * Links are size-limited and everything decoded is validated (ShareError names the problem).
 */
import type { CpuRef, ParamValue, VariantSpec } from "../../common/contracts.js";
import { checkCpus, checkParams, checkRepeat, checkSeed, checkStacks, checkSweep, isRecord, ValidationError } from "./validate.js";

export const SHARE_PREFIX = "share=";
export const SHARE_VERSION = "1";
/** Longest fragment a link may have (characters after "#share=1."), creating or opening. */
export const MAX_LINK_CHARS = 64 * 1024;
/** Largest decompressed document (bytes of JSON) a link may carry: a deflate bomb stops here. */
export const MAX_DECODED_BYTES = 1024 * 1024;

export class ShareError extends Error {}

export interface SharedConfig {
  cpus: CpuRef[];
  stacks: VariantSpec[][];
  params: Record<string, ParamValue>;
  seed: number;
  sweep?: { param: string; values: ParamValue[] };
  timeline?: boolean;
  maxSeconds?: number;
  /** repetitions (seeds) of each run, 2 to 101 (absent = 1) */
  repeat?: number;
}

export interface SharePayload {
  /** a name for the new document ("lat_sig_catch", "my_workload"); letters, digits, _ . - */
  name: string;
  source: string;
  config: SharedConfig;
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new ShareError("the link's data has characters a SigLab link never contains (was it cut or edited?)");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  let bin: string;
  try {
    bin = atob(b64);
  } catch {
    throw new ShareError("the link's data is not valid base64url (was it cut?)");
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const writing = writer.write(bytes as Uint8Array<ArrayBuffer>).then(() => writer.close()).catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new ShareError(`the link's contents are larger than ${Math.round(limit / 1024)} KB once decompressed`);
    }
    chunks.push(value);
  }
  await writing;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** "#share=1.…" for the payload; throws ShareError when it is too large for a link. */
export async function encodeShare(p: SharePayload): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify({ v: 1, name: p.name, source: p.source, config: p.config }));
  if (json.length > MAX_DECODED_BYTES) throw new ShareError(`the workload and configuration are ${Math.round(json.length / 1024)} KB, more than a link carries (${MAX_DECODED_BYTES / 1024} KB): export a bundle instead`);
  const packed = toBase64Url(await pipe(json, new CompressionStream("deflate-raw"), Infinity));
  if (packed.length > MAX_LINK_CHARS) throw new ShareError(`the link would be ${Math.round(packed.length / 1024)} KB long, more than ${MAX_LINK_CHARS / 1024} KB: export a bundle instead`);
  return `#${SHARE_PREFIX}${SHARE_VERSION}.${packed}`;
}

/** The share data of a URL, a fragment or the bare "1.…" text; null when it holds none. */
export function findShareFragment(text: string): string | null {
  const t = text.trim();
  const at = t.indexOf(`#${SHARE_PREFIX}`);
  if (at >= 0) return t.slice(at + 1 + SHARE_PREFIX.length);
  if (t.startsWith(SHARE_PREFIX)) return t.slice(SHARE_PREFIX.length);
  if (/^\d+\.[A-Za-z0-9_-]+$/.test(t)) return t;
  return null;
}

/** A short link's id in a text ("…#s=<id>" or the bare fragment "s=<id>"), or null. */
export function findShortLinkId(text: string): string | null {
  const m = /(?:^|#)s=([A-Za-z0-9_-]{16})$/.exec(text.trim());
  return m ? m[1]! : null;
}

/** Decodes and validates "1.<data>" (what follows "#share="). */
export async function decodeShare(data: string): Promise<SharePayload> {
  if (data.length > MAX_LINK_CHARS + 16) throw new ShareError(`the link is longer than ${MAX_LINK_CHARS / 1024} KB`);
  const dot = data.indexOf(".");
  const version = dot < 0 ? "" : data.slice(0, dot);
  if (version !== SHARE_VERSION) throw new ShareError(dot < 0 ? "this is not a SigLab link (no version)" : `the link was made by a newer SigLab (format ${version.slice(0, 10)}); this one reads format ${SHARE_VERSION}`);
  const bytes = fromBase64Url(data.slice(dot + 1));
  if (bytes.length === 0) throw new ShareError("the link carries no data (was it cut?)");
  let json: Uint8Array;
  try {
    json = await pipe(bytes, new DecompressionStream("deflate-raw"), MAX_DECODED_BYTES);
  } catch (err) {
    if (err instanceof ShareError) throw err;
    throw new ShareError("the link's data is damaged: it does not decompress (was it cut?)");
  }
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json));
  } catch {
    throw new ShareError("the link's data is damaged: it is not a SigLab document");
  }
  try {
    return parsePayload(doc);
  } catch (err) {
    if (err instanceof ValidationError) throw new ShareError(`the link's ${err.message}`);
    throw err;
  }
}

function parsePayload(v: unknown): SharePayload {
  if (!isRecord(v) || v["v"] !== 1) throw new ValidationError("document: not a SigLab link document (format 1)");
  const name = v["name"];
  if (typeof name !== "string" || !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,80}$/.test(name)) throw new ValidationError("name: expected letters, digits, _ . - (at most 81)");
  const source = v["source"];
  if (typeof source !== "string") throw new ValidationError("source: expected the workload's text");
  const c = v["config"];
  if (!isRecord(c)) throw new ValidationError("config: expected an object");
  const config: SharedConfig = {
    cpus: checkCpus(c["cpus"], "config.cpus"),
    stacks: checkStacks(c["stacks"], "config.stacks"),
    params: checkParams(c["params"] ?? {}, "config.params"),
    seed: checkSeed(c["seed"], "config.seed"),
  };
  if (config.cpus.length === 0) throw new ValidationError("config.cpus: expected at least one CPU");
  if (c["sweep"] !== undefined) config.sweep = checkSweep(c["sweep"], "config.sweep");
  if (c["timeline"] !== undefined) {
    if (typeof c["timeline"] !== "boolean") throw new ValidationError("config.timeline: expected true or false");
    config.timeline = c["timeline"];
  }
  const ms = c["maxSeconds"];
  if (ms !== undefined) {
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0) throw new ValidationError("config.maxSeconds: expected a positive number");
    config.maxSeconds = ms;
  }
  if (c["repeat"] !== undefined) {
    const repeat = checkRepeat(c["repeat"], "config.repeat");
    if (repeat > 1) config.repeat = repeat;
  }
  return { name, source, config };
}
