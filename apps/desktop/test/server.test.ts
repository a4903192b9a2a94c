import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSiglabServer, type RunningServer } from "../src/server/server.js";
import { decodeWire, encodeWire } from "../src/common/wire.js";
import { RENDERER_CSP, SIM_WORKER_CSP } from "../src/common/csp.js";

let server: RunningServer;
let cookie = "";
const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), "siglab-srv-"));

beforeAll(async () => {
  const renderer = tmp();
  writeFileSync(path.join(renderer, "index.html"), "<!doctype html><title>t</title>");
  mkdirSync(path.join(renderer, "workers"));
  writeFileSync(path.join(renderer, "workers", "sim.worker-abc.js"), "1");
  server = await startSiglabServer({ port: 0, workspace: tmp(), rendererDir: renderer });
  const res = await fetch(server.url, { redirect: "manual" });
  expect(res.status).toBe(303);
  cookie = res.headers.get("set-cookie")!.split(";")[0]!;
});
afterAll(() => server.close());

const call = (method: string, args: unknown[], headers: Record<string, string> = {}) =>
  fetch(`${server.origin}/api/call/${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.origin, Cookie: cookie, ...headers },
    body: encodeWire({ args }),
  });

describe("siglab serve (HTTP host)", () => {
  it("binds to 127.0.0.1 and prints a URL with a session token", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
  });

  it("implements the host API: save, list and read a workload, bytes round-trip", async () => {
    expect((await call("saveWorkload", ["w.ts", "src"])).status).toBe(200);
    const list = decodeWire(await (await call("listWorkloads", [])).text()) as { ok: boolean; value: { name: string }[] };
    expect(list.value.map((w) => w.name)).toEqual(["w.ts"]);
    const read = decodeWire(await (await call("readWorkload", ["w.ts"])).text()) as { value: string };
    expect(read.value).toBe("src");
    const saved = decodeWire(await (await call("saveExport", ["chart.png", new Uint8Array([137, 80, 78, 71])])).text()) as { value: { saved: boolean; path: string } };
    expect(saved.value.saved).toBe(true);
    expect(saved.value.path).toContain(path.join("exports", "chart.png"));
  });

  it("refuses calls without the session cookie, from another origin, or for another Host", async () => {
    expect((await call("listWorkloads", [], { Cookie: "" })).status).toBe(401);
    expect((await call("listWorkloads", [], { Origin: "https://evil.example" })).status).toBe(403);
    // fetch cannot forge Host; a raw request can (that is what a DNS-rebinding page would send).
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port: server.port, path: "/api/call/listWorkloads", method: "POST", headers: { Host: `evil.example:${server.port}`, Cookie: cookie, Origin: server.origin, "Content-Type": "application/json" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end(JSON.stringify({ args: [] }));
    });
    expect(status).toBe(421);
  });

  it("refuses unknown methods and bad arguments with a 400 naming the problem", async () => {
    const unknown = await call("rmRf", []);
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toMatch(/unknown host method/);
    const bad = await call("saveWorkload", ["../x.ts"]);
    expect(bad.status).toBe(400);
    const traversal = await call("saveWorkload", ["../x.ts", "s"]);
    expect(await traversal.text()).toMatch(/invalid workload file name/);
  });

  it("serves the renderer with the strict CSP, the worker with its own, and no path traversal", async () => {
    const index = await fetch(`${server.origin}/`);
    expect(index.headers.get("content-security-policy")).toBe(RENDERER_CSP);
    expect(RENDERER_CSP).not.toMatch(/unsafe-eval/);
    const worker = await fetch(`${server.origin}/workers/sim.worker-abc.js`);
    expect(worker.headers.get("content-security-policy")).toBe(SIM_WORKER_CSP);
    expect(SIM_WORKER_CSP).toMatch(/connect-src 'none'/);
    expect((await fetch(`${server.origin}/..%2f..%2fetc%2fpasswd`)).status).toBe(404);
  });

  it("says how to build the renderer when it is missing", async () => {
    await expect(startSiglabServer({ port: 0, workspace: tmp(), rendererDir: tmp() })).rejects.toThrow(/build the renderer first/);
  });
});
