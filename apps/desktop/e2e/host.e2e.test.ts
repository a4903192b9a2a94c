/**
 * The app's execution host in Chromium: core's Supervisor over Web Workers (sim.worker.ts). Runaway
 * workloads are stopped from outside by the module budget (a loop at the top level, which runs only
 * at Run: the editor reads parameters from the text) and by the run's host-time budget (a main that
 * never yields), with one-line messages, while the UI keeps answering. Also measures the sandbox
 * worker's start.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { clickLatency, hostReset, hostRun, newWorkload, openSession, runAndWait, screenshot, selectCpus, shownResults, workerStarts, type Session } from "./harness.js";

let s: Session;
let page: Page;

beforeAll(async () => {
  s = await openSession();
  page = s.page;
  await selectCpus(page, ["p4-northwood"]);
});
afterAll(async () => {
  await s?.close();
});

const NORMAL = `import { workload } from "siglab";
export default workload({
  name: "normal",
  params: { iterations: 100 },
  *main(t, { iterations }) {
    const s = t.rdtsc();
    for (let i = 0; i < iterations; i++) yield* t.getpid();
    t.report("getpid", (t.rdtsc() - s) / iterations, "cycles");
  },
});
`;

describe("runaway workloads in the app's execution host", () => {
  it("runs nothing of a for(;;){} typed at a workload's top level until Run, which stops it at the module budget with one line; the UI stays usable", async () => {
    await newWorkload(page, NORMAL);
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    // type the runaway into the editor: its parameters are read from the text, nothing runs
    await page.click(".monaco-editor .view-lines");
    await page.keyboard.press("ControlOrMeta+A");
    const requests = await page.evaluate(() => (window as unknown as { __siglabTest: { sandboxRequests(): number } }).__siglabTest.sandboxRequests());
    await page.keyboard.insertText(`import { workload } from "siglab";\nfor (;;) {}\nexport default workload({ name: "spins at load", params: { n: 1 }, *main(t) { yield* t.getpid(); } });\n`);
    await page.waitForSelector('[data-param="n"]', { timeout: 20_000 });
    expect(await page.evaluate(() => (window as unknown as { __siglabTest: { sandboxRequests(): number } }).__siglabTest.sandboxRequests())).toBe(requests);
    expect(await clickLatency(page)).toBeLessThan(1_000);
    const t0 = Date.now();
    const status = await runAndWait(page, 30_000);
    const elapsed = Date.now() - t0;
    const text = (await page.locator(".run-error").first().textContent()) ?? "";
    console.log(`top-level loop: budget message after ${elapsed} ms: ${text}`);
    expect(status).toMatch(/^Failed: the run \(Budget exceeded\)/);
    expect(elapsed).toBeLessThan(9_000);
    expect(text).toMatch(/module evaluation stopped after 5 s of host time/);
    expect(text).not.toMatch(/\n/);
    expect(await clickLatency(page)).toBeLessThan(1_000);
    await screenshot(page, "10-top-level-loop");
    // a normal workload afterwards: parameters are read again and it runs
    await page.click(".monaco-editor .view-lines");
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.insertText(NORMAL);
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await page.waitForSelector("#inspect-status", { state: "hidden" });
    expect(await runAndWait(page)).toMatch(/Done: 1 run/);
    expect((await shownResults(page))[0]!.error).toBeUndefined();
  });

  it("stops a main that never yields on the run's max seconds, keeps the UI answering, and draws no charts", async () => {
    await newWorkload(page, `import { workload } from "siglab";\nexport default workload({ name: "spins in main", params: {}, *main(t) {\n  yield* t.getpid();\n  for (;;) {}\n} });\n`);
    const max = page.locator('[data-param="__maxSeconds"]');
    await max.fill("2");
    await max.dispatchEvent("change");
    const t0 = Date.now();
    await page.click("#run-button");
    await page.waitForFunction(() => document.body.dataset.running === "true");
    await page.waitForTimeout(700);
    const latency = await clickLatency(page);
    expect(latency).toBeLessThan(1_000);
    await page.waitForFunction(() => document.body.dataset.running === "false", null, { timeout: 20_000 });
    const elapsed = Date.now() - t0;
    console.log(`main loop: stopped after ${elapsed} ms (budget 2 s, inspection first); a click took ${latency} ms during the run`);
    expect(await page.textContent("#run-status")).toMatch(/^Failed: the run \(Budget exceeded\) in /);
    const err = page.locator('.run-error[data-kind="budget"]');
    await err.waitFor();
    expect(await err.textContent()).toMatch(/stopped after 2 s of host time \(the run's budget: "max seconds per run" in the run configuration\)/);
    const r = (await shownResults(page))[0]!;
    expect(r.error).toMatchObject({ kind: "budget" });
    expect(await page.locator("canvas[data-chart]").count()).toBe(0);
    expect(await page.textContent(".results-body")).toMatch(/nothing to chart/);
    await screenshot(page, "11-run-budget");
    await max.fill("");
    await max.dispatchEvent("change");
  });

  it("Cancel during a runaway stops it at once; the next run gets a fresh sandbox", async () => {
    await page.click(".monaco-editor .view-lines");
    await page.click("#run-button");
    await page.waitForFunction(() => document.body.dataset.running === "true");
    await page.waitForTimeout(500);
    const t0 = Date.now();
    await page.click("#cancel-button");
    await page.waitForFunction(() => document.body.dataset.running === "false", null, { timeout: 5_000 });
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(await page.textContent("#run-status")).toMatch(/Cancelled/);
    await page.click(".monaco-editor .view-lines");
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.insertText(NORMAL);
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    expect(await runAndWait(page)).toMatch(/Done: 1 run/);
  });

  it("refuses an experiment that expands to more than 10,000 runs, before running any", async () => {
    await newWorkload(page, NORMAL);
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    const sweep = page.locator(".run-config label", { hasText: "Sweep one parameter" }).locator("input");
    await sweep.check();
    await page.selectOption('select[aria-label="Sweep parameter"]', "iterations");
    await page.fill('input[aria-label="Sweep values"]', Array.from({ length: 10_001 }, (_, i) => i + 1).join(","));
    await page.dispatchEvent('input[aria-label="Sweep values"]', "change");
    const before = (await workerStarts(page)).length;
    await page.click("#run-button");
    const toast = page.locator(".toast", { hasText: "over the limit" });
    await toast.waitFor({ timeout: 10_000 });
    expect(await toast.textContent()).toMatch(/the experiment expands to 10,001 runs \(1 CPUs x 1 variant stacks x 10001 sweep values\), over the limit of 10,000 runs$/);
    await page.waitForFunction(() => document.body.dataset.running === "false");
    expect(await page.textContent("#run-status")).toBe("Failed");
    expect((await workerStarts(page)).length).toBe(before);
    await sweep.uncheck();
  });

  it("measures the sandbox worker's start (lockdown + simulator) in Chromium", async () => {
    const before = (await workerStarts(page)).length;
    const config = { workload: { id: "normal", file: "workloads/normal.ts", source: NORMAL }, cpus: [{ id: "p4-northwood", mhz: 2200 }], stacks: [[]], params: { iterations: 10 }, seed: 1 };
    for (let i = 0; i < 5; i++) {
      await hostReset(page);
      const [r] = await hostRun(page, config);
      expect(r!.error).toBeUndefined();
    }
    const all = await workerStarts(page);
    const fresh = all.slice(before).sort((a, b) => a - b);
    console.log(`sandbox worker start to ready (ms): all ${JSON.stringify(all)}; 5 idle starts sorted ${JSON.stringify(fresh)}, median ${fresh[2]}`);
    expect(fresh).toHaveLength(5);
    expect(fresh[2]).toBeLessThan(2_000);
  });

  it("logged no errors to the console", () => {
    expect(s.errors).toEqual([]);
  });
});
