import { beforeEach, describe, expect, it, vi } from "vitest";
import { electronMockFactory, electronState } from "./electron-mock.js";

vi.mock("electron", () => electronMockFactory());

const { createMainWindow, mainWindowOptions, RENDERER_URL } = await import("../src/main/window.js");

describe("main window", () => {
  beforeEach(() => {
    electronState.windows.length = 0;
    electronState.openedExternal.length = 0;
  });

  it("turns on every security flag of the Electron checklist", () => {
    const wp = mainWindowOptions("/app/preload.cjs").webPreferences!;
    expect(wp.contextIsolation).toBe(true);
    expect(wp.sandbox).toBe(true);
    expect(wp.nodeIntegration).toBe(false);
    expect(wp.nodeIntegrationInWorker).toBe(false);
    expect(wp.nodeIntegrationInSubFrames).toBe(false);
    expect(wp.webSecurity).toBe(true);
    expect(wp.allowRunningInsecureContent).toBe(false);
    expect(wp.webviewTag).toBe(false);
    expect(wp.preload).toBe("/app/preload.cjs");
  });

  it("loads the renderer through the siglab:// protocol, never file://", () => {
    createMainWindow("/app/preload.cjs");
    const w = electronState.windows[0]!;
    expect(w.loaded).toEqual([RENDERER_URL]);
    expect(RENDERER_URL.startsWith("siglab://app/")).toBe(true);
    expect((w.options.webPreferences as Record<string, unknown>).sandbox).toBe(true);
  });

  it("refuses navigation away from the app and denies new windows", () => {
    createMainWindow("/app/preload.cjs");
    const wc = electronState.windows[0]!.webContents;
    const nav = (url: string): boolean => {
      const ev = { prevented: false, preventDefault() { this.prevented = true; } };
      wc.emit("will-navigate", ev, url);
      return ev.prevented;
    };
    expect(nav("https://evil.example/")).toBe(true);
    expect(nav("file:///etc/passwd")).toBe(true);
    expect(nav("siglab://app/index.html")).toBe(false);
    const webview = { prevented: false, preventDefault() { this.prevented = true; } };
    wc.emit("will-attach-webview", webview);
    expect(webview.prevented).toBe(true);
  });

  it("opens only validated https links externally, and always denies the window", async () => {
    createMainWindow("/app/preload.cjs");
    const open = electronState.windows[0]!.webContents.windowOpenHandler!;
    expect(open({ url: "https://lkml.org/lkml/2002/2/26/141" })).toEqual({ action: "deny" });
    expect(open({ url: "javascript:alert(1)" })).toEqual({ action: "deny" });
    expect(open({ url: "http://example.com/" })).toEqual({ action: "deny" });
    expect(open({ url: "https://user:pw@example.com/" })).toEqual({ action: "deny" });
    await Promise.resolve();
    expect(electronState.openedExternal).toEqual(["https://lkml.org/lkml/2002/2/26/141"]);
  });
});
