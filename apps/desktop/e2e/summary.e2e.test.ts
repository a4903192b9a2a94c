/**
 * Issue 13's remaining app items in Chromium: the "CPUs per machine" control (an SMP run, its ×2
 * labels and per-CPU timeline rows, kept across a reload and carried by a shared link), the
 * Perfetto trace export (a file is written; results without a timeline give a message instead) and
 * the LMbench summary view (µs figures, the calibration figures beside the simulated ones with the
 * error, a probe of this machine as a row of its own).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloaded, openExample, openSession, runAndWait, screenshot, selectCpus, setParam, shownResults, chartInfo, type Session } from "./harness.js";

let s: Session;
let page: Page;

type Hooks = {
  runConfig(): { cpus: { id: string; mhz: number }[]; smp?: number; seed: number };
  shareLink(): string;
  summary: { loadProbe(text: string): string | null; probeHost(): string | null };
};
const runConfig = (p: Page): Promise<ReturnType<Hooks["runConfig"]>> => p.evaluate(() => (window as unknown as { __siglabTest: Hooks }).__siglabTest.runConfig());

const timelineBox = (p: Page) => p.locator(".run-config label", { hasText: "Record per-task timeline" }).locator("input");

beforeAll(async () => {
  s = await openSession();
  page = s.page;
});
afterAll(async () => {
  await s?.close();
});

describe("issue 13: SMP runs, trace export and the LMbench summary in the app", () => {
  it("runs an SMP machine from the CPUs control: ×2 labels, a timeline row per task and CPU, kept across a reload and in a shared link", async () => {
    expect((await runConfig(page)).smp).toBeUndefined();
    expect(await page.inputValue('[data-param="__smp"]')).toBe("1");
    await openExample(page, "lat_pipe");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await setParam(page, "iterations", "40");
    await page.selectOption('[data-param="__smp"]', "2");
    await timelineBox(page).check();
    expect(await runAndWait(page)).toMatch(/^Done: 1 run /);
    const [r] = await shownResults(page);
    expect(r!.error).toBeUndefined();
    expect(r!.cpu).toEqual({ id: "p4-northwood", mhz: 2200, smp: 2 });
    expect(r!.timeline!.some((e) => e.cpu === 1)).toBe(true);
    // lat_pipe names its loop: the bar is the loop over its run's label
    expect((await chartInfo(page, "phases"))!.labels).toEqual(["round trip: write + read,P4 2.2 GHz ×2 · baseline"]);
    expect(await page.textContent('[data-chart-card="timeline:0"] figcaption')).toMatch(/Intel Pentium 4 \(Northwood\) @ 2200 MHz ×2 · baseline/);
    const rows = (await chartInfo(page, "timeline:0"))!;
    expect(rows.yTitle).toBe("task (pid) · CPU it ran on");
    expect(rows.labels.some((l) => / · CPU 1$/.test(l))).toBe(true);
    expect(rows.labels.some((l) => / · CPU 0$/.test(l))).toBe(true);
    await screenshot(page, "13-10-smp-timeline");

    // kept across a reload
    await page.reload();
    await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
    expect((await runConfig(page)).smp).toBe(2);
    expect(await page.inputValue('[data-param="__smp"]')).toBe("2");

    // and carried by a shared link
    await openExample(page, "lat_pipe");
    await page.click("#copy-link");
    await page.waitForFunction(() => (window as unknown as { __siglabTest: Hooks }).__siglabTest.shareLink() !== "");
    const link = await page.evaluate(() => (window as unknown as { __siglabTest: Hooks }).__siglabTest.shareLink());
    await page.selectOption('[data-param="__smp"]', "1");
    expect((await runConfig(page)).smp).toBeUndefined();
    await page.goto(link);
    await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
    await page.waitForFunction(() => document.body.dataset.linkOpened);
    expect((await runConfig(page)).smp).toBe(2);
    await page.selectOption('[data-param="__smp"]', "1");
  });

  it("exports the timeline as a Perfetto trace, and says so instead when the results have no timeline", async () => {
    await openExample(page, "lat_sig_catch");
    await page.waitForSelector('[data-param="iterations"]', { timeout: 20_000 });
    await setParam(page, "iterations", "30");
    await timelineBox(page).check();
    expect(await runAndWait(page)).toMatch(/^Done: 1 run /);
    const file = await downloaded(page, () => page.click("#export-trace"));
    expect(file.name).toBe("lat_sig_catch.trace.json");
    const trace = JSON.parse(file.bytes.toString("utf8")) as { traceEvents: { ph: string; name: string; dur?: number }[]; otherData: Record<string, string> };
    const slices = trace.traceEvents.filter((e) => e.ph === "X");
    expect(slices.length).toBeGreaterThan(30);
    expect(slices.some((e) => /signal|sigreturn|kill/.test(e.name))).toBe(true);
    expect(trace.otherData["generator"]).toBe("SigLab");

    // without a timeline: a message, no file
    await timelineBox(page).uncheck();
    expect(await runAndWait(page)).toMatch(/^Done: 1 run /);
    await page.click("#export-trace");
    const msg = page.locator('.modal[aria-label="No timeline to export"]');
    await msg.waitFor();
    expect(await msg.textContent()).toMatch(/No run of these results recorded a timeline.*Record per-task timeline/);
    await msg.locator("button").click();
    expect(await page.evaluate(() => document.body.dataset.traceRefused)).toBe("1");
    expect(await page.evaluate(() => document.body.dataset.lastExport)).toBe("lat_sig_catch.trace.json (your browser's downloads)");
  });

  it("fills the LMbench summary in µs, with the calibration figures beside the simulated ones and the error, and a probe as its own row", async () => {
    await selectCpus(page, ["p4-northwood", "p6-coppermine"]);
    await page.click('[data-view="summary"]');
    await page.waitForSelector("#summary-view");
    expect(await page.locator("#app > .results").isHidden()).toBe(true);
    await page.locator("#summary-quick").check();
    const before = await page.evaluate(() => Number(document.body.dataset.summaryRuns ?? 0));
    await page.click("#summary-run");
    await page.waitForFunction((n) => Number(document.body.dataset.summaryRuns ?? 0) > n, before, { timeout: 60_000 });
    expect(await page.textContent("#summary-status")).toMatch(/^Done: 5 benchmarks × 2 rows in [\d.]+ s$/);

    const table = page.locator("#summary-table");
    const heads = await table.locator("th.bench").allTextContents();
    expect(heads).toEqual(["Simple syscall (µs)", "Signal handler overhead (µs)", "Protection fault (µs)", "2p/0K ctxsw (µs)", "Pipe latency (µs)"]);
    expect(await table.locator("tbody th.row").allTextContents()).toEqual(["P4 2.2 GHz · baseline", "PIII 733 MHz · baseline"]);
    expect(await table.locator("tbody th.row").first().getAttribute("title")).toBe("Intel Pentium 4 (Northwood) @ 2200 MHz · baseline");
    expect(await table.locator("thead th.sub").first().textContent()).toBe("sim. µs");
    const sims = await table.locator('td[data-kind="simulated"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-us"))));
    expect(sims).toHaveLength(10);
    for (const us of sims) expect(us).toBeGreaterThan(0.05);
    // the cells are the runs' own metrics (µs), row by row
    const results = await page.evaluate(() => document.querySelectorAll('tr[data-row="1"] td[data-kind="simulated"]').length);
    expect(results).toBe(5);

    // measured beside simulated: the P4 2.2 GHz row has lat_sig catch (3.091 µs) and lat_ctx (0.90 µs)
    const p4 = table.locator('tr[data-row="0"]');
    const cell = (row: typeof p4, bench: string, kind: string) => row.locator(`td[data-bench="${bench}"][data-kind="${kind}"]`);
    expect(await cell(p4, "lat_sig_catch", "measured").textContent()).toBe("3.09");
    expect(await cell(p4, "lat_ctx", "measured").textContent()).toBe("0.900");
    for (const bench of ["lat_sig_catch", "lat_ctx"]) {
      const sim = Number(await cell(p4, bench, "simulated").getAttribute("data-us"));
      const measured = Number(await cell(p4, bench, "measured").getAttribute("data-us"));
      const err = Number(await cell(p4, bench, "error").getAttribute("data-error"));
      expect(err).toBeCloseTo(((sim - measured) / measured) * 100, 6);
      expect(await cell(p4, bench, "error").textContent()).toMatch(/^[+−]?\d+\.\d %$/);
    }
    // no measured figure of the PIII, nor of benchmarks without one
    expect(await cell(table.locator('tr[data-row="1"]'), "lat_ctx", "measured").textContent()).toBe("—");
    expect(await table.locator('td[data-bench="lat_syscall"][data-kind="measured"]').count()).toBe(0);
    await screenshot(page, "13-11-lmbench-summary");

    // a probe of this machine: its own row of measured figures
    const probe = { host: { cpuModel: "Test CPU 9000", kernel: "Linux 6.18" }, figures: [
      { id: "lat_syscall_null", name: "Simple syscall", unit: "us", min: 0.9, median: 0.988, max: 1.1 },
      { id: "lat_ctx_2p_0k", name: "Context switch 2p/0K", unit: "us", min: 4, median: 4.124, max: 4.3 },
    ] };
    expect(await page.evaluate((t) => (window as unknown as { __siglabTest: Hooks }).__siglabTest.summary.loadProbe(t), JSON.stringify(probe))).toBeNull();
    const probeRow = table.locator('tr[data-row="probe"]');
    expect(await probeRow.locator("th").textContent()).toBe("This machine, measured: Test CPU 9000, Linux 6.18");
    expect(await page.locator("#summary-probe-vm").count()).toBe(0); // a probe from before host.virtualization: no warning
    expect(await probeRow.locator('td[data-bench="lat_syscall"][data-kind="measured"]').textContent()).toBe("0.988");
    expect(await probeRow.locator('td[data-bench="lat_ctx"][data-kind="measured"]').textContent()).toBe("4.12");
    // no row runs linux-6, so the probe stands beside none until one is chosen
    expect(await page.inputValue("#summary-probe-row")).toBe("");
    expect(await cell(p4, "lat_syscall", "measured").textContent()).toBe("—");
    await page.selectOption("#summary-probe-row", "0");
    expect(await cell(p4, "lat_syscall", "measured").getAttribute("data-source")).toBe("probe");
    expect(await cell(p4, "lat_syscall", "measured").textContent()).toBe("0.988");
    const sys = Number(await cell(p4, "lat_syscall", "simulated").getAttribute("data-us"));
    expect(Number(await cell(p4, "lat_syscall", "error").getAttribute("data-error"))).toBeCloseTo(((sys - 0.988) / 0.988) * 100, 6);
    // the calibration figure stays where the probe has none
    expect(await cell(p4, "lat_sig_catch", "measured").getAttribute("data-source")).toBe("calibration");
    await screenshot(page, "13-12-lmbench-probe");
    // a malformed probe is refused with a message, the loaded one is kept
    const bad = await page.evaluate(() => (window as unknown as { __siglabTest: Hooks }).__siglabTest.summary.loadProbe('{"figures":[{"id":"lat_pipe","unit":"ms","min":1,"median":2,"max":3}]}'));
    expect(bad).toMatch(/expected unit "us"/);
    await page.locator('.modal[aria-label="Probe not loaded"] button').click();
    expect(await page.evaluate(() => (window as unknown as { __siglabTest: Hooks }).__siglabTest.summary.probeHost())).toBe("Test CPU 9000, Linux 6.18");
    await page.click('[data-view="workload"]');
    expect(s.errors).toEqual([]);
  });

  it("issue 16: a probe stands beside linux-6 on its matching profile; \"without page-table isolation\" adds a cheaper row; a what-if the stack refuses says why", async () => {
    await page.click('[data-view="summary"]');
    await page.locator("#summary-quick").check();
    // a Skylake desktop (CPUID family 6 model 0x5E) whose kernel runs PTI
    // measured in a KVM guest: the summary and the panel say the errors are not the model's
    const probe = { host: { cpuModel: "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz", vendor: "GenuineIntel", cpuid: { family: 6, model: 94, stepping: 3 }, kernel: "Linux 6.8.0",
      mitigations: { meltdown: "Mitigation: PTI", mds: "Mitigation: Clear CPU buffers; SMT vulnerable", srbds: "Not affected" },
      virtualization: { virtualized: true, evidence: ["/proc/cpuinfo flags: hypervisor", "/sys/class/dmi/id: sys_vendor \"QEMU\""], hypervisor: "QEMU" } },
    figures: [
      { id: "lat_syscall_null", name: "Simple syscall", unit: "us", min: 0.25, median: 0.27, max: 0.3 },
      { id: "lat_sig_catch", name: "Signal handler overhead", unit: "us", min: 1.1, median: 1.2, max: 1.3 },
      { id: "lat_sig_prot", name: "Protection fault", unit: "us", min: 0.5, median: 0.6, max: 0.7 },
      { id: "lat_ctx_2p_0k", name: "Context switch 2p/0K", unit: "us", min: 1.5, median: 1.6, max: 1.7 },
      { id: "lat_pipe", name: "Pipe latency", unit: "us", min: 4, median: 4.5, max: 5 },
    ] };
    const before = await page.evaluate(() => Number(document.body.dataset.machineRuns ?? 0));
    const t0 = Date.now();
    expect(await page.evaluate((t) => (window as unknown as { __siglabTest: Hooks }).__siglabTest.summary.loadProbe(t), JSON.stringify(probe))).toBeNull();
    const panel = page.locator("#machine-panel");
    expect(await panel.isVisible()).toBe(true);
    expect(await page.textContent("#machine-how")).toMatch(/Intel Skylake.* @ 3600 MHz; matched to the probe's CPU: CPUID family 6 model 94/);
    for (const id of ["#machine-vm", "#summary-probe-vm"]) expect(await page.textContent(id)).toMatch(/^Warning: this machine is a virtual machine \(QEMU\); evidence: \/proc\/cpuinfo flags: hypervisor; .*the errors are not the model's accuracy: the comparison is meant for bare metal \(docs\/modern\.md\)\.$/);
    // the baseline runs by itself on loading (the five examples under linux-6 on skylake)
    await page.waitForFunction((n) => Number(document.body.dataset.machineRuns ?? 0) > n, before, { timeout: 60_000 });
    const table = page.locator("#machine-table");
    const cell = (row: string, bench: string, kind: string) => table.locator(`tr[data-row="${row}"] td[data-bench="${bench}"][data-kind="${kind}"]`);
    expect(await table.locator('tr[data-row="baseline"]').getAttribute("data-state")).toBe("done");
    expect(await cell("measured", "lat_syscall", "measured").textContent()).toBe("0.270");
    const base: Record<string, number> = {};
    for (const b of ["lat_syscall", "lat_sig_catch", "lat_sig_prot", "lat_ctx", "lat_pipe"]) {
      base[b] = Number(await cell("baseline", b, "simulated").getAttribute("data-us"));
      expect(base[b], b).toBeGreaterThan(0.01);
      const measured = Number(await cell("measured", b, "measured").getAttribute("data-us"));
      expect(Number(await cell("baseline", b, "error").getAttribute("data-error"))).toBeCloseTo(((base[b]! - measured) / measured) * 100, 6);
    }
    // the kernel's own mitigation lines are shown, the unaffected ones left out
    expect(await panel.textContent()).toMatch(/meltdown: Mitigation: PTI/);
    expect(await panel.textContent()).not.toMatch(/srbds/);
    // and the baseline's kernel options are read off them (suite host's mapping)
    expect(await page.locator("#machine-kernel").textContent()).toMatch(/pti=on: meltdown: "Mitigation: PTI".*verw=on/);

    // "without page-table isolation": one click, a row with the same five figures, cheaper where the kernel is entered
    const pti = page.locator('button[data-whatif="pti"]');
    expect(await pti.isEnabled()).toBe(true);
    expect(await pti.textContent()).toBe("without page-table isolation");
    await pti.click();
    await page.waitForFunction((n) => Number(document.body.dataset.machineRuns ?? 0) > n + 1, before, { timeout: 60_000 });
    const row = table.locator('tr[data-row="whatif:pti"]');
    expect(await row.getAttribute("data-state")).toBe("done");
    expect(await row.locator("th").textContent()).toBe("… without page-table isolation");
    for (const b of ["lat_syscall", "lat_sig_catch", "lat_sig_prot", "lat_ctx", "lat_pipe"]) {
      const us = Number(await cell("whatif:pti", b, "simulated").getAttribute("data-us"));
      const delta = Number(await cell("whatif:pti", b, "delta").getAttribute("data-delta"));
      expect(delta, b).toBeCloseTo(((us - base[b]!) / base[b]!) * 100, 6);
      // lat_ctx subtracts its overhead loop, which pays the same entries: unchanged but for the last bit
      expect(us, b).toBeLessThanOrEqual(base[b]! * (1 + 1e-12));
    }
    // two CR3 writes fewer per system call: the syscall and the signal round trip are clearly cheaper
    expect(Number(await cell("whatif:pti", "lat_syscall", "delta").getAttribute("data-delta"))).toBeLessThan(-10);
    expect(Number(await cell("whatif:pti", "lat_sig_catch", "delta").getAttribute("data-delta"))).toBeLessThan(-5);
    expect(await cell("whatif:pti", "lat_syscall", "delta").textContent()).toMatch(/^−\d+\.\d %$/);

    // what-ifs that cannot run on this stack are disabled, with the reason as the tooltip
    for (const [id, why] of [["sa-nofp", /no SA_NOFP.*plugins 'linux6' and 'sa-nofp' conflict: both replace the SignalFpuPolicy/], ["lazy-fpu", /no lazy switching code anymore.*'lazy-fpu-frame' conflict/], ["retbleedUntrain", /already off in the baseline/]] as const) {
      const btn = page.locator(`button[data-whatif="${id}"]`);
      expect(await btn.isDisabled(), id).toBe(true);
      expect(await btn.getAttribute("title"), id).toMatch(why);
    }
    expect(await page.locator('button[data-whatif="verw"]').isEnabled()).toBe(true);
    // at 1440×900 nothing of the view is cut sideways (issue 32 item 6): the tables fit its width
    expect(await page.$eval(".summary-view", (e) => e.scrollWidth - e.clientWidth)).toBe(0);
    await screenshot(page, "16-01-your-machine-whatif");
    console.log(`your machine + one what-if: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await page.click('[data-view="workload"]');
    expect(s.errors).toEqual([]);
  });
});
