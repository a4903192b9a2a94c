/**
 * Issue 32, item 5: "per iteration" divides each loop by its own count. lat_sig catch times two
 * loops (kill(me, SIGUSR1) with its handler, and lmbench's kill(me, 0) overhead loop) and reports
 * their difference per iteration; the phase chart's per-iteration mode draws each loop ÷ its own
 * count and the catch loop less the send loop, whose bar is the metric beside it. ÷ iterations,
 * the old per iteration (both loops, set-up and warm-up over one count), stays on offer.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openExample, openSession, runAndWait, screenshot, selectCpus, setParam, shownResults, chartInfo, type Session } from "./harness.js";


let s: Session;
let page: Page;
beforeAll(async () => {
  s = await openSession();
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

const SEND = "send: kill(me, 0)";
const CATCH = "catch: kill(me, SIGUSR1)";
const NET = `${CATCH} − ${SEND}`;
const metric = (r: { metrics: { name: string; value: number }[] }, name: string): number => r.metrics.find((m) => m.name === name)!.value;

describe("issue 32: per-iteration figures divide each loop by its own count", () => {
  it("lat_sig catch: per iteration, the catch loop less the send loop is the metric beside it; ÷ iterations is not", async () => {
    await openExample(page, "lat_sig_catch");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await setParam(page, "iterations", "2000");
    await selectCpus(page, ["p4-northwood"]);
    expect(await runAndWait(page)).toMatch(/^Done: 1 run/);
    const [r] = await shownResults(page);
    await page.click('[data-tab="charts"]');
    await page.locator('canvas[data-chart="phases"]').waitFor();
    // the default per iteration, for runs that named their loops: each loop by its own count
    expect(await page.getAttribute('select[aria-label="Phase chart normalisation"]', "data-norm")).toBe("@loops");
    const info = (await chartInfo(page, "phases"))!;
    // each bar: the loop, over its run
    expect(info.labels).toEqual([SEND, CATCH, NET].map((l) => `${l},P4 2.2 GHz · baseline`));
    expect(info.xTitle).toBe("loop · run (CPU · variant stack)");
    expect(info.yTitle).toBe("cycles per iteration (each loop ÷ its own count)");
    const [send, caught, net] = info.stacks as [number, number, number];
    expect(send).toBeCloseTo(metric(r!, "kill(me, 0)"), 6);
    expect(caught).toBeCloseTo(metric(r!, "signal round trip"), 6);
    expect(net).toBeCloseTo(metric(r!, "catch cycles"), 6);
    expect(net).toBeGreaterThan(6000); // ~6,800 cycles on the P4: a signal's delivery, handler and sigreturn
    await page.locator('canvas[data-chart="phases"]').scrollIntoViewIfNeeded();
    await screenshot(page, "32-05-per-loop-iteration");

    // ÷ iterations (the old per iteration): one bar, both loops and the set-up over one count
    await page.selectOption('select[aria-label="Phase chart normalisation"]', "iterations");
    const old = (await chartInfo(page, "phases"))!;
    expect(old.yTitle).toBe("cycles per iteration (÷ iterations)");
    expect(old.stacks).toHaveLength(1);
    expect(old.stacks[0]! - metric(r!, "catch cycles")).toBeGreaterThan(1000);
    await page.selectOption('select[aria-label="Phase chart normalisation"]', "@loops");
  });

  it("several runs: a loop's bars name their run, and each run's net bar is its own metric", async () => {
    await selectCpus(page, ["p4-northwood", "p6-coppermine"]);
    expect(await runAndWait(page)).toMatch(/^Done: 2 runs/);
    const runs = await shownResults(page);
    await page.click('[data-tab="charts"]');
    await page.locator('canvas[data-chart="phases"]').waitFor();
    const info = (await chartInfo(page, "phases"))!;
    expect(info.labels).toHaveLength(6);
    expect(info.xTitle).toBe("loop · run (CPU · variant stack)");
    runs.forEach((r, i) => {
      const at = info.labels.findIndex((l, j) => l.startsWith(`${NET},`) && Math.floor(j / 3) === i);
      expect(at, info.labels.join(" | ")).toBeGreaterThanOrEqual(0);
      expect(info.stacks[at]!).toBeCloseTo(metric(r, "catch cycles"), 6);
    });
  });
});
