/**
 * Issue 32 item 9 in Chromium: sharing says what it needs and works where it can. "Open in
 * Perfetto" hands the trace to ui.perfetto.dev through Perfetto's postMessage API (a stand-in
 * page answers at that origin: the test machine has no network); a short link kept by the server
 * opens in another browser profile once that profile has the session, and a page opened without
 * the session says what it needs instead of a token error. (Downloads of exports and bundles are
 * checked where they are made: app.e2e and summary.e2e.)
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_ARGS, openExample, openSession, runAndWait, selectCpus, setParam, type Session } from "./harness.js";

let s: Session;
let page: Page;

beforeAll(async () => {
  s = await openSession();
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

/** What a stand-in for ui.perfetto.dev received, as Perfetto's documented handshake delivers it. */
const PERFETTO_STAND_IN = `<!doctype html><title>stand-in</title><script>
window.addEventListener("message", (e) => {
  if (e.data === "PING") { if (e.source === window.opener) window.opener.postMessage("PONG", "*"); return; }
  const p = e.data && e.data.perfetto;
  if (p) window.__got = { origin: e.origin, title: p.title, fileName: p.fileName, text: new TextDecoder().decode(p.buffer) };
});
</script>`;

describe("sharing", () => {
  it("opens the runs' timelines in ui.perfetto.dev through its postMessage API", async () => {
    await s.context.route("https://ui.perfetto.dev/**", (route) => route.fulfill({ status: 200, contentType: "text/html", body: PERFETTO_STAND_IN }));
    await openExample(page, "lat_sig_catch");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await setParam(page, "iterations", "30");
    await selectCpus(page, ["p4-northwood"]);
    await page.locator(".run-config label", { hasText: "Record per-task timeline" }).locator("input").check();
    expect(await runAndWait(page)).toMatch(/^Done: 1 run /);
    const [tab] = await Promise.all([s.context.waitForEvent("page"), page.click("#open-perfetto")]);
    await tab.waitForFunction(() => (window as unknown as { __got?: unknown }).__got !== undefined, null, { timeout: 20_000 });
    const got = await tab.evaluate(() => (window as unknown as { __got: { origin: string; title: string; fileName: string; text: string } }).__got);
    expect(got.origin).toBe(new URL(s.server.url).origin);
    expect(got.fileName).toBe("lat_sig_catch.trace.json");
    expect(got.title).toBe("SigLab: lat_sig_catch");
    const trace = JSON.parse(got.text) as { traceEvents: { ph: string }[]; otherData: Record<string, string> };
    expect(trace.otherData["generator"]).toBe("SigLab");
    expect(trace.traceEvents.filter((e) => e.ph === "X").length).toBeGreaterThan(30);
    await page.waitForFunction(() => document.body.dataset.perfetto === "opened");
    await tab.close();
    await s.context.unroute("https://ui.perfetto.dev/**");
  });

  it("copies a short link that another browser profile opens once it has the session, and says what a page without it needs", async () => {
    await openExample(page, "lat_ctx");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await setParam(page, "__seed", "77");
    await page.click("#copy-short-link");
    await page.waitForFunction(() => /#s=/.test((window as unknown as { __siglabTest: { shareLink(): string } }).__siglabTest.shareLink()));
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const origin = new URL(s.server.url).origin;
    expect(link).toMatch(new RegExp(`^${origin.replace(/\./g, "\\.")}/#s=[A-Za-z0-9_-]{16}$`));
    const id = link.slice(link.indexOf("#s=") + 3);
    expect(existsSync(path.join(s.workspace, "links", `${id}.link`))).toBe(true);
    // the same experiment again: the same short link, nothing more kept
    const copies = (): Promise<number> => page.evaluate(() => Array.from(document.querySelectorAll(".toast")).filter((t) => /^Short link copied/.test(t.textContent ?? "")).length);
    const before = await copies();
    await page.click("#copy-short-link");
    await page.waitForFunction((n) => Array.from(document.querySelectorAll(".toast")).filter((t) => /^Short link copied/.test(t.textContent ?? "")).length > n, before);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(readdirSync(path.join(s.workspace, "links"))).toEqual([`${id}.link`]);

    // another browser profile: no session cookie yet
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    try {
      const other = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
      await other.goto(link);
      const fatal = other.locator("pre.fatal");
      await fatal.waitFor({ timeout: 30_000 });
      const text = (await fatal.textContent()) ?? "";
      expect(text).toMatch(/needs its session: open the address `siglab serve` printed/);
      expect(text).toContain(`#s=${id}`);
      expect(text).not.toMatch(/missing or wrong session token/);
      // the printed address with the link's fragment: the session, then the experiment
      await other.goto(`${s.server.url}#s=${id}`);
      await other.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
      await other.waitForFunction(() => document.body.dataset.linkOpened, null, { timeout: 20_000 });
      expect(await other.evaluate(() => (window as unknown as { __siglabTest: { runConfig(): { seed: number } } }).__siglabTest.runConfig().seed)).toBe(77);
      // an id this server does not keep: one clear message
      await other.goto(`${origin}/#s=${"A".repeat(16)}`);
      const msg = other.locator('.modal[aria-label="Cannot open this link"]');
      await msg.waitFor({ timeout: 30_000 });
      expect(await msg.textContent()).toMatch(/not kept by this SigLab/);
    } finally {
      await browser.close();
    }
    expect(s.errors).toEqual([]);
  });
});
