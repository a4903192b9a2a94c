/** A recording stand-in for the parts of `electron` the main process uses (the binary is not available here). */
import { vi } from "vitest";

export interface FakeWebContents {
  handlers: Record<string, ((...a: unknown[]) => void)[]>;
  windowOpenHandler?: (d: { url: string }) => { action: string };
  on(ev: string, fn: (...a: unknown[]) => void): FakeWebContents;
  setWindowOpenHandler(fn: (d: { url: string }) => { action: string }): void;
  emit(ev: string, ...a: unknown[]): void;
}

export function fakeWebContents(): FakeWebContents {
  const wc: FakeWebContents = {
    handlers: {},
    on(ev, fn) {
      (wc.handlers[ev] ??= []).push(fn);
      return wc;
    },
    setWindowOpenHandler(fn) {
      wc.windowOpenHandler = fn;
    },
    emit(ev, ...a) {
      for (const fn of wc.handlers[ev] ?? []) fn(...a);
    },
  };
  return wc;
}

export const electronState = {
  windows: [] as { options: Record<string, unknown>; loaded: string[]; webContents: FakeWebContents }[],
  openedExternal: [] as string[],
  ipcHandlers: new Map<string, (...a: unknown[]) => unknown>(),
};

export function electronMockFactory() {
  class BrowserWindow {
    webContents = fakeWebContents();
    loaded: string[] = [];
    constructor(readonly options: Record<string, unknown>) {
      electronState.windows.push({ options, loaded: this.loaded, webContents: this.webContents });
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    once() {}
    on() {}
    show() {}
  }
  return {
    BrowserWindow,
    shell: { openExternal: vi.fn(async (url: string) => void electronState.openedExternal.push(url)) },
    ipcMain: { handle: (ch: string, fn: (...a: unknown[]) => unknown) => electronState.ipcHandlers.set(ch, fn) },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    app: { getVersion: () => "0.1.0", getPath: () => "/tmp" },
    dialog: { showOpenDialog: vi.fn(), showSaveDialog: vi.fn() },
    Menu: { buildFromTemplate: vi.fn(), setApplicationMenu: vi.fn() },
    session: {},
  };
}
