/**
 * The whole UI in real headless Chromium against the HTTP host (`siglab serve` code), with the
 * real simulation worker. Run: pnpm --filter @siglab/desktop test:e2e (builds the renderer first).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { downloaded, markers, openSession, screenshot, type Session } from "./harness.js";
import { builtinCatalog } from "../src/node/catalog.js";
import { PLUGIN_API_VERSION } from "@siglab/core/plugin-api";

/** The SA_NOFP scenario needs the sa-nofp built-in plugin (issue 4); without it that test is skipped, saying so. */
const HAS_SA_NOFP = builtinCatalog().plugins.some((p) => p.id === "sa-nofp");

let s: Session;
let page: Page;


async function openExample(id: string): Promise<void> {
  await page.click(`[data-example="${id}"]`);
  await page.waitForFunction((k) => document.querySelector("#doc-title")?.getAttribute("data-key") === k, `example:${id}`);
}

async function selectOnlyCpus(n: number): Promise<string[]> {
  const ids = await page.$$eval("[data-cpu]", (els) => els.map((e) => e.getAttribute("data-cpu")!));
  for (const [i, id] of ids.entries()) {
    const box = page.locator(`[data-cpu="${id}"]`);
    if ((await box.isChecked()) !== i < n) await box.click();
  }
  return ids.slice(0, n);
}

/** Checks exactly the given CPU profiles. */
async function selectCpus(wanted: string[]): Promise<void> {
  const ids = await page.$$eval("[data-cpu]", (els) => els.map((e) => e.getAttribute("data-cpu")!));
  for (const id of ids) {
    const box = page.locator(`[data-cpu="${id}"]`);
    if ((await box.isChecked()) !== wanted.includes(id)) await box.click();
  }
}

async function setParam(name: string, value: string): Promise<void> {
  const input = page.locator(`[data-param="${name}"]`);
  await input.fill(value);
  await input.dispatchEvent("change");
}

async function runAndWait(timeout = 90_000): Promise<string> {
  const before = await page.evaluate(() => Number(document.body.dataset.runsFinished ?? 0));
  await page.click("#run-button");
  await page.waitForFunction((n) => Number(document.body.dataset.runsFinished ?? 0) > n, before, { timeout });
  return (await page.textContent("#run-status")) ?? "";
}

async function waitForParams(): Promise<void> {
  await page.waitForSelector("[data-param]:not([data-param=__seed])", { timeout: 20_000 });
}

beforeAll(async () => {
  s = await openSession();
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

describe("SigLab in Chromium (serve host)", () => {
  it("opens an example read-only in Monaco", async () => {
    await openExample("lat_sig_catch");
    await page.waitForSelector(".monaco-editor .view-lines");
    const text = await page.evaluate(() => (window as unknown as { __siglabTest: { source(): string } }).__siglabTest.source());
    expect(text).toContain('from "siglab"');
    expect(await page.textContent("#doc-title")).toMatch(/read-only/);
    await expect(page.locator("#save-as-mine").isVisible()).resolves.toBe(true);
    await screenshot(page, "01-editor");
  });

  it("shows a marker for a deliberate type error against the workload API", async () => {
    await page.click('button[aria-label="New workload"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key")?.startsWith("new:"));
    await page.evaluate(() =>
      (window as unknown as { __siglabTest: { setSource(t: string): void } }).__siglabTest.setSource(
        `import { workload } from "siglab";\nexport default workload({\n  name: "typo",\n  params: {},\n  *main(t) {\n    yield* t.kill("not a pid", 10);\n  },\n});\n`,
      ),
    );
    await page.waitForFunction(() => (window as unknown as { __siglabTest: { markers(): { severity: number }[] } }).__siglabTest.markers().some((m) => m.severity === 8), null, { timeout: 30_000 });
    const ms = await markers(page);
    const err = ms.find((m) => m.severity === 8)!;
    expect(err.startLineNumber).toBe(6);
    expect(err.message).toMatch(/not assignable to parameter of type 'number'/);
    await screenshot(page, "02-type-error");
  });

  it("runs lat_sig_catch on two CPU profiles: one bar per CPU and a phase breakdown per run", async () => {
    await openExample("lat_sig_catch");
    await waitForParams();
    await selectOnlyCpus(2);
    await setParam("iterations", "200");
    const status = await runAndWait();
    expect(status).toMatch(/Done: 2 runs/);
    const metric = page.locator('canvas[data-chart^="metric:"]').first();
    await metric.waitFor();
    expect(await metric.getAttribute("data-labels")).toBe("2");
    expect(await metric.getAttribute("data-datasets")).toBe("1");
    expect(await metric.getAttribute("data-bars")).toBe("2");
    const phases = page.locator('canvas[data-chart="phases"]');
    // per iteration of each named loop: send, catch and catch − send for each run (loops.e2e.test.ts)
    expect(await phases.getAttribute("data-labels")).toBe("6");
    expect(Number(await phases.getAttribute("data-datasets"))).toBeGreaterThan(1);
    await screenshot(page, "03-results");
  });

  it("opens the path inspector from a segment of the phase chart", async () => {
    await page.locator('canvas[data-chart="phases"]').scrollIntoViewIfNeeded();
    // the tallest phase of the second run's catch loop (bar 4: each run has three loop bars): a
    // click at its middle lands on it whatever the phase mix
    const pt = await page.evaluate(() => {
      const t = (window as unknown as { __siglabTest: { largestDataset(c: string, i: number): number; elementPoint(c: string, d: number, i: number): { x: number; y: number } | null } }).__siglabTest;
      return t.elementPoint("phases", t.largestDataset("phases", 4), 4);
    });
    expect(pt).not.toBeNull();
    await page.mouse.click(pt!.x, pt!.y);
    const inspector = page.locator("#inspector");
    await inspector.waitFor();
    expect(await inspector.getAttribute("data-run")).toBe("1");
    expect(await inspector.getAttribute("data-phase")).toBeTruthy();
    const ops = page.locator(".ops-table tbody tr");
    expect(await ops.count()).toBeGreaterThan(0);
    await screenshot(page, "04-path-inspector");
  });

  it("runs sa_nofp_hazard with the sa-nofp plugin and reports the FPU corruption with evidence", async (ctx) => {
    if (!HAS_SA_NOFP) ctx.skip("the sa-nofp built-in plugin is not in this build yet (issue 4)");
    const plugins = await page.$$eval("[data-plugin-link]", (els) => els.map((e) => e.getAttribute("data-plugin-link")));
    expect(plugins, "the sa-nofp built-in plugin is listed").toContain("sa-nofp");
    await openExample("sa_nofp_hazard");
    await waitForParams();
    await selectCpus(["p4-northwood"]); // the program keeps live SSE state: needs a CPU with XMM registers
    await page.selectOption('[data-add-plugin="0"]', "sa-nofp");
    await page.waitForSelector('[data-stack="0"] [data-variant="sa-nofp"]');
    const status = await runAndWait();
    expect(status).toMatch(/Done: 1 run/);
    expect(status).not.toMatch(/ 0 findings/);
    await page.click('[data-tab="findings"]');
    const finding = page.locator('.finding[data-severity="error"]').first();
    await finding.waitFor();
    expect(await finding.getAttribute("data-kind")).toMatch(/corrupt/);
    expect(await finding.locator("table.evidence tr").count()).toBeGreaterThan(0);
    await screenshot(page, "05-findings");
  });

  it("Cancel stops a long run at once and the UI stays usable", async () => {
    await openExample("lat_syscall");
    await waitForParams();
    await selectOnlyCpus(1);
    await setParam("iterations", "2000000000");
    await page.click("#run-button");
    await page.waitForFunction(() => /cycles/.test(document.querySelector("#run-status")?.textContent ?? ""), null, { timeout: 30_000 });
    // The UI thread answers while the worker simulates.
    const t0 = Date.now();
    await page.click('[data-tab="table"]');
    expect(Date.now() - t0).toBeLessThan(5_000);
    await page.click("#cancel-button");
    await page.waitForFunction(() => document.body.dataset.running === "false", null, { timeout: 5_000 });
    expect(await page.textContent("#run-status")).toMatch(/Cancelled/);
    await setParam("iterations", "100");
    expect(await runAndWait()).toMatch(/Done: 1 run/);
  });

  it("draws sweep lines, a per-iteration histogram and a per-task timeline", async () => {
    await page.click('button[aria-label="New workload"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key")?.startsWith("new:"));
    await page.evaluate(() =>
      (window as unknown as { __siglabTest: { setSource(t: string): void } }).__siglabTest.setSource(
        `import { workload } from "siglab";\nexport default workload({\n  name: "getpid samples",\n  params: { iterations: 50 },\n  *main(t, { iterations }) {\n    for (let i = 0; i < iterations; i++) {\n      const s = t.rdtsc();\n      yield* t.getpid();\n      t.sample("getpid", t.rdtsc() - s);\n    }\n    t.report("getpid", 1, "calls");\n  },\n});\n`,
      ),
    );
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await selectOnlyCpus(1);
    await page.locator(".run-config label", { hasText: "Sweep one parameter" }).locator("input").check();
    await page.selectOption('select[aria-label="Sweep parameter"]', "iterations");
    await page.fill('input[aria-label="Sweep values"]', "10, 20, 40");
    await page.dispatchEvent('input[aria-label="Sweep values"]', "change");
    await page.locator(".run-config label", { hasText: "Record per-task timeline" }).locator("input").check();
    expect(await runAndWait()).toMatch(/Done: 3 runs/);
    await page.click('[data-tab="charts"]');
    const sweep = page.locator('canvas[data-chart="sweep:getpid"]');
    await sweep.waitFor();
    expect(await sweep.getAttribute("data-labels")).toBe("3");
    expect(await page.locator('canvas[data-chart="histogram:getpid"]').count()).toBe(1);
    expect(await page.locator('canvas[data-chart^="timeline:"]').count()).toBe(3);
    await screenshot(page, "05b-sweep-histogram-timeline");
    await page.locator(".run-config label", { hasText: "Sweep one parameter" }).locator("input").uncheck();
    await page.locator(".run-config label", { hasText: "Record per-task timeline" }).locator("input").uncheck();
  });

  it("exports the experiment as a bundle and CSV, opens the bundle again and re-runs it identically", async () => {
    await openExample("lat_sig_catch");
    await waitForParams();
    await selectOnlyCpus(1);
    await setParam("iterations", "50");
    await runAndWait();
    // in the browser, exports and bundles are downloads (nothing lands in the server's workspace)
    const csv = await downloaded(page, () => page.click("#export-csv"));
    expect(csv.name).toBe("lat_sig_catch.csv");
    expect(csv.bytes.toString("utf8")).toMatch(/lat_sig_catch/);
    const bundle = await downloaded(page, () => page.click("#export-bundle"));
    expect(bundle.name).toBe("lat_sig_catch.siglab");
    await page.waitForFunction(() => /Bundle saved to lat_sig_catch\.siglab \(your browser's downloads\)/.test(document.querySelector(".toast")?.textContent ?? ""), null, { timeout: 20_000 });
    expect(readdirSync(path.join(s.workspace, "exports"))).toEqual([]);
    const bundleFile = path.join(s.workspace, "..", `downloaded-${Date.now()}.siglab`);
    writeFileSync(bundleFile, bundle.bytes);
    const chooser = page.waitForEvent("filechooser");
    await page.click("#import-bundle");
    await (await chooser).setFiles(bundleFile);
    await page.waitForFunction(() => /Opened bundle/.test(document.querySelector("#doc-banner")?.textContent ?? ""), null, { timeout: 20_000 });
    await runAndWait();
    const dialog = page.locator('.modal[aria-label="Re-run of the bundle"]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/identical/);
    await dialog.locator("button").click();
  });

  it("installs a third-party plugin from a folder, runs it, and explains a refused one", async () => {
    const good = path.join(s.workspace, "..", `plugin-src-${Date.now()}`);
    mkdirSync(path.join(good, "dist"), { recursive: true });
    writeFileSync(path.join(good, "plugin.json"), JSON.stringify({ id: "e2e-demo", version: "0.1.0", apiVersion: PLUGIN_API_VERSION, displayName: "E2E demo", description: "installed by the e2e test", options: { depth: { type: "number", default: 2, description: "how deep" } }, contributes: ["SyscallContribution"], main: "dist/index.js" }));
    // CommonJS against the plugin API, as docs/plugin-authoring.md describes: a new system call 254 answering 40 + depth
    writeFileSync(
      path.join(good, "dist", "index.js"),
      `const api = require("@siglab/plugin-api");\nconst { answer } = require("./answer.js");\nexports.createModule = (options) => new api.ContainerModule(({ bind }) => {\n  bind(api.TOKENS.SyscallContribution).toConstantValue({ nr: 254, name: "e2e_demo", handler: () => answer(Number(options.depth)) });\n});\n`,
    );
    writeFileSync(path.join(good, "dist", "answer.js"), "exports.answer = (depth) => 40 + depth;\n");
    const bad = `${good}-future`;
    mkdirSync(path.join(bad, "dist"), { recursive: true });
    writeFileSync(path.join(bad, "plugin.json"), JSON.stringify({ id: "e2e-future", version: "0.1.0", apiVersion: "9.0", displayName: "Future", description: "d", options: {}, contributes: [], main: "dist/index.js" }));
    writeFileSync(path.join(bad, "dist", "index.js"), "");
    await page.click('[data-view="plugins"]');
    await page.click('[data-action="install-plugin"]');
    await page.fill(".modal input", good);
    await page.click('[data-testid="modal-ok"]');
    await page.waitForSelector('[data-plugin="e2e-demo"][data-status="ok"]');
    expect(await page.locator('[data-plugin="e2e-demo"] table.options').textContent()).toMatch(/depth/);
    await page.click('[data-action="install-plugin"]');
    await page.fill(".modal input", bad);
    await page.click('[data-testid="modal-ok"]');
    const refusal = page.locator('.modal[aria-label="Plugin refused"]');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/targets plugin API 9\.0/);
    await refusal.locator("button").click();
    await page.click('[data-view="workload"]');
    expect(await page.locator('[data-add-plugin="0"] option[value="e2e-demo"]').count()).toBe(1);

    // run it: the plugin's code is evaluated in the execution host's sandbox for this run
    await page.click('button[aria-label="New workload"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key")?.startsWith("new:"));
    await page.evaluate(() =>
      (window as unknown as { __siglabTest: { setSource(t: string): void } }).__siglabTest.setSource(
        `import { workload } from "siglab";\nexport default workload({\n  name: "call the plugin",\n  params: {},\n  *main(t) {\n    t.report("e2e_demo", Number(yield* t.syscall(254)), "value");\n  },\n});\n`,
      ),
    );
    await selectOnlyCpus(1);
    await page.selectOption('[data-add-plugin="0"]', "e2e-demo");
    const depth = page.locator('[data-stack="0"] [data-variant="e2e-demo"] input[type=number]');
    await depth.fill("5");
    await depth.dispatchEvent("change");
    expect(await runAndWait()).toMatch(/Done: 1 run/);
    const results = await page.evaluate(() => (window as unknown as { __siglabTest: { results(): { metrics: { name: string; value: number }[]; error?: unknown }[] } }).__siglabTest.results());
    expect(results[0]!.error).toBeUndefined();
    expect(results[0]!.metrics).toEqual([{ name: "e2e_demo", value: 45, unit: "value" }]);
    await page.click('[aria-label="Remove e2e-demo"]');
    await page.waitForSelector('[data-stack="0"] [data-variant="e2e-demo"]', { state: "detached" });
  });

  it("saves a workload; after a reload it is still there, with unsaved edits recovered", async () => {
    await openExample("lat_sig_catch");
    await page.click("#save-as-mine");
    await page.fill(".modal input", "e2e_saved.ts");
    await page.click('[data-testid="modal-ok"]');
    await page.waitForSelector('[data-workload="e2e_saved.ts"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "user:e2e_saved.ts");
    const saved = await page.evaluate(() => (window as unknown as { __siglabTest: { source(): string } }).__siglabTest.source());
    await page.evaluate(() => (window as unknown as { __siglabTest: { setSource(t: string): void } }).__siglabTest.setSource("// unsaved edit\n" + (window as unknown as { __siglabTest: { source(): string } }).__siglabTest.source()));
    await page.waitForFunction(() => document.body.dataset.autosaved === "user:e2e_saved.ts", null, { timeout: 10_000 });
    await page.reload();
    await page.waitForSelector("body[data-ready=true]");
    await page.click('[data-workload="e2e_saved.ts"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "user:e2e_saved.ts");
    const text = await page.evaluate(() => (window as unknown as { __siglabTest: { source(): string } }).__siglabTest.source());
    expect(text).toBe("// unsaved edit\n" + saved);
    expect(await page.textContent("#doc-banner")).toMatch(/Recovered unsaved changes/);
  });

  it("shows CPU profiles with the source of every number, and the plugins with their manifests", async () => {
    await page.click('[data-view="profiles"]');
    await page.waitForSelector(".profile-detail table.provenance");
    expect(await page.locator(".profile-detail table.provenance tbody tr").count()).toBeGreaterThan(10);
    await screenshot(page, "06-profiles");
    await page.click('[data-view="plugins"]');
    await page.waitForSelector(".plugins-view header");
    if (HAS_SA_NOFP) await page.waitForSelector('[data-plugin="sa-nofp"]');
    await screenshot(page, "07-plugins");
    await page.click('[data-view="workload"]');
  });

  it("exports a chart as PNG and SVG", async () => {
    await openExample("lat_sig_catch");
    await waitForParams();
    await selectOnlyCpus(1);
    await setParam("iterations", "50");
    await runAndWait();
    await page.click('[data-tab="charts"]');
    const card = page.locator('[data-chart-card="phases"]');
    const png = (await downloaded(page, () => card.locator('button[title="Export PNG"]').click())).bytes;
    expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const svg = (await downloaded(page, () => card.locator('button[title="Export SVG"]').click())).bytes.toString("utf8");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect((svg.match(/<rect /g) ?? []).length).toBeGreaterThan(3);
  });

  it("clones a built-in CPU profile, edits a cost and offers it as the user's own", async () => {
    await page.click('[data-view="profiles"]');
    await page.click('[data-profile-link="p4-northwood"]');
    await page.waitForSelector('.profile-detail[data-profile="p4-northwood"]');
    await page.click('text=Clone as my profile…');
    await page.fill(".modal input", "p4-mine");
    await page.click('[data-testid="modal-ok"]');
    await page.waitForSelector('.profile-detail[data-profile="p4-mine"]');
    const cycles = page.locator('input[aria-label="cli cycles"]');
    await cycles.fill("99");
    await cycles.dispatchEvent("change");
    await page.click("text=Save profile");
    await page.waitForFunction(() => /Saved profile p4-mine/.test(document.querySelector(".toast")?.textContent ?? ""));
    const saved = JSON.parse(readFileSync(path.join(s.workspace, "profiles", "p4-mine.json"), "utf8")) as { costs: { cli: { cycles: number } }; inherits?: string };
    expect(saved.costs.cli.cycles).toBe(99);
    expect(saved.inherits).toBeUndefined();
    await page.click('[data-view="workload"]');
    expect(await page.locator('[data-cpu="p4-mine"]').count()).toBe(1);
  });

  it("follows a dark OS theme", async () => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForFunction(() => document.querySelector(".monaco-editor")?.classList.contains("vs-dark"));
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe("rgb(30, 30, 30)");
    await screenshot(page, "09-dark");
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("enforces the CSP: the page runs no injected inline script", async () => {
    const r = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener("securitypolicyviolation", (e) => resolve(e.violatedDirective), { once: true });
          const el = document.createElement("script");
          el.textContent = "window.__injected = 1";
          document.body.append(el);
          setTimeout(() => resolve(`no violation, injected=${String((window as unknown as { __injected?: number }).__injected)}`), 3000);
        }),
    );
    expect(r).toMatch(/^script-src/);
  });

  it("runs workload code without network or storage in the simulation worker", async () => {
    await page.click('button[aria-label="New workload"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key")?.startsWith("new:"));
    await page.evaluate(() =>
      (window as unknown as { __siglabTest: { setSource(t: string): void } }).__siglabTest.setSource(
        `import { workload } from "siglab";\nconst g = globalThis as any;\nexport default workload({\n  name: "escape probe",\n  params: {},\n  *main(t) {\n    for (const k of ["fetch", "XMLHttpRequest", "WebSocket", "importScripts", "indexedDB", "caches", "postMessage"]) t.report(k, typeof g[k] === "function" || typeof g[k] === "object" ? 1 : 0, "available");\n    yield* t.getpid();\n  },\n});\n`,
      ),
    );
    await selectOnlyCpus(1);
    expect(await runAndWait()).toMatch(/Done: 1 run/);
    await page.click('[data-tab="table"]');
    expect(await page.locator(".run-errors").count(), (await page.locator(".run-errors").allTextContents()).join()).toBe(0);
    const text = (await page.textContent(".results-table")) ?? "";
    expect(text).toContain("fetch (available)");
    const values = await page.$$eval(".results-table tbody tr:first-child td.num", (tds) => tds.map((td) => td.textContent));
    expect(values.slice(0, 7)).toEqual(["0", "0", "0", "0", "0", "0", "0"]);
  });

  it("logged no errors to the console", () => {
    // The CSP probe above is expected to log a violation; nothing else may.
    expect(s.errors.filter((e) => !/Content Security Policy|unsafe-eval/.test(e))).toEqual([]);
  });

  it("renders the main screen for the README screenshot", async () => {
    await openExample("lat_sig_catch");
    await waitForParams();
    await selectOnlyCpus(2);
    await setParam("iterations", "200");
    await runAndWait();
    await page.click('[data-tab="charts"]');
    await page.locator('canvas[data-chart="phases"]').waitFor();
    // Copied by hand to docs/img/desktop-results.png when the UI changes visibly.
    await screenshot(page, "08-readme");
  });
});
