/**
 * Issue 32 item 8 in Chromium: the sidebar stays tidy. "+ New workload" and an opened link leave a
 * draft only once edited; an unsaved workload can be renamed and deleted from the sidebar; recent
 * experiments of one workload are told apart by their CPUs and variant stacks; a reload reopens
 * the document that was open.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { encodeShare } from "../src/renderer/state/share.js";
import { openSession, runAndWait, screenshot, selectCpus, type Session } from "./harness.js";

let s: Session;
let page: Page;

/** Draft keys saved in the workspace ("new:untitled-…"). */
function drafts(): string[] {
  try {
    return readdirSync(path.join(s.workspace, "drafts")).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5).replace("__", ":")).sort();
  } catch {
    return [];
  }
}

const openKey = (p: Page): Promise<string | null> => p.getAttribute("#doc-title", "data-key");

async function reload(p: Page): Promise<void> {
  await p.reload();
  await p.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
}

async function newWorkload(p: Page): Promise<string> {
  const before = await openKey(p);
  await p.click('button[aria-label="New workload"]');
  await p.waitForFunction((b) => { const k = document.querySelector("#doc-title")?.getAttribute("data-key"); return k?.startsWith("new:") && k !== b; }, before);
  return (await openKey(p))!;
}

/** Types at the end of the open document (a real edit). */
async function edit(p: Page, text: string): Promise<void> {
  await p.click(".monaco-editor .view-lines");
  await p.keyboard.press("ControlOrMeta+End");
  await p.keyboard.type(text);
}

beforeAll(async () => {
  s = await openSession();
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

describe("issue 32 item 8: drafts, renaming, recent experiments, the open document", () => {
  it("makes a draft of a new workload only once it is edited", async () => {
    const key = await newWorkload(page);
    await page.waitForTimeout(1_500); // past the autosave delay
    expect(drafts()).not.toContain(key);
    await edit(page, "\n// mine\n");
    await page.waitForFunction((k) => document.body.dataset.autosaved === k, key, { timeout: 10_000 });
    expect(drafts()).toContain(key);
    await page.waitForSelector(`[data-draft="${key}"]`);
  });

  it("opens a link without leaving a draft, and a reload reopens it", async () => {
    const source = `import { workload } from "siglab";\nexport default workload({ name: "linked", params: { n: 3 }, *main(t, { n }) { for (let i = 0; i < n; i++) yield* t.getpid(); } });\n`;
    const fragment = await encodeShare({ name: "linked", source, config: { cpus: [{ id: "p4-northwood", mhz: 2200 }], stacks: [[]], params: {}, seed: 1 } });
    const before = drafts();
    await page.evaluate((f) => (location.hash = f), fragment);
    await page.waitForFunction(() => document.body.dataset.linkOpened);
    const key = (await openKey(page))!;
    expect(key).toMatch(/^new:linked-shared-/);
    await page.waitForTimeout(1_500);
    expect(drafts()).toEqual(before);
    await reload(page);
    expect(await openKey(page)).toBe(key);
    expect(await page.evaluate(() => (window as unknown as { __siglabTest: { source(): string } }).__siglabTest.source())).toBe(source);
    expect(drafts()).toEqual(before);
  });

  it("renames and deletes an unsaved workload from the sidebar, and a reload agrees", async () => {
    const key = await newWorkload(page);
    await edit(page, "\n// to be renamed\n");
    await page.waitForFunction((k) => document.body.dataset.autosaved === k, key, { timeout: 10_000 });
    await page.click(`[data-rename="${key}"]`);
    await page.fill(".modal input", "sig-study");
    await page.click('[data-testid="modal-ok"]');
    await page.waitForSelector('[data-draft="new:sig-study"]');
    expect(await openKey(page)).toBe("new:sig-study");
    expect(await page.textContent("#doc-title")).toBe("sig-study (unsaved)");
    expect(drafts()).toContain("new:sig-study");
    expect(drafts()).not.toContain(key);
    await screenshot(page, "32-08-renamed-draft");
    await reload(page);
    expect(await openKey(page)).toBe("new:sig-study");
    expect(await page.evaluate(() => (window as unknown as { __siglabTest: { source(): string } }).__siglabTest.source())).toMatch(/\/\/ to be renamed/);
    await page.click('[data-delete="new:sig-study"]');
    await page.click('[data-testid="modal-ok"]');
    await page.waitForSelector('[data-draft="new:sig-study"]', { state: "detached" });
    expect(drafts()).not.toContain("new:sig-study");
    await reload(page);
    expect(await page.locator('[data-draft="new:sig-study"]').count()).toBe(0);
  });

  it("tells recent experiments of one workload apart by their CPUs and variant stacks", async () => {
    await page.click('[data-example="lat_syscall"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "example:lat_syscall");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    const it = page.locator('[data-param="iterations"]');
    await it.fill("50");
    await it.dispatchEvent("change");
    await selectCpus(page, ["p4-northwood"]);
    await runAndWait(page);
    await selectCpus(page, ["p6-coppermine"]);
    await runAndWait(page);
    const entries = (await page.locator("[data-recent]").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
    expect(entries.length).toBeGreaterThanOrEqual(2);
    expect(new Set(entries).size).toBe(entries.length);
    expect(entries.some((t) => /P4 2\.2 GHz · baseline/.test(t))).toBe(true);
    expect(entries.some((t) => /PIII \d/.test(t))).toBe(true);
  });

  it("reopens the open document after a reload: an example, then a workload of the user's", async () => {
    await page.click('[data-example="lat_ctx"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "example:lat_ctx");
    await reload(page);
    expect(await openKey(page)).toBe("example:lat_ctx");
    await page.click("#save-as-mine");
    await page.fill(".modal input", "ctx_mine.ts");
    await page.click('[data-testid="modal-ok"]');
    await page.waitForFunction(() => document.querySelector("#doc-title")?.getAttribute("data-key") === "user:ctx_mine.ts");
    await reload(page);
    expect(await openKey(page)).toBe("user:ctx_mine.ts");
  });
});
