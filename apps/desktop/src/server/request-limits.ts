/**
 * Limits of the local server's API requests: a body limit per route, checked while the body is
 * read (so an oversized upload never sits in memory), and a bound on concurrent saves (each may
 * hold up to its body limit in memory and a write in flight).
 */
import type http from "node:http";
import { ARCHIVE_LIMITS } from "@siglab/core/plugin-archive";
import { MAX_EXPORT_BYTES, MAX_WORKLOAD_SOURCE_BYTES } from "../node/payload-limits.js";

const MiB = 1024 * 1024;

/** Any request not listed below (names, settings, profiles, recent entries). */
export const DEFAULT_BODY_LIMIT = 1 * MiB;
/** A workload source of at most 1 MB, with room for JSON escaping; the decoded source is checked exactly. */
export const SOURCE_BODY_LIMIT = 2 * MAX_WORKLOAD_SOURCE_BYTES;
/** An export or bundle of at most 64 MB travels as base64 (4/3) in JSON; the decoded size is checked exactly. */
export const EXPORT_BODY_LIMIT = Math.ceil((MAX_EXPORT_BYTES * 4) / 3) + 4 * MiB;
/** A plugin archive (at most core's ARCHIVE_LIMITS, 20 MiB) as base64 in JSON; the decoded archive is checked exactly. */
export const PLUGIN_FILE_BODY_LIMIT = Math.ceil((ARCHIVE_LIMITS.maxBundleBytes * 4) / 3) + 1 * MiB;
/** After a 413 the rest of the body is read and dropped (so the client sees the answer) up to this much. */
const DRAIN_LIMIT = 16 * MiB;

const SOURCE_METHODS = new Set(["saveWorkload", "saveDraft"]);
const EXPORT_METHODS = new Set(["exportBundle", "saveExport"]);
/** Requests that write to disk. */
const SAVE_ROUTES = new Set([...SOURCE_METHODS, ...EXPORT_METHODS, "discardDraft", "saveUserProfile", "setPluginEnabled", "addRecent", "install-plugin", "install-plugin-file"]);

/** The body limit of a route: a host method name, "install-plugin" or "install-plugin-file". */
export function bodyLimitFor(route: string): number {
  if (route === "install-plugin-file") return PLUGIN_FILE_BODY_LIMIT;
  if (SOURCE_METHODS.has(route)) return SOURCE_BODY_LIMIT;
  if (EXPORT_METHODS.has(route)) return EXPORT_BODY_LIMIT;
  return DEFAULT_BODY_LIMIT;
}

export const isSaveRoute = (route: string): boolean => SAVE_ROUTES.has(route);

function describeLimit(route: string, limit: number): string {
  const what = SOURCE_METHODS.has(route) ? " (a workload source may be at most 1 MB)" : EXPORT_METHODS.has(route) ? " (an export or bundle may be at most 64 MB)" : "";
  return `${route}: request body larger than ${limit} bytes${what}`;
}

/** An HTTP answer other than 200, with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** At most `max` saves in flight; tryAcquire gives a release function, or null when all are taken. */
export class SaveLimiter {
  private active = 0;

  constructor(readonly max = 4) {}

  get inFlight(): number {
    return this.active;
  }

  tryAcquire(): (() => void) | null {
    if (this.active >= this.max) return null;
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
    };
  }

  /** The 429 a request gets when every slot is taken. */
  busy(): HttpError {
    return new HttpError(429, `too many saves in flight (at most ${this.max} at a time); try again when one has finished`, { "Retry-After": "1" });
  }
}

/**
 * Reads a request body of at most `limit` bytes as UTF-8. Past the limit it rejects with a 413 at
 * once and drops the rest (up to DRAIN_LIMIT, then the connection is cut); a body cut off by the
 * client rejects with a 400, so a held save slot is always released.
 */
export function readBody(req: http.IncomingMessage, route: string, limit: number): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    drain(req);
    return Promise.reject(new HttpError(413, `${describeLimit(route, limit)}: Content-Length is ${declared}`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      chunks.length = 0;
      reject(err);
    };
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size <= limit) {
        chunks.push(c);
        return;
      }
      req.off("data", onData);
      fail(new HttpError(413, describeLimit(route, limit)));
      drain(req);
    };
    req.on("data", onData);
    req.on("end", () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", (err) => fail(new HttpError(400, `request body could not be read (${err.message})`)));
    req.on("close", () => fail(new HttpError(400, "request body was cut off")));
  });
}

/** Reads and drops the rest of a refused body so the answer reaches the client; cuts a flood. */
function drain(req: http.IncomingMessage): void {
  let dropped = 0;
  req.on("data", (c: Buffer) => {
    dropped += c.length;
    if (dropped > DRAIN_LIMIT) req.destroy();
  });
  req.resume();
}
