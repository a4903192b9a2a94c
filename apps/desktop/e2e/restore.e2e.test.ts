/**
 * Issue 32 item 4 in Chromium: restored state is the state that ran. A bundle the CLI exported with
 * `--variant sa-nofp:forceAll=true` (the option travels as the string "true") opens with forceAll
 * ticked, its seed, parameters and timeline, and re-runs identically; a link shows every choice it
 * carries (plugin options, CPUs per machine, sweep, repetitions, timeline, max seconds).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { encodeShare } from "../src/renderer/state/share.js";
import { openSession, runAndWait, screenshot, type Session } from "./harness.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
let s: Session;
let page: Page;
let dir: string;
let bundle: string;

type Hooks = { runConfig(): { cpus: unknown[]; stacks: { variants: unknown[] }[]; params: Record<string, unknown>; seed: number; timeline: boolean; smp?: number; repeat?: number; maxSeconds?: number; sweep: unknown } };
const runConfig = (p: Page): Promise<ReturnType<Hooks["runConfig"]>> => p.evaluate(() => (window as unknown as { __siglabTest: Hooks }).__siglabTest.runConfig());

/** The forceAll box of the sa-nofp chip in variant stack `stack`. */
const forceAll = (p: Page, stack: number) => p.locator(`[data-stack="${stack}"] [data-variant="sa-nofp"] label.option`, { hasText: "forceAll" }).locator("input");

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "siglab-restore-"));
  bundle = path.join(dir, "forced.siglab");
  execFileSync("pnpm", ["-s", "siglab", "bundle", "export", "lat_sig_catch", "--param", "iterations=200", "--cpu", "p4-northwood@2200", "--seed", "7", "--baseline", "--variant", "sa-nofp:forceAll=true", "--timeline", "-o", bundle], { cwd: ROOT, stdio: "pipe" });
  s = await openSession();
  page = s.page;
}, 120_000);
afterAll(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("issue 32 item 4: a bundle or a link opens showing every option as it ran", () => {
  it("opens a CLI bundle made with sa-nofp:forceAll=true with forceAll ticked, and re-runs it identically", async () => {
    const chooser = page.waitForEvent("filechooser");
    await page.click("#import-bundle");
    await (await chooser).setFiles(bundle);
    await page.waitForFunction(() => /Opened bundle/.test(document.querySelector("#doc-banner")?.textContent ?? ""), null, { timeout: 20_000 });
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    expect(await forceAll(page, 1).isChecked()).toBe(true);
    const cfg = await runConfig(page);
    // as it ran: the CLI's string, read as a boolean by the panel and the simulator alike
    expect(cfg.stacks).toEqual([{ variants: [] }, { variants: [{ id: "sa-nofp", options: { forceAll: "true" } }] }]);
    expect(cfg.seed).toBe(7);
    expect(cfg.timeline).toBe(true);
    expect(cfg.params).toEqual({ iterations: 200 });
    expect(await page.inputValue('[data-param="iterations"]')).toBe("200");
    await screenshot(page, "32-04-bundle-options");
    await runAndWait(page);
    const dialog = page.locator('.modal[aria-label="Re-run of the bundle"]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/identical/);
    await dialog.locator("button").click();
  });

  it("opens a link with every choice it carries on show", async () => {
    const fragment = await encodeShare({
      name: "restored",
      source: `import { workload } from "siglab";\nexport default workload({ name: "restored", params: { iterations: 100, label: "a" }, *main(t, { iterations }) { for (let i = 0; i < iterations; i++) yield* t.getpid(); } });\n`,
      config: {
        cpus: [{ id: "p4-northwood", mhz: 2200, smp: 2 }],
        stacks: [[], [{ id: "sa-nofp", options: { forceAll: "true" } }]],
        params: { label: "b" },
        seed: 11,
        sweep: { param: "iterations", values: [10, 20] },
        timeline: true,
        maxSeconds: 30,
        repeat: 3,
      },
    });
    await page.evaluate((f) => (location.hash = f), fragment);
    await page.waitForFunction(() => document.body.dataset.linkOpened);
    await page.waitForSelector('[data-param="label"]', { timeout: 20_000 });
    expect(await forceAll(page, 1).isChecked()).toBe(true);
    expect(await page.inputValue('[data-param="label"]')).toBe("b");
    expect(await page.inputValue('[data-param="__seed"]')).toBe("11");
    expect(await page.inputValue('[data-param="__smp"]')).toBe("2");
    expect(await page.inputValue('[data-param="__repeat"]')).toBe("3");
    expect(await page.inputValue('[data-param="__maxSeconds"]')).toBe("30");
    expect(await page.inputValue('[aria-label="Sweep parameter"]')).toBe("iterations");
    expect(await page.inputValue('[aria-label="Sweep values"]')).toBe("10, 20");
    expect(await page.locator("label", { hasText: "Record per-task timeline" }).locator("input").isChecked()).toBe(true);
    expect((await runConfig(page)).stacks[1]).toEqual({ variants: [{ id: "sa-nofp", options: { forceAll: "true" } }] });
  });
});
