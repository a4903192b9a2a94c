/**
 * Regenerates the README's screenshot (docs/img/desktop-results.png) from the current app: the e2e
 * harness opens the app in headless Chromium at 1440x900, opens lat_sig_catch on two CPUs (P4
 * Northwood @ 2200 MHz, PIII Coppermine @ 1000 MHz) under two stacks (baseline, sa-nofp with
 * forceAll=true), runs it and saves the window with the results. Not part of `pnpm test`:
 *
 *   pnpm --filter @siglab/desktop screenshot        (builds the renderer first)
 *
 * (tsx reads tsconfig.base.json for core's decorators.) The PNG is written to a temp file beside the target, then renamed over it (never half-written).
 */
import { renameSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openSession, runAndWait, selectCpus } from "./harness.js";

const TARGET = fileURLToPath(new URL("../../../docs/img/desktop-results.png", import.meta.url));
const RESULTS_HEIGHT = 470;

const s = await openSession();
const page = s.page;
try {
  // a taller results pane (the app's remembered splitter position), then a fresh start with it
  await page.evaluate((h) => localStorage.setItem("siglab.layout.v1", JSON.stringify({ resultsHeight: h, phaseNorm: "iterations" })), RESULTS_HEIGHT);
  await page.reload();
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });

  await page.click('[data-example="lat_sig_catch"]');
  await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "example:lat_sig_catch");
  await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
  await selectCpus(page, ["p4-northwood", "p6-coppermine"]);
  await page.selectOption('select[aria-label="Intel Pentium 4 (Northwood) clock"]', "2200");
  await page.selectOption('select[aria-label="Intel Pentium III (Coppermine) clock"]', "1000");
  // stacks: the baseline (stack 1) and baseline + sa-nofp with forceAll
  while ((await page.locator("[data-stack]").count()) > 1) await page.locator('[data-stack="1"] .stack-head button').click();
  while ((await page.locator('[data-stack="0"] [data-variant] button.icon').count()) > 0) await page.locator('[data-stack="0"] [data-variant] button.icon').first().click();
  await page.selectOption("[data-add-stack]", "sa-nofp");
  await page.locator('[data-stack="1"] [data-variant="sa-nofp"] label.option', { hasText: "forceAll" }).locator("input").check();
  const status = await runAndWait(page, 120_000);
  if (!status.startsWith("Done:") || / failed/.test(status)) throw new Error(`the run did not succeed: ${status}`);
  // show the variant stacks in the run configuration panel
  await page.locator('[data-stack="1"]').scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  await page.waitForTimeout(300);

  const tmp = path.join(path.dirname(TARGET), `.${path.basename(TARGET)}.${process.pid}.tmp`);
  try {
    await page.screenshot({ path: tmp, type: "png" });
    renameSync(tmp, TARGET);
  } finally {
    rmSync(tmp, { force: true });
  }
  if (s.errors.length) console.warn(`page errors:\n${s.errors.join("\n")}`);
  console.log(`${status}\nwrote ${path.relative(process.cwd(), TARGET)}`);
} finally {
  await s.close();
}
