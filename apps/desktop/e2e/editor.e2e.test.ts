/**
 * Issue 32 item 1 in Chromium: the editor keeps accepting user-written workloads after an example
 * was opened and after a run refused for a typo. (Monaco turned the workload API's declarations
 * into a second file of its TypeScript worker, under another spelling of the same URI, when a
 * diagnostic pointed into them: `workload()` then had two identical overloads and every error
 * inside `main` became "No overload matches this call" at `*main`.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { markers, newWorkload, openSession, runAndWait, type Session } from "./harness.js";

let s: Session;
let page: Page;

type Hooks = { setSource(t: string): void; workloadDeclarations(): Promise<string[]> };

/** Clicks Run; resolves with the status line once the run ended or was refused. */
async function runOrRefusal(p: Page): Promise<string> {
  const before = await p.evaluate(() => `${document.body.dataset.runsFinished ?? 0}|${document.body.dataset.refused ?? 0}`);
  await p.click("#run-button");
  await p.waitForFunction((b) => `${document.body.dataset.runsFinished ?? 0}|${document.body.dataset.refused ?? 0}` !== b, before, { timeout: 90_000 });
  return (await p.textContent("#run-status")) ?? "";
}

/** The template of "+ New workload" with a typo (`t.kil`) on line 18. */
const TYPO_AT_18 = `import { workload, SIGUSR1 } from "siglab";

// a workload of my own: the signal round trip, and a helper below

function* roundTrip(t: import("siglab").Thread, n: number) {
  for (let i = 0; i < n; i++) yield* t.kill(t.pid, SIGUSR1);
}

export default workload({
  name: "typo at line 18",
  params: { iterations: 100 },
  *main(t, { iterations }) {
    yield* t.sigaction(SIGUSR1, function* (h) {
      h.report("in handler", 1, "count");
    }, { flags: 0 });
    const start = t.rdtsc();
    yield* roundTrip(t, iterations);
    yield* t.kil(t.pid, SIGUSR1);
    t.report("signal round trip", (t.rdtsc() - start) / iterations, "cycles");
  },
});
`;

beforeAll(async () => {
  s = await openSession();
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

describe("issue 32 item 1: the editor keeps accepting user-written workloads", () => {
  it("runs a new workload's untouched template after an example was opened", async () => {
    await page.click('button[aria-label="New workload"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key")?.startsWith("new:"));
    expect(await runAndWait(page)).toMatch(/^Done: 1 run /);
    for (const id of ["lat_ctx", "sa_nofp_hazard"]) {
      await page.click(`[data-example="${id}"]`);
      await page.waitForFunction((k) => document.querySelector("#doc-title")?.getAttribute("data-key") === k, `example:${id}`);
      // the example's own markers (Monaco asks the TS worker about every open model)
      await page.waitForTimeout(1500);
    }
    await page.click('button[aria-label="New workload"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key")?.startsWith("new:"));
    expect(await runOrRefusal(page)).toMatch(/^Done: 1 run /);
    expect(await page.locator(".run-error.refusal").count()).toBe(0);
  });

  it("reports a typo on its own line, and accepts the corrected workload without a reload", async () => {
    await newWorkload(page, TYPO_AT_18);
    expect(await runOrRefusal(page)).toBe("Not run: type error at line 18:14");
    expect(await page.locator(".run-error.refusal").textContent()).toMatch(/Type error at untitled-[a-z0-9]+\.ts:18:14: Property 'kil' does not exist on type 'Thread'/);
    // the editor still knows the API: one squiggle, on the typo, and `t` is a Thread
    await page.waitForFunction(() => (window as unknown as { __siglabTest: { markers(): { startLineNumber: number }[] } }).__siglabTest.markers().some((m) => m.startLineNumber === 18), null, { timeout: 20_000 });
    const shown = (await markers(page)).filter((m) => m.severity === 8);
    expect(shown.map((m) => [m.startLineNumber, m.message.split("\n")[0]])).toEqual([[18, "Property 'kil' does not exist on type 'Thread'. Did you mean 'kill'?"]]);
    expect((await markers(page)).some((m) => /Overload|implicitly has an 'any'/.test(m.message))).toBe(false);
    await page.evaluate((t) => (window as unknown as { __siglabTest: Hooks }).__siglabTest.setSource(t), TYPO_AT_18.replace("t.kil(", "t.kill("));
    expect(await runOrRefusal(page)).toMatch(/^Done: 1 run /);
    // one set of the API's declarations in the TypeScript worker, whatever Monaco opened
    expect(await page.evaluate(() => (window as unknown as { __siglabTest: Hooks }).__siglabTest.workloadDeclarations())).toHaveLength(1);
  });
});
