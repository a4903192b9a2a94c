import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { electronMockFactory } from "./electron-mock.js";

vi.mock("electron", () => electronMockFactory());

const { createProtocolHandler } = await import("../src/main/protocol.js");
const { buildMenuTemplate } = await import("../src/main/menu.js");
const { RENDERER_CSP, SIM_WORKER_CSP } = await import("../src/common/csp.js");

describe("siglab:// protocol handler", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "siglab-proto-"));
  writeFileSync(path.join(dir, "index.html"), "<html></html>");
  mkdirSync(path.join(dir, "workers"));
  writeFileSync(path.join(dir, "workers", "sim.worker-x.js"), "1");
  const handle = createProtocolHandler(dir);

  it("serves files from the renderer folder with the CSP header", async () => {
    const res = await handle(new Request("siglab://app/index.html"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(res.headers.get("content-security-policy")).toBe(RENDERER_CSP);
    const w = await handle(new Request("siglab://app/workers/sim.worker-x.js"));
    expect(w.headers.get("content-security-policy")).toBe(SIM_WORKER_CSP);
  });

  it("refuses other hosts, other methods and traversal", async () => {
    expect((await handle(new Request("siglab://other/index.html"))).status).toBe(404);
    expect((await handle(new Request("siglab://app/%2e%2e/%2e%2e/etc/passwd"))).status).toBe(404);
    expect((await handle(new Request("siglab://app/index.html", { method: "POST", body: "x" }))).status).toBe(405);
  });
});

describe("menus", () => {
  const labels = (t: ReturnType<typeof buildMenuTemplate>) => t.map((m) => m.label ?? m.role);

  it("follows macOS conventions: app menu first, window menu, no Exit in File", () => {
    const t = buildMenuTemplate("darwin", () => undefined);
    expect(labels(t)).toEqual(["SigLab", "&File", "&Edit", "&View", "&Run", "windowMenu", "&Help"]);
    const file = t[1]!.submenu as { role?: string }[];
    expect(file.some((i) => i.role === "quit")).toBe(false);
  });

  it("puts File first with Exit on Windows and Linux, and sends commands", () => {
    const sent: string[] = [];
    for (const platform of ["win32", "linux"] as const) {
      const t = buildMenuTemplate(platform, (c) => sent.push(c));
      expect(labels(t)).toEqual(["&File", "&Edit", "&View", "&Run", "&Help"]);
      const file = t[0]!.submenu as { role?: string; label?: string }[];
      expect(file.at(-1)).toMatchObject({ role: "quit", label: "E&xit" });
      const run = (t[3]!.submenu as { accelerator?: string; click?: () => void }[])[0]!;
      expect(run.accelerator).toBe("CmdOrCtrl+Enter");
      run.click!();
    }
    expect(sent).toEqual(["run", "run"]);
  });
});
