/**
 * End-to-end harness: starts the HTTP host (the same code `siglab serve` runs) on a temp workspace
 * and drives Debian's headless Chromium with playwright-core. Never downloads a browser.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { runServe } from "../../cli/src/commands/serve.js";
import type { RunningServer } from "../src/server/server.js";

export const CHROMIUM = process.env.SIGLAB_CHROMIUM ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"];
export const ARTIFACTS = fileURLToPath(new URL("../../../test-artifacts/desktop/", import.meta.url));

export interface Session {
  server: RunningServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  workspace: string;
  /** Console errors and page errors seen so far. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * The result cache of every session: a folder of this test process's own (never the user's cache),
 * and off in a new workspace unless a test asks (`resultCache: true`): a test that runs an
 * experiment another test ran must see it simulated.
 */
const CACHE_DIR = mkdtempSync(path.join(os.tmpdir(), "siglab-e2e-cache-"));
process.env["SIGLAB_CACHE_DIR"] = CACHE_DIR;
process.on("exit", () => rmSync(CACHE_DIR, { recursive: true, force: true }));

export async function openSession(opts: { workspace?: string; chromiumArgs?: string[]; resultCache?: boolean } = {}): Promise<Session> {
  const workspace = opts.workspace ?? mkdtempSync(path.join(os.tmpdir(), "siglab-e2e-"));
  if (!opts.workspace && !opts.resultCache) writeFileSync(path.join(workspace, "settings.json"), JSON.stringify({ disabledPlugins: [], resultCache: false }));
  const server = await runServe({ port: 0, workspace }, () => undefined);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...(opts.chromiumArgs ?? [])], headless: true });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: "light" });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.origin });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console: ${m.text()}`);
  });
  await page.goto(server.url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
  return {
    server, browser, context, page, workspace, errors,
    async close() {
      await browser.close();
      await server.close();
      if (!opts.workspace) rmSync(workspace, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Markers Monaco reports for the current model (how a test sees type errors). */
export async function markers(page: Page): Promise<{ message: string; severity: number; startLineNumber: number }[]> {
  return page.evaluate(() => (window as unknown as { __siglabTest: { markers(): { message: string; severity: number; startLineNumber: number }[] } }).__siglabTest.markers());
}

// ---- helpers shared by the host, plugin and security suites --------------------------------------------

interface TestHooks {
  setSource(t: string): void;
  results(): import("../src/common/contracts.js").RunResult[];
  workerStarts(): number[];
  host: { run(config: import("../src/common/contracts.js").ExperimentConfig): Promise<import("../src/common/contracts.js").RunResult[]>; reset(): void };
}

/** Opens a new untitled workload with `source` (set on the model, as an edit). */
export async function newWorkload(page: Page, source: string): Promise<void> {
  await page.click('button[aria-label="New workload"]');
  await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key")?.startsWith("new:"));
  await page.evaluate((t) => (window as unknown as { __siglabTest: TestHooks }).__siglabTest.setSource(t), source);
}

/** Checks exactly the given CPU profiles. */
export async function selectCpus(page: Page, wanted: string[]): Promise<void> {
  const ids = await page.$$eval("[data-cpu]", (els) => els.map((e) => e.getAttribute("data-cpu")!));
  for (const id of ids) {
    const box = page.locator(`[data-cpu="${id}"]`);
    if ((await box.isChecked()) !== wanted.includes(id)) await box.click();
  }
}

/**
 * What `action` hands to the browser's downloads (siglab serve's exports and bundles are
 * downloads): the file name the page suggested and its bytes.
 */
export async function downloaded(page: Page, action: () => Promise<unknown>): Promise<{ name: string; bytes: Buffer }> {
  const [d] = await Promise.all([page.waitForEvent("download", { timeout: 30_000 }), action()]);
  const file = await d.path();
  return { name: d.suggestedFilename(), bytes: readFileSync(file) };
}

/** Opens a shipped example in the editor and waits until it is the open document. */
export async function openExample(p: Page, id: string): Promise<void> {
  await p.click(`[data-example="${id}"]`);
  await p.waitForFunction((k) => document.querySelector("#doc-title")?.getAttribute("data-key") === k, `example:${id}`);
}

/** Sets a run-configuration input (a workload parameter, or __seed, __repeat, …) as a user would. */
export async function setParam(p: Page, name: string, value: string): Promise<void> {
  const input = p.locator(`[data-param="${name}"]`);
  await input.fill(value);
  await input.dispatchEvent("change");
}

/** Clicks Run and waits until the run ends; returns the status line. */
export async function runAndWait(page: Page, timeout = 90_000): Promise<string> {
  const before = await page.evaluate(() => Number(document.body.dataset.runsFinished ?? 0));
  await page.click("#run-button");
  await page.waitForFunction((n) => Number(document.body.dataset.runsFinished ?? 0) > n, before, { timeout });
  return (await page.textContent("#run-status")) ?? "";
}

/** The results on screen, as the execution host returned them. */
export async function shownResults(page: Page): Promise<import("../src/common/contracts.js").RunResult[]> {
  return page.evaluate(() => (window as unknown as { __siglabTest: TestHooks }).__siglabTest.results());
}

/** What a rendered chart shows (the renderer's test hook chartInfo): x labels, axis titles, datasets, each bar's stack. */
export interface ChartInfo {
  labels: string[];
  xTitle: string;
  yTitle: string;
  datasets: { label: string; color: string; total: number }[];
  stacks: number[];
}

/** The chart `id` as rendered, or null when it is not on screen. */
export async function chartInfo(page: Page, id: string): Promise<ChartInfo | null> {
  return page.evaluate((c) => (window as unknown as { __siglabTest: { chartInfo(id: string): ChartInfo | null } }).__siglabTest.chartInfo(c), id);
}

/** Milliseconds from creating each sandbox worker to its "ready", so far. */
export async function workerStarts(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __siglabTest: TestHooks }).__siglabTest.workerStarts());
}

/** Runs an experiment through the app's execution host (the same SimClient the Run button uses). */
export async function hostRun(page: Page, config: import("../src/common/contracts.js").ExperimentConfig): Promise<import("../src/common/contracts.js").RunResult[]> {
  return page.evaluate((c) => (window as unknown as { __siglabTest: TestHooks }).__siglabTest.host.run(c), config);
}

/** Terminates the app's sandbox workers; the next run starts a fresh one. */
export async function hostReset(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { __siglabTest: TestHooks }).__siglabTest.host.reset());
}

/** Milliseconds the page takes to answer a click on a results tab (the UI thread's latency). */
export async function clickLatency(page: Page): Promise<number> {
  const t0 = Date.now();
  await page.click('[data-tab="table"]', { timeout: 5_000 });
  await page.waitForFunction(() => document.querySelector('[data-tab="table"]')?.getAttribute("aria-selected") === "true", null, { timeout: 5_000 });
  const ms = Date.now() - t0;
  await page.click('[data-tab="charts"]');
  return ms;
}

/**
 * Opens the bundle `file` in `p` (a fresh session) and re-runs it with its embedded plugin `id`:
 * Run is refused until the user trusts the plugin code, then runs. Returns the trust notice, the
 * re-run verdict dialog's text (the dialog is dismissed) and the results shown.
 */
export async function rerunTrustedBundle(p: Page, file: string, id: string): Promise<{ notice: string; verdict: string; results: import("../src/common/contracts.js").RunResult[] }> {
  const chooser = p.waitForEvent("filechooser");
  await p.click("#import-bundle");
  await (await chooser).setFiles(file);
  await p.waitForSelector("#bundle-trust", { timeout: 20_000 });
  const notice = (await p.textContent("#bundle-trust")) ?? "";
  // not trusted yet: the run is refused, nothing of the plugin runs
  await p.click("#run-button");
  await p.waitForFunction((i) => (document.querySelector(".toast")?.textContent ?? "").includes(`plugin "${i}" is not enabled`), id, { timeout: 20_000 });
  await p.click("#trust-bundle-plugins");
  await p.waitForFunction((i) => document.body.dataset.bundlePlugins === i, id);
  await runAndWait(p, 60_000);
  const dialog = p.locator('.modal[aria-label="Re-run of the bundle"]');
  await dialog.waitFor();
  const verdict = (await dialog.textContent()) ?? "";
  await dialog.locator("button").click();
  return { notice, verdict, results: await shownResults(p) };
}
