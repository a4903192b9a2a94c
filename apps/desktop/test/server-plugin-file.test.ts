/**
 * siglab serve's POST /api/install-plugin-file (the browser host's "Install from file…"): the
 * archive's bytes from the page are checked whole on the server by core's plugin-archive; a body
 * that is not a name and bytes is a 400, a session-less call is refused, garbage is refused naming
 * the file, a packed plugin is installed.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION } from "@siglab/core/plugin-api";
import { packPluginFolder } from "@siglab/core/plugin-archive/node";
import { startSiglabServer, type RunningServer } from "../src/server/server.js";
import { decodeWire, encodeWire } from "../src/common/wire.js";

let server: RunningServer;
let cookie = "";
const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), "siglab-srv-archive-"));

beforeAll(async () => {
  const renderer = tmp();
  writeFileSync(path.join(renderer, "index.html"), "<!doctype html><title>t</title>");
  server = await startSiglabServer({ port: 0, workspace: tmp(), rendererDir: renderer });
  cookie = (await fetch(server.url, { redirect: "manual" })).headers.get("set-cookie")!.split(";")[0]!;
});
afterAll(() => server.close());

const post = (body: unknown, withCookie = true) =>
  fetch(`${server.origin}/api/install-plugin-file`, { method: "POST", headers: { "Content-Type": "application/json", Origin: server.origin, ...(withCookie ? { Cookie: cookie } : {}) }, body: encodeWire(body) });

function archive(): Uint8Array {
  const dir = path.join(tmp(), "demo");
  mkdirSync(path.join(dir, "dist"), { recursive: true });
  writeFileSync(path.join(dir, "plugin.json"), JSON.stringify({ id: "demo", version: "1.0.0", apiVersion: PLUGIN_API_VERSION, displayName: "Demo", description: "d", options: {}, contributes: ["SyscallContribution"], main: "dist/index.js" }));
  writeFileSync(path.join(dir, "dist/index.js"), "// code");
  return packPluginFolder(dir).bytes;
}

describe("POST /api/install-plugin-file", () => {
  it("refuses a call without the session, and a body that is not a file name and its bytes", async () => {
    expect((await post({ name: "a.siglab-plugin", bytes: archive() }, false)).status).toBe(401);
    const r = await post({ name: "a.siglab-plugin", bytes: "not bytes" });
    expect(r.status).toBe(400);
    expect((decodeWire(await r.text()) as { error: string }).error).toMatch(/"bytes" must be the file's bytes/);
  });

  it("checks the bytes on the server: garbage is refused naming the file; a packed plugin is installed", async () => {
    const bad = decodeWire(await (await post({ name: "junk.siglab-plugin", bytes: new TextEncoder().encode("PK not really a zip, just bytes") })).text()) as { value: { installed: boolean; error: string } };
    expect(bad.value).toEqual({ installed: false, error: expect.stringMatching(/^junk\.siglab-plugin: not a zip archive/) });
    const good = decodeWire(await (await post({ name: "demo-1.0.0.siglab-plugin", bytes: archive() })).text()) as { value: { installed: boolean; entry: { id: string; status: string } } };
    expect(good.value).toMatchObject({ installed: true, entry: { id: "demo", status: "ok" } });
  });
});
