/**
 * `siglab serve`: the host API over HTTP on 127.0.0.1, plus the built renderer. The browser target
 * of the same renderer the Electron app loads (one frontend, two backends).
 *
 * Protections: bound to loopback only; the Host header must name this server (DNS rebinding);
 * API calls need the session token cookie (set from the printed URL) and a same-origin Origin
 * header (CSRF); arguments are checked with the same schemas as Electron IPC.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { promises as fs } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { securityHeaders, mimeFor } from "../common/csp.js";
import { checkHostArgs, HostArgumentError } from "../common/host-schema.js";
import type { HostMethod } from "../common/host-api.js";
import { decodeWire, encodeWire, type WireResponse } from "../common/wire.js";
import { HostService, type HostUi } from "../node/host-service.js";
import { Workspace } from "../node/workspace.js";

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
}

export interface RunningServer {
  /** URL to open, including the one-time token. */
  url: string;
  origin: string;
  port: number;
  token: string;
  workspace: Workspace;
  close(): Promise<void>;
}

const MAX_BODY = 96 * 1024 * 1024;
const TOKEN_COOKIE = "siglab_token";

export function defaultRendererDir(): string {
  return fileURLToPath(new URL("../../dist/renderer/", import.meta.url));
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
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
  const service = new HostService(ws, ui);
  const handlers = service.handlers();
  let origin = "";
  let allowedHosts = new Set<string>();

  const checkSession = (req: http.IncomingMessage, needOrigin: boolean): void => {
    const cookie = parseCookies(req.headers.cookie)[TOKEN_COOKIE];
    if (!cookie || !safeEqual(cookie, token)) throw new HttpError(401, "missing or wrong session token: open the URL siglab serve printed");
    if (needOrigin && req.headers.origin !== origin) throw new HttpError(403, `cross-origin request refused (Origin: ${req.headers.origin ?? "none"})`);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (!allowedHosts.has(req.headers.host ?? "")) throw new HttpError(421, `unexpected Host header "${req.headers.host ?? ""}"`);
    const url = new URL(req.url ?? "/", origin);
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
    await serveStatic(url.pathname, res, req.method === "HEAD");
  };

  const serveStatic = async (pathname: string, res: http.ServerResponse, headOnly: boolean): Promise<void> => {
    let rel = decodeURIComponent(pathname).replace(/^\/+/, "");
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
    let body: { args?: unknown };
    try {
      body = decodeWire(await readBody(req)) as { args?: unknown };
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw new HttpError(400, `request body is not valid JSON: ${(err as Error).message}`);
    }
    if (!body || typeof body !== "object") throw new HttpError(400, "request body must be a JSON object");
    let value: unknown;
    if (url.pathname === "/api/install-plugin") {
      const folder = (body as { folder?: unknown }).folder;
      if (typeof folder !== "string" || folder.trim() === "" || folder.length > 4096) throw new HttpError(400, "install-plugin: \"folder\" must be a path string");
      value = await service.installPlugin(folder);
    } else {
      const m = /^\/api\/call\/([A-Za-z]+)$/.exec(url.pathname);
      if (!m) throw new HttpError(404, `unknown API route ${url.pathname}`);
      const method = m[1]!;
      const args = body.args ?? [];
      try {
        checkHostArgs(method, args);
      } catch (err) {
        throw new HttpError(400, (err as Error).message);
      }
      const fn = handlers[method as HostMethod] as (...a: unknown[]) => Promise<unknown>;
      value = await fn(...args);
    }
    sendJson(res, 200, { ok: true, value });
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : err instanceof HostArgumentError ? 400 : 500;
      if (res.headersSent) {
        res.end();
        return;
      }
      sendJson(res, status, { ok: false, error: (err as Error).message ?? String(err) });
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of sse) res.end();
        sse.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendJson(res: http.ServerResponse, status: number, body: WireResponse): void {
  const text = encodeWire(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" });
  res.end(text);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, `request body larger than ${MAX_BODY} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
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
