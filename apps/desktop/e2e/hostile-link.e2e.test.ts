/**
 * Issue 30 item 2 in Chromium: a shared link whose workload allocates without end at its top level.
 * Opening it runs nothing (the editor reads the parameters from the text); the page stays
 * responsive; Run ends with a memory-budget error from the allocation meter, the sandbox worker is
 * terminated before the renderer process reaches V8's heap limit, and the app runs the next
 * workload as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { encodeShare } from "../src/renderer/state/share.js";
import { clickLatency, newWorkload, openSession, runAndWait, shownResults, type Session } from "./harness.js";

let s: Session;
let page: Page;
let crashed = false;

const HOSTILE = `import { workload } from "siglab";
const keep: number[][] = [];
for (;;) keep.push(new Array(1 << 20).fill(1.5));
export default workload({
  name: "allocates at load",
  params: { rounds: 3 },
  *main(t, { rounds }) {
    for (let i = 0; i < rounds; i++) yield* t.getpid();
  },
});
`;

type Hooks = { sandboxRequests?(): number };
/** Requests sent to sandbox workers so far (-1 where the page cannot tell). */
const sandboxRequests = (p: Page): Promise<number> => p.evaluate(() => (window as unknown as { __siglabTest: Hooks }).__siglabTest.sandboxRequests?.() ?? -1);

beforeAll(async () => {
  s = await openSession();
  page = s.page;
  page.on("crash", () => (crashed = true));
  // eight runs at a time share a process's heap: 384 MiB each, reached in a second or two even on a
  // loaded machine (the module's 5 s budget must not come first)
  await page.evaluate(() => localStorage.setItem("siglab.sweep-workers", "8"));
});
afterAll(async () => {
  await s?.close();
});

describe("issue 30 item 2: a link with a hostile top level", () => {
  it("opens without running anything, and Run ends with a memory-budget error while the page stays responsive", async () => {
    const fragment = await encodeShare({ name: "hostile", source: HOSTILE, config: { cpus: [{ id: "p4-northwood", mhz: 2200 }], stacks: [[]], params: {}, seed: 1 } });
    const before = await sandboxRequests(page);
    await page.evaluate((f) => (location.hash = f), fragment);
    await page.waitForFunction(() => document.body.dataset.linkOpened);
    // the parameters come from the text
    await page.waitForSelector('[data-param="rounds"]', { timeout: 20_000 });
    expect(await page.inputValue('[data-param="rounds"]')).toBe("3");
    await page.waitForTimeout(1_500);
    expect(await sandboxRequests(page)).toBe(before);
    expect(await page.locator("#inspect-status").isHidden()).toBe(true);
    expect(await clickLatency(page)).toBeLessThan(1_000);

    const status = await runAndWait(page, 60_000);
    expect(crashed).toBe(false);
    expect(status).toMatch(/^Failed: the run \(Budget exceeded\)/);
    const [r] = await shownResults(page);
    expect(r!.error?.kind).toBe("budget");
    expect(r!.error?.message).toMatch(/memory budget exceeded: the code allocated about [\d,]+ MiB, over the limit of 384 MiB/);
    expect(await clickLatency(page)).toBeLessThan(1_000);

    // the next workload runs in a fresh sandbox worker
    await newWorkload(page, HOSTILE.replace("for (;;) keep.push(new Array(1 << 20).fill(1.5));", "keep.push([1]);"));
    expect(await runAndWait(page)).toMatch(/^Done: 1 run /);
  });
});
