/**
 * `siglab serve`: the host API over HTTP on 127.0.0.1, plus the built renderer. The browser target
 * of the same renderer the Electron app loads (one frontend, two backends).
 *
 * Protections: bound to loopback only; the Host header must name this server (DNS rebinding);
 * API calls need the session token cookie (set from the printed URL) and a same-origin Origin
 * header (CSRF); arguments are checked with the same schemas as Electron IPC. Request bodies have a
 * per-route limit checked while reading (413), at most a few saves run at once (429), and a
 * malformed URL, name or argument is a 400, never a 500.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { promises as fs } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { securityHeaders, mimeFor } from "../common/csp.js";
import { checkHostArgs, HostArgumentError, isHostMethod } from "../common/host-schema.js";
import type { HostMethod } from "../common/host-api.js";
import { decodeWire, encodeWire, type WireResponse } from "../common/wire.js";
import { HostError } from "../node/host-errors.js";
import { HostService, type HostUi } from "../node/host-service.js";
import { Workspace } from "../node/workspace.js";
import { bodyLimitFor, HttpError, isSaveRoute, readBody, SaveLimiter } from "./request-limits.js";

export interface ServeOptions {
  /** 0 picks a free port. */
  port?: number;
  workspace: string;
  pluginDir?: string;
  /** Built renderer folder (default: apps/desktop/dist/renderer). */
  rendererDir?: string;
  /** Session token; a random one by default. */
  token?: string;
  appVersion?: string;
  log?: (line: string) => void;
  /** Saves (writes to disk) handled at once; more are answered 429. Default 4. */
  maxConcurrentSaves?: number;
}

export interface RunningServer {
  /** URL to open, including the one-time token. */
  url: string;
  origin: string;
  port: number;
  token: string;
  workspace: Workspace;
  /** Saves being handled now (their bodies being read or their files written). */
  savesInFlight(): number;
  close(): Promise<void>;
}

const TOKEN_COOKIE = "siglab_token";

export function defaultRendererDir(): string {
  return fileURLToPath(new URL("../../dist/renderer/", import.meta.url));
}

/** A request path, or a 400 when it is not one (absolute-form, bad percent-encoding). */
function parseRequestUrl(raw: string | undefined, origin: string): { url: URL; pathname: string } {
  const shown = JSON.stringify((raw ?? "").slice(0, 200));
  if (!raw || !raw.startsWith("/")) throw new HttpError(400, `malformed request URL ${shown}`);
  let url: URL;
  try {
    url = new URL(origin + raw); // origin + path: "//x" stays a path, never a host
  } catch {
    throw new HttpError(400, `malformed request URL ${shown}`);
  }
  try {
    return { url, pathname: decodeURIComponent(url.pathname) };
  } catch {
    throw new HttpError(400, `malformed request URL ${shown}: bad percent-encoding`);
  }
}

/** The status of an error a handler threw: its own, 400 for bad arguments, else 500. */
function statusOf(err: unknown): number {
  if (err instanceof HttpError || err instanceof HostError) return err.status;
  if (err instanceof HostArgumentError) return 400;
  return 500;
}

export async function startSiglabServer(opts: ServeOptions): Promise<RunningServer> {
  const rendererDir = path.resolve(opts.rendererDir ?? defaultRendererDir());
  const indexFile = path.join(rendererDir, "index.html");
  try {
    await fs.access(indexFile);
  } catch {
    throw new Error(`${indexFile} not found: build the renderer first (pnpm --filter @siglab/desktop build:renderer)`);
  }
  const ws = new Workspace(path.resolve(opts.workspace), opts.pluginDir);
  await ws.ensure();
  const token = opts.token ?? randomBytes(24).toString("base64url");
  const sse = new Set<http.ServerResponse>();
  const broadcast = (event: unknown): void => {
    for (const res of sse) res.write(`data: ${JSON.stringify(event)}\n\n`);
  };
  const ui: HostUi = {
    kind: "http",
    appVersion: opts.appVersion ?? "0.1.0",
    choosePluginFolder: async () => {
      throw new Error("the HTTP host installs plugins through POST /api/install-plugin with a folder path");
    },
    chooseSavePath: async (name, w) => w.uniqueExportPath(name),
    chooseBundleToOpen: async () => null,
    openExternal: async () => false,
    notifyPluginsChanged: () => broadcast({ type: "plugins-changed" }),
  };
  const service = new HostService(ws, ui, undefined, { rendererDir });
  const handlers = service.handlers();
  const saves = new SaveLimiter(opts.maxConcurrentSaves ?? 4);
  let origin = "";
  let allowedHosts = new Set<string>();

  const checkSession = (req: http.IncomingMessage, needOrigin: boolean): void => {
    const cookie = parseCookies(req.headers.cookie)[TOKEN_COOKIE];
    if (!cookie || !safeEqual(cookie, token)) throw new HttpError(401, "missing or wrong session token: open the URL siglab serve printed");
    if (needOrigin && req.headers.origin !== origin) throw new HttpError(403, `cross-origin request refused (Origin: ${req.headers.origin ?? "none"})`);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (!allowedHosts.has(req.headers.host ?? "")) throw new HttpError(421, `unexpected Host header "${req.headers.host ?? ""}"`);
    const { url, pathname } = parseRequestUrl(req.url, origin);
    if (url.pathname.startsWith("/api/")) return handleApi(req, res, url);
    if (req.method !== "GET" && req.method !== "HEAD") throw new HttpError(405, "method not allowed");
    if (url.searchParams.has("token")) {
      // First visit from the printed URL: trade the token for an HttpOnly cookie and drop it from the address bar.
      if (!safeEqual(url.searchParams.get("token") ?? "", token)) throw new HttpError(401, "wrong session token");
      res.writeHead(303, {
        Location: "/",
        "Set-Cookie": `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        "Cache-Control": "no-store",
      });
      res.end();
      return;
    }
    await serveStatic(pathname, res, req.method === "HEAD");
  };

  /** `decoded`: the request path, percent-decoded. */
  const serveStatic = async (decoded: string, res: http.ServerResponse, headOnly: boolean): Promise<void> => {
    let rel = decoded.replace(/^\/+/, "");
    if (rel === "") rel = "index.html";
    const file = path.resolve(rendererDir, rel);
    if (!file.startsWith(rendererDir + path.sep)) throw new HttpError(404, "not found");
    let data: Buffer;
    try {
      data = await fs.readFile(file);
    } catch {
      throw new HttpError(404, `not found: /${rel}`);
    }
    const relPosix = path.relative(rendererDir, file).split(path.sep).join("/");
    res.writeHead(200, {
      "Content-Type": mimeFor(relPosix),
      "Content-Length": data.length,
      "Cache-Control": rel === "index.html" ? "no-store" : "no-cache",
      ...securityHeaders(relPosix),
    });
    res.end(headOnly ? undefined : data);
  };

  const handleApi = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> => {
    if (url.pathname === "/api/events" && req.method === "GET") {
      checkSession(req, false);
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store", Connection: "keep-alive" });
      res.write(": connected\n\n");
      sse.add(res);
      req.on("close", () => sse.delete(res));
      return;
    }
    if (req.method !== "POST") throw new HttpError(405, "API calls are POST");
    checkSession(req, true);
    if (!(req.headers["content-type"] ?? "").startsWith("application/json")) throw new HttpError(415, "API calls take application/json");
    // the route is known before the body: its limit, and whether it takes a save slot
    let route: string;
    if (url.pathname === "/api/install-plugin" || url.pathname === "/api/install-plugin-file") {
      route = url.pathname.slice("/api/".length);
    } else {
      const m = /^\/api\/call\/([A-Za-z]+)$/.exec(url.pathname);
      if (!m) throw new HttpError(404, `unknown API route ${url.pathname}`);
      route = m[1]!;
      if (!isHostMethod(route)) throw new HttpError(400, `unknown host method "${route}"`);
    }
    const release = isSaveRoute(route) ? saves.tryAcquire() : () => undefined;
    if (!release) throw saves.busy();
    try {
      let body: { args?: unknown };
      const text = await readBody(req, route, bodyLimitFor(route));
      try {
        body = decodeWire(text) as { args?: unknown };
      } catch (err) {
        throw new HttpError(400, `request body is not valid JSON: ${(err as Error).message}`);
      }
      if (!body || typeof body !== "object" || Array.isArray(body)) throw new HttpError(400, "request body must be a JSON object");
      let value: unknown;
      if (route === "install-plugin") {
        const folder = (body as { folder?: unknown }).folder;
        if (typeof folder !== "string" || folder.trim() === "" || folder.length > 4096) throw new HttpError(400, "install-plugin: \"folder\" must be a path string");
        value = await service.installPlugin(folder);
      } else if (route === "install-plugin-file") {
        // the archive the user picked in the page: checked whole on this side (core plugin-archive)
        const { name, bytes } = body as { name?: unknown; bytes?: unknown };
        if (typeof name !== "string" || name.trim() === "" || name.length > 255) throw new HttpError(400, "install-plugin-file: \"name\" must be the file's name");
        if (!(bytes instanceof Uint8Array)) throw new HttpError(400, "install-plugin-file: \"bytes\" must be the file's bytes");
        value = await service.installPluginArchive(name, bytes);
      } else {
        const args = body.args ?? [];
        try {
          checkHostArgs(route, args);
        } catch (err) {
          throw new HttpError(400, (err as Error).message);
        }
        const fn = handlers[route as HostMethod] as (...a: unknown[]) => Promise<unknown>;
        value = await fn(...args);
      }
      sendJson(res, 200, { ok: true, value });
    } finally {
      release();
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.end();
        return;
      }
      sendJson(res, statusOf(err), { ok: false, error: (err as Error)?.message ?? String(err) }, err instanceof HttpError ? err.headers : {});
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const url = `${origin}/?token=${token}`;
  opts.log?.(`SigLab is serving ${ws.root} at ${url}`);
  return {
    url,
    origin,
    port,
    token,
    workspace: ws,
    savesInFlight: () => saves.inFlight,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of sse) res.end();
        sse.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendJson(res: http.ServerResponse, status: number, body: WireResponse, headers: Record<string, string> = {}): void {
  const text = encodeWire(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", ...headers });
  res.end(text);
}

function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
