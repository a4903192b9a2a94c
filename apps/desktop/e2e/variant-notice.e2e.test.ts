/**
 * Issue 32, item 2 in the app: SA_NOFP on lat_sig catch without forceAll changes nothing (the
 * example's handler does not ask for SA_NOFP): the results say so over the charts, with the
 * plugin's reason, and a button that sets forceAll and runs again — after which the banner is gone
 * and the signal round trip is shorter.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, runAndWait, screenshot, selectCpus, shownResults, type Session } from "./harness.js";

let s: Session;
let page: Page;
beforeAll(async () => {
  s = await openSession();
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

const signalUs = (r: { metrics: { name: string; value: number }[] }): number => r.metrics.find((m) => m.name === "Signal handler overhead")!.value;

describe("issue 32: a variant that changed nothing says so", () => {
  it("banners SA_NOFP's null result with why, and its switch turns forceAll on and runs again", async () => {
    await page.click('[data-example="lat_sig_catch"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "example:lat_sig_catch");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    const it = page.locator('[data-param="iterations"]');
    await it.fill("300");
    await it.dispatchEvent("change");
    await selectCpus(page, ["p4-northwood"]);
    await page.selectOption("[data-add-stack]", "sa-nofp");
    expect(await runAndWait(page)).toMatch(/^Done: 2 runs/);
    const notice = page.locator('.variant-notice[data-variant="sa-nofp"]');
    await notice.waitFor();
    expect(await page.locator(".variant-notice").count()).toBe(1); // the baseline run has no variant to report
    expect(await notice.textContent()).toMatch(/^sa-nofp had no effect in this run: none of the kernel paths it contributes or changes ran \(no handler asked for SA_NOFP; set forceAll=true to apply it to every handler\)\.Set forceAll=true and run again$/);
    const [base, nofp] = await shownResults(page);
    expect(signalUs(nofp!)).toBe(signalUs(base!)); // the null result the banner explains
    await screenshot(page, "32-02-variant-no-effect");

    await page.click('[data-apply-switch="sa-nofp"]');
    await page.waitForFunction(() => /^Done: 2 runs/.test(document.querySelector("#run-status")?.textContent ?? "") && document.querySelectorAll(".variant-notice").length === 0, null, { timeout: 60_000 });
    expect(await page.locator('[data-stack="1"] [data-variant="sa-nofp"] label.option', { hasText: "forceAll" }).locator("input").isChecked()).toBe(true);
    const [base2, forced] = await shownResults(page);
    expect(forced!.variants).toEqual([{ id: "sa-nofp", options: { forceAll: true } }]);
    expect(signalUs(forced!)).toBeLessThan(signalUs(base2!) * 0.8);
    expect(s.errors).toEqual([]);
  });
});
