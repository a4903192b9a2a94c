/**
 * End-to-end harness: starts the HTTP host (the same code `siglab serve` runs) on a temp workspace
 * and drives Debian's headless Chromium with playwright-core. Never downloads a browser.
 */
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
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

export async function openSession(opts: { workspace?: string } = {}): Promise<Session> {
  const workspace = opts.workspace ?? mkdtempSync(path.join(os.tmpdir(), "siglab-e2e-"));
  const server = await runServe({ port: 0, workspace }, () => undefined);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
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
