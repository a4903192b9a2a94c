/**
 * UI responsiveness figures (a benchmark, not a test: it prints numbers, asserts nothing):
 *  - page load → interactive editor: navigation start until a key typed into Monaco is in the model;
 *  - input latency while a long simulation runs: delay between a key event's creation and its
 *    handler running on the UI thread (event.timeStamp → handler), median / p95 / max, vs idle.
 * Usage: pnpm --filter @siglab/desktop bench:ui   (builds the renderer first)
 */
import { openSession } from "../e2e/harness.js";
import type { Page } from "playwright-core";

interface Hooks {
  __siglabTest: { source(): string };
  __lat: number[];
}

async function inputLatency(page: Page, presses: number): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as Hooks & { __latOn?: boolean };
    w.__lat = [];
    if (!w.__latOn) document.addEventListener("keydown", (e) => w.__lat.push(performance.now() - e.timeStamp), { capture: true });
    w.__latOn = true;
  });
  const seed = page.locator('[data-param="__seed"]');
  await seed.focus();
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press("ArrowUp");
    await page.waitForTimeout(30);
  }
  return page.evaluate(() => (window as unknown as Hooks).__lat.slice());
}

const stats = (xs: number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  return `median ${q(0.5).toFixed(1)} ms, p95 ${q(0.95).toFixed(1)} ms, max ${(s.at(-1) ?? NaN).toFixed(1)} ms (n=${s.length})`;
};

const t0 = Date.now();
const s = await openSession();
const page = s.page;
try {
  const readyMs = await page.evaluate(() => performance.getEntriesByName("siglab-ready")[0]?.startTime ?? NaN);
  // Interactive editor: open a new workload and type; measure until the keystroke is in the model.
  await page.click('button[aria-label="New workload"]');
  await page.click(".monaco-editor .view-lines");
  await page.keyboard.type("/");
  await page.waitForFunction(() => (window as unknown as Hooks).__siglabTest.source().includes("/"));
  const interactiveMs = await page.evaluate(() => performance.now());
  console.log(`page load → app ready: ${readyMs.toFixed(0)} ms after navigation start`);
  console.log(`page load → interactive editor (typed key in the model): ${interactiveMs.toFixed(0)} ms after navigation start (harness wall time ${Date.now() - t0} ms incl. browser start)`);

  const idle = await inputLatency(page, 20);
  console.log(`input latency, idle: ${stats(idle)}`);

  await page.click('[data-example="lat_syscall"]');
  await page.waitForSelector('[data-param="iterations"]');
  await page.fill('[data-param="iterations"]', "2000000000");
  await page.dispatchEvent('[data-param="iterations"]', "change");
  await page.click("#run-button");
  await page.waitForFunction(() => /cycles/.test(document.querySelector("#run-status")?.textContent ?? ""), null, { timeout: 60_000 });
  const busy = await inputLatency(page, 40);
  console.log(`input latency during a long run: ${stats(busy)}`);
  const status = await page.textContent("#run-status");
  console.log(`run status while measuring: ${status}`);
  await page.click("#cancel-button");
} finally {
  await s.close();
}
