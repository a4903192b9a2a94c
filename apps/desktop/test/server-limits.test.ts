/**
 * `siglab serve` request limits: body limits checked while reading (413), a bound on concurrent
 * saves (429), and 400 (never 500) for malformed URLs, names and arguments.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSiglabServer, type RunningServer } from "../src/server/server.js";
import { EXPORT_BODY_LIMIT, SaveLimiter, SOURCE_BODY_LIMIT } from "../src/server/request-limits.js";
import { decodeWire, encodeWire } from "../src/common/wire.js";

let server: RunningServer;
let cookie = "";
const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), "siglab-limits-"));

beforeAll(async () => {
  const renderer = tmp();
  writeFileSync(path.join(renderer, "index.html"), "<!doctype html><title>t</title>");
  server = await startSiglabServer({ port: 0, workspace: tmp(), rendererDir: renderer });
  const res = await fetch(server.url, { redirect: "manual" });
  cookie = res.headers.get("set-cookie")!.split(";")[0]!;
});
afterAll(() => server.close());

const apiHeaders = (): Record<string, string> => ({ "Content-Type": "application/json", Origin: server.origin, Cookie: cookie });

const call = (method: string, args: unknown[]) =>
  fetch(`${server.origin}/api/call/${method}`, { method: "POST", headers: apiHeaders(), body: encodeWire({ args }) });

async function errorOf(res: Response): Promise<string> {
  const body = decodeWire(await res.text()) as { ok: boolean; error?: string };
  expect(body.ok).toBe(false);
  return body.error ?? "";
}

interface RawAnswer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** A request whose path and headers fetch would not send as is. */
function raw(method: string, pathname: string, headers: Record<string, string | number> = {}, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: server.port, path: pathname, method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("body limits (413), checked while reading", () => {
  it("answers 413 for an oversized workload before the client has finished sending it", async () => {
    // chunked (no Content-Length): the server can only notice while reading
    const answer = await new Promise<RawAnswer>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port: server.port, path: "/api/call/saveWorkload", method: "POST", headers: { ...apiHeaders(), "Transfer-Encoding": "chunked" } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers });
          req.destroy(); // the request body was never finished: the answer came while it was open
        });
      });
      req.on("error", (e) => (e.message.includes("socket hang up") ? undefined : reject(e)));
      req.write('{"args":["big.ts","');
      const chunk = "x".repeat(256 * 1024);
      for (let sent = 0; sent <= SOURCE_BODY_LIMIT + chunk.length; sent += chunk.length) req.write(chunk);
      // no req.end(): a server that waits for the end of the body would never answer
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatch(/saveWorkload: request body larger than \d+ bytes \(a workload source may be at most 1 MB\)/);
    expect(existsSync(path.join(server.workspace.workloadsDir, "big.ts"))).toBe(false);
  });

  it("answers 413 at once for a declared Content-Length over the limit (an export over 64 MB)", async () => {
    const answer = await new Promise<RawAnswer>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port: server.port, path: "/api/call/saveExport", method: "POST", headers: { ...apiHeaders(), "Content-Length": EXPORT_BODY_LIMIT + 1 } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers });
          req.destroy();
        });
      });
      req.on("error", (e) => (e.message.includes("socket hang up") ? undefined : reject(e)));
      req.write('{"args":["x.csv","'); // then nothing: the header alone decides
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatch(/an export or bundle may be at most 64 MB/);
  });

  it("answers 413 for a workload source over 1 MB that fits in the body limit, and for a big body to a small route", async () => {
    const res = await call("saveWorkload", ["big.ts", "y".repeat(1024 * 1024 + 1)]);
    expect(res.status).toBe(413);
    expect(await errorOf(res)).toMatch(/big\.ts: the workload source is 1048577 bytes, over the 1048576-byte \(1 MB\) limit/);
    const draft = await call("saveDraft", ["user:big.ts", "y".repeat(1024 * 1024 + 1)]);
    expect(draft.status).toBe(413);
    const recent = await call("setPluginEnabled", ["x".repeat(2 * 1024 * 1024), true]);
    expect(recent.status).toBe(413);
    expect(existsSync(path.join(server.workspace.workloadsDir, "big.ts"))).toBe(false);
  });
});

describe("malformed requests are 400 with a clear message, never 500", () => {
  it("a malformed URL", async () => {
    for (const p of ["/%E0%A4%A", "/api/call/%E0%A4%A", "/api/%ZZ"]) {
      const r = p.startsWith("/api/") ? await raw("POST", p, apiHeaders(), "{}") : await raw("GET", p);
      expect(r.status, p).toBe(400);
      expect(r.body, p).toMatch(/malformed request URL .*bad percent-encoding/);
    }
    const absolute = await raw("GET", "http://127.0.0.1/x");
    expect(absolute.status).toBe(400);
  });

  it("a malformed workload name, draft key or export name", async () => {
    const cases: [string, unknown[], RegExp][] = [
      ["saveWorkload", ["../x.ts", "s"], /invalid workload file name/],
      ["saveWorkload", ["a/b.ts", "s"], /invalid workload file name/],
      ["readWorkload", ["..\\x.ts"], /invalid workload file name/],
      ["saveDraft", ["user:../../x", "s"], /invalid draft key/],
      ["discardDraft", ["nokey"], /invalid draft key/],
      ["saveExport", ["../../etc/x.csv", "data"], /invalid export file name/],
      ["exportBundle", ["x.csv", new Uint8Array([1])], /must end in \.siglab/],
    ];
    for (const [method, args, re] of cases) {
      const res = await call(method, args);
      expect(res.status, `${method} ${JSON.stringify(args)}`).toBe(400);
      expect(await errorOf(res)).toMatch(re);
    }
  });

  it("a bad argument or body", async () => {
    expect((await call("saveWorkload", ["w.ts", 42])).status).toBe(400);
    expect((await call("setPluginEnabled", ["no-such-plugin", true])).status).toBe(400);
    expect((await call("saveUserProfile", [{ id: "p", name: "x" }])).status).toBe(400);
    for (const body of ["not json", "[1,2]", "null", '{"args":[{"$bytes":"%%%"}]}']) {
      const r = await raw("POST", "/api/call/saveExport", apiHeaders(), body);
      expect(r.status, body).toBe(400);
    }
    const missing = await call("readWorkload", ["missing.ts"]);
    expect(missing.status).toBe(404);
  });
});

describe("a bounded number of concurrent saves (429)", () => {
  it("SaveLimiter gives at most `max` slots and frees them exactly once", () => {
    const l = new SaveLimiter(2);
    const a = l.tryAcquire();
    const b = l.tryAcquire();
    expect(a && b).toBeTruthy();
    expect(l.tryAcquire()).toBeNull();
    expect(l.inFlight).toBe(2);
    a!();
    a!(); // a second release does not free a slot it does not hold
    expect(l.inFlight).toBe(1);
    const c = l.tryAcquire();
    expect(c).not.toBeNull();
    expect(l.tryAcquire()).toBeNull();
    b!();
    c!();
    expect(l.inFlight).toBe(0);
    expect(l.busy().status).toBe(429);
  });

  it("answers 429 while 4 saves are in flight, lets other calls through, and frees the slots when they end", async () => {
    // four saves whose bodies are still arriving hold the four slots
    const held: http.ClientRequest[] = [];
    for (let i = 0; i < 4; i++) {
      const req = http.request({ host: "127.0.0.1", port: server.port, path: "/api/call/saveDraft", method: "POST", headers: { ...apiHeaders(), "Content-Length": 1000 } });
      req.on("error", () => undefined);
      req.write('{"args":["user:a.ts","');
      held.push(req);
    }
    await vi.waitFor(() => expect(server.savesInFlight()).toBe(4), { timeout: 20_000, interval: 10 });
    const busy = await call("saveWorkload", ["w.ts", "src"]);
    expect(busy.status).toBe(429);
    expect(busy.headers.get("retry-after")).toBe("1");
    expect(await errorOf(busy)).toMatch(/too many saves in flight \(at most 4 at a time\); try again when one has finished/);
    expect((await call("listWorkloads", [])).status).toBe(200); // reads are not saves
    for (const req of held) req.destroy();
    await vi.waitFor(() => expect(server.savesInFlight()).toBe(0), { timeout: 20_000, interval: 10 });
    const ok = await call("saveWorkload", ["w.ts", "src"]);
    expect(ok.status).toBe(200);
    expect(readFileSync(path.join(server.workspace.workloadsDir, "w.ts"), "utf8")).toBe("src");
  });
});

describe("normal saves still work", () => {
  it("saves a workload, a draft and exports; an export never replaces an earlier one", async () => {
    expect((await call("saveWorkload", ["ok.ts", "export default 1;\n"])).status).toBe(200);
    expect((await call("saveDraft", ["user:ok.ts", "draft"])).status).toBe(200);
    const paths: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call("saveExport", ["r.csv", `v${i}`]);
      expect(res.status).toBe(200);
      paths.push((decodeWire(await res.text()) as { value: { path: string } }).value.path);
    }
    expect(paths.map((p) => path.basename(p))).toEqual(["r.csv", "r (1).csv", "r (2).csv"]);
    expect(paths.map((p) => readFileSync(p, "utf8"))).toEqual(["v0", "v1", "v2"]);
    const concurrent = await Promise.all([0, 1, 2].map((i) => call("exportBundle", ["b.siglab", new Uint8Array([i])])));
    expect(concurrent.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(readdirSync(server.workspace.exportsDir).filter((n) => n.startsWith("b")).sort()).toEqual(["b (1).siglab", "b (2).siglab", "b.siglab"]);
    expect(readdirSync(server.workspace.exportsDir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses (409) a save through a symlink planted in the workspace, writing nothing outside", async () => {
    const outside = tmp();
    const { symlinkSync, rmSync } = await import("node:fs");
    symlinkSync(path.join(outside, "x.ts"), path.join(server.workspace.workloadsDir, "planted.ts"));
    const res = await call("saveWorkload", ["planted.ts", "pwned"]);
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toMatch(/planted\.ts: is a symbolic link; refusing to write to it/);
    expect(readdirSync(outside)).toEqual([]);
    rmSync(server.workspace.draftsDir, { recursive: true });
    symlinkSync(outside, server.workspace.draftsDir);
    const draft = await call("saveDraft", ["user:x.ts", "pwned"]);
    expect(draft.status).toBe(409);
    expect(await errorOf(draft)).toMatch(/drafts: is a symbolic link inside .*; refusing to follow it/);
    expect(readdirSync(outside)).toEqual([]);
    rmSync(server.workspace.draftsDir);
    mkdirSync(server.workspace.draftsDir);
  });
});
