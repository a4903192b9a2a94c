/**
 * No network from foreign code (issue 30): a workload, a bundle (its workload and its embedded
 * plugin) and a plugin from --plugin-dir each try every route they can think of to a loopback
 * listener — fetch, XMLHttpRequest, WebSocket, EventSource, sendBeacon, importScripts, sockets
 * and HTTP through any module or process object they might reach (constructor chains of every
 * object handed to them included), messages to the host (postMessage, process.send), dynamic
 * import() of the listener's URL through eval, Function and a nested Compartment, require of a
 * URL — and the listener records nothing: no request, no upgrade, no TCP connection.
 *
 * What enforces it is capability confinement, not Node's permission model (Node 20's does not
 * cover the network): see the README's security model.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildEntries, manifestFor, zipEntries } from "../packages/core/src/bundle/write.js";
import { BUILTIN_PROFILE_FILES } from "../packages/cpu-profiles/src/index.js";
import { killStarted, runSiglab } from "./cli-process.js";

const dir = mkdtempSync(join(tmpdir(), "siglab-network-"));
let server: Server;
const seen: string[] = [];
let port = 0;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.end("ok");
  });
  server.on("upgrade", (req: IncomingMessage) => seen.push(`UPGRADE ${req.url}`));
  server.on("connection", () => seen.push("TCP connection"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  killStarted();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

/**
 * JavaScript (no TypeScript syntax: a plugin's built code uses it too) defining
 * `attack(url, roots)`: every route from the compartment's global and from every realm reachable
 * through the constructor chains of `roots`; `tried` and `reached` count the attempts and those
 * that returned something.
 */
const ATTACK = `
var G = globalThis, tried = 0, reached = 0, IMP = "imp" + "ort";
function escapeFrom(x) {
  var out = [];
  for (var o = x, i = 0; o && i < 8; o = Object.getPrototypeOf(o), i++) {
    for (var src of ["return globalThis", "return this", "return process", "return self"]) {
      try { var g = o.constructor.constructor(src)(); if (g && g !== G) out.push(g); } catch (e) {}
    }
  }
  return out;
}
function attack(url, roots) {
  var port = Number(url.split(":")[2].split("/")[0]);
  var hosts = [G];
  for (var r of roots) hosts.push.apply(hosts, escapeFrom(r));
  var routes = [
    function (h) { return h.fetch(url); },
    function (h) { return h.fetch(url, { method: "POST", body: "x" }); },
    function (h) { var x = new h.XMLHttpRequest(); x.open("GET", url, false); x.send(); return x; },
    function (h) { return new h.WebSocket(url.replace("http", "ws")); },
    function (h) { return new h.EventSource(url); },
    function (h) { return h.navigator.sendBeacon(url, "x"); },
    function (h) { return h.importScripts(url); },
    function (h) { return h.postMessage({ type: "fetch", url: url }); },
    function (h) { return h.parent.postMessage({ type: "fetch", url: url }, "*"); },
    function (h) { return h.process.send({ type: "run", url: url }); },
    function (h) { return h.process.mainModule.require("http").get(url); },
    function (h) { return h.process.binding("tcp_wrap"); },
    function (h) { return h.process.getBuiltinModule("node:net").connect(port, "127.0.0.1"); },
    function (h) { return h.require("http").get(url); },
    function (h) { return h.require("node:net").connect(port, "127.0.0.1"); },
    function (h) { return h.require("worker_threads").parentPort.postMessage({ type: "fetch", url: url }); },
    function (h) { return h.Deno.connect({ port: port }); },
    function (h) { return h.Bun.connect({ hostname: "127.0.0.1", port: port }); },
  ];
  for (var h of hosts) for (var f of routes) {
    tried++;
    try { var v = f(h); if (v !== undefined) reached++; } catch (e) {}
  }
  var more = [
    function () { return require("http").get(url); },
    function () { return require("node:net").connect(port, "127.0.0.1"); },
    function () { return require(url); },
    function () { return (0, eval)(IMP + "(" + JSON.stringify(url) + ")"); },
    function () { return Function("return " + IMP + "(" + JSON.stringify(url) + ")")(); },
    function () { return new G.Compartment().evaluate(IMP + "(" + JSON.stringify(url) + ")"); },
    function () { return new G.Compartment({ __options__: true, globals: { fetch: G.fetch } }).evaluate("fetch(" + JSON.stringify(url) + ")"); },
  ];
  for (var g of more) {
    tried++;
    try { var w = g(); if (w !== undefined) reached++; } catch (e) {}
  }
}
`;

const url = (where: string) => `http://127.0.0.1:${port}/${where}`;

function netWorkload(): string {
  return `// @ts-nocheck
import { workload } from "siglab";
${ATTACK}
attack(${JSON.stringify(url("workload-top"))}, [require, module, exports]);
export default workload({ name: "net", params: {}, *main(t, params) {
  let err = null;
  try { yield* t.kill("x", 1); } catch (e) { err = e; }
  attack(${JSON.stringify(url("workload-main"))}, [t, params, err, t.getpid(), t.fpu, t.libc, t.pthread]);
  const fd = yield* t.open(${JSON.stringify(url("open"))});
  const sock = yield* t.syscall(102, 1, [2, 1, 0]);
  t.report("tried", tried, "");
  t.report("open refused", fd < 0 ? 1 : 0, "");
  t.report("socketcall refused", typeof sock === "number" && sock < 0 ? 1 : 0, "");
} });
`;
}

/** A plugin's files: it attacks at load, in createModule (with the API) and in its module's registration. */
function netPlugin(id: string): Record<string, string> {
  const manifest = { id, version: "1.0.0", apiVersion: "2.0", displayName: id, description: "d", options: {}, contributes: ["SyscallContribution"], main: "index.js" };
  const code = `${ATTACK}
attack(${JSON.stringify(url(`${id}-top`))}, [require, module, exports]);
exports.createModule = function (options, api) {
  attack(${JSON.stringify(url(`${id}-create`))}, [options, api, api.ContainerModule]);
  return new api.ContainerModule(function (bind) {
    attack(${JSON.stringify(url(`${id}-bind`))}, [bind].concat(Array.prototype.slice.call(arguments)));
    if (tried < 60) throw new Error("the plugin's attack did not run (" + tried + " routes)");
  });
};
`;
  return { "plugin.json": JSON.stringify(manifest), "index.js": code };
}

function bundleWithEmbeddedPlugin(): string {
  const files = netPlugin("netplug");
  const experiment = { workload: { id: "net", file: "net.ts", source: netWorkload() }, cpus: [{ id: "p4-northwood", mhz: 2200 }], stacks: [[{ id: "netplug" }]], params: {}, seed: 1 };
  const createdAt = "2026-12-01T00:00:00.000Z";
  const entries = buildEntries({
    experiment: experiment as never,
    profiles: BUILTIN_PROFILE_FILES.filter((p) => p.id === "p4-northwood"),
    plugins: [{ source: "embedded", id: "netplug", version: "1.0.0", files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new TextEncoder().encode(v)])) }],
    results: [],
    appVersion: "0.1.0",
    createdAt,
  });
  entries.set("manifest.json", new TextEncoder().encode(JSON.stringify(manifestFor(entries, "0.1.0", createdAt))));
  const p = join(dir, "net.siglab");
  writeFileSync(p, zipEntries(entries, createdAt));
  return p;
}

const LONG = 240_000;

describe("no network from foreign code", () => {
  it("a workload, a bundle (workload and embedded plugin) and a --plugin-dir plugin reach nothing on a loopback listener", async () => {
    const workload = join(dir, "net.ts");
    writeFileSync(workload, netWorkload());
    const pluginDir = join(dir, "plugins", "dirplug");
    mkdirSync(pluginDir, { recursive: true });
    for (const [name, text] of Object.entries(netPlugin("dirplug"))) writeFileSync(join(pluginDir, name), text);
    const bundle = bundleWithEmbeddedPlugin();
    const env = { SIGLAB_HOME: join(dir, "home") };
    const [w, b, p] = await Promise.all([
      runSiglab(["run", workload, "--json"], { env }),
      runSiglab(["bundle", "run", bundle, "--trust-embedded", "-o", join(dir, "bundle-results.json")], { env }),
      runSiglab(["run", workload, "--plugin-dir", join(dir, "plugins"), "--variant", "dirplug", "--json"], { env }),
    ]);
    // give anything sent asynchronously time to arrive
    await new Promise((r) => setTimeout(r, 1500));
    expect(seen).toEqual([]);
    for (const [what, r] of [["workload", w], ["bundle", b], ["plugin", p]] as const) expect(r!.code, `${what}: ${r!.out}${r!.err}`).toBe(0);
    const metrics = Object.fromEntries((JSON.parse(w!.out) as { runs: { metrics: { name: string; value: number }[] }[] }).runs[0]!.metrics.map((m) => [m.name, m.value]));
    expect(metrics["tried"]).toBeGreaterThanOrEqual(50); // 25 routes, at the top level and in main
    expect(metrics["open refused"]).toBe(1);
    expect(metrics["socketcall refused"]).toBe(1);
  }, LONG);
});
