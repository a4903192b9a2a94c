/**
 * The renderer is served from siglab://app/ (never file://): a standard, secure scheme so module
 * scripts, workers and fetch behave as on https, with the CSP sent as a header per file.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { protocol } from "electron";
import { APP_SCHEME } from "../common/host-api.js";
import { mimeFor, securityHeaders } from "../common/csp.js";

/** Must run before app "ready". */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/** The request handler, separate from Electron so tests can call it with plain Requests. */
export function createProtocolHandler(rendererDir: string): (req: Request) => Promise<Response> {
  const root = path.resolve(rendererDir);
  return async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    if (url.host !== "app") return new Response("unknown host", { status: 404 });
    if (req.method !== "GET" && req.method !== "HEAD") return new Response("method not allowed", { status: 405 });
    let rel: string;
    try {
      rel = decodeURIComponent(url.pathname).replace(/^\/+/, "") || "index.html";
    } catch {
      return new Response("bad path", { status: 400 });
    }
    const file = path.resolve(root, rel);
    if (!file.startsWith(root + path.sep)) return new Response("not found", { status: 404 });
    try {
      const data = await fs.readFile(file);
      const relPosix = path.relative(root, file).split(path.sep).join("/");
      return new Response(new Uint8Array(data), {
        status: 200,
        headers: { "Content-Type": mimeFor(relPosix), ...securityHeaders(relPosix) },
      });
    } catch {
      return new Response("not found", { status: 404 });
    }
  };
}

export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, createProtocolHandler(rendererDir));
}
