/**
 * Issue 31's distribution path in the browser host (siglab serve): the shipped getpid-cache, built
 * and packed by `siglab plugin pack`, installed through the Plugins view's "Install from file…",
 * its example run with the plugin; then a newer version's archive asks before replacing the
 * installed one, and is installed only after the answer.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { openSession, runAndWait, selectCpus, shownResults, type Session } from "./harness.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PLUGIN = fileURLToPath(new URL("../../../examples/third-party-plugins/getpid-cache", import.meta.url));
const OUT = mkdtempSync(path.join(tmpdir(), "siglab-archive-e2e-"));

let s: Session;
let page: Page;

const pack = (folder: string, file: string): string => {
  execFileSync("pnpm", ["-s", "siglab", "plugin", "pack", folder, "-o", path.join(OUT, file)], { cwd: ROOT, stdio: "pipe" });
  return path.join(OUT, file);
};

async function installFromFile(p: Page, file: string): Promise<void> {
  const chooser = p.waitForEvent("filechooser");
  await p.click('[data-action="install-plugin-file"]');
  await (await chooser).setFiles(file);
}

beforeAll(async () => {
  execFileSync("pnpm", ["run", "build"], { cwd: PLUGIN, stdio: "pipe" });
  s = await openSession();
  page = s.page;
}, 180_000);
afterAll(async () => {
  await s?.close();
});

describe("a plugin archive in the app", () => {
  it("installs getpid-cache from its .siglab-plugin file and runs its example with it", async () => {
    const archive = pack(PLUGIN, "getpid-cache-1.0.0.siglab-plugin");
    await page.click('[data-view="plugins"]');
    await installFromFile(page, archive);
    const card = page.locator('[data-plugin="getpid-cache"][data-status="ok"]');
    await card.waitFor({ timeout: 20_000 });
    expect(await card.textContent()).toMatch(/getpid-cache 1\.0\.0/);
    await page.click('[data-view="workload"]');
    await page.click('[data-example="getpid_cache"]', { timeout: 20_000 });
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await selectCpus(page, ["p4-northwood"]);
    await page.selectOption('[data-add-plugin="0"]', "getpid-cache");
    await page.waitForSelector('[data-stack="0"] [data-variant="getpid-cache"]');
    expect(await runAndWait(page)).toMatch(/Done: 1 run/);
    const [run] = await shownResults(page);
    expect(run!.error).toBeUndefined();
    expect(run!.metrics.find((m) => m.name === "pid page registered")?.value).toBe(1);
  });

  it("asks before replacing it with another version's archive, and replaces it only after the answer", async () => {
    const v2 = path.join(OUT, "getpid-cache");
    cpSync(PLUGIN, v2, { recursive: true, filter: (src) => !src.includes("node_modules") });
    const manifest = JSON.parse(readFileSync(path.join(v2, "plugin.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(path.join(v2, "plugin.json"), JSON.stringify({ ...manifest, version: "1.1.0" }));
    const archive = pack(v2, "getpid-cache-1.1.0.siglab-plugin");
    await page.click('[data-view="plugins"]');
    await installFromFile(page, archive);
    const dialog = page.locator('.modal[aria-label="Replace plugin?"]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/Plugin "getpid-cache" 1\.0\.0 is installed\. Replace it with 1\.1\.0\?/);
    expect(await page.locator('[data-plugin="getpid-cache"]').textContent()).toMatch(/getpid-cache 1\.0\.0/);
    await dialog.locator('[data-testid="modal-ok"]').click();
    await page.waitForFunction(() => /getpid-cache 1\.1\.0/.test(document.querySelector('[data-plugin="getpid-cache"]')?.textContent ?? ""), null, { timeout: 20_000 });
    expect(await page.locator('[data-plugin="getpid-cache"]').getAttribute("data-status")).toBe("ok");
  });

  it("logged no errors to the console", () => {
    expect(s.errors).toEqual([]);
  });
});
