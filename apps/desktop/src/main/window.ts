/** The main window: its security-relevant options live in one pure function the tests assert. */
import { BrowserWindow, type BrowserWindowConstructorOptions } from "electron";
import { APP_ORIGIN } from "../common/host-api.js";
import { hardenWebContents } from "./security.js";

export const RENDERER_URL = `${APP_ORIGIN}/index.html`;

export function mainWindowOptions(preloadPath: string, platform: NodeJS.Platform = process.platform): BrowserWindowConstructorOptions {
  return {
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title: "SigLab",
    show: false,
    backgroundColor: "#1e1e1e",
    ...(platform === "darwin" ? { titleBarStyle: "default" as const } : {}),
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
    },
  };
}

export function createMainWindow(preloadPath: string): BrowserWindow {
  const win = new BrowserWindow(mainWindowOptions(preloadPath));
  hardenWebContents(win.webContents);
  win.once("ready-to-show", () => win.show());
  void win.loadURL(RENDERER_URL);
  return win;
}
