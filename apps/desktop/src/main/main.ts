/**
 * Electron main process: owns files and OS integration (workspace, plugin folder, dialogs, menus,
 * bundles opened from the OS). The renderer reaches it only through the preload's host API.
 */
import path from "node:path";
import { app, BrowserWindow, ipcMain, Menu, session } from "electron";
import { IPC_EVENT_CHANNEL, type HostEvent } from "../common/host-api.js";
import { HostService, readBundleFile } from "../node/host-service.js";
import { defaultWorkspaceDir, Workspace } from "../node/workspace.js";
import { electronHostUi } from "./dialogs.js";
import { registerIpc } from "./ipc.js";
import { buildMenuTemplate } from "./menu.js";
import { registerAppScheme, serveRenderer } from "./protocol.js";
import { denyAllPermissions } from "./security.js";
import { createMainWindow } from "./window.js";

const distDir = path.resolve(__dirname, "..");
let mainWindow: BrowserWindow | null = null;
const pendingBundles: string[] = [];

function send(event: HostEvent): void {
  mainWindow?.webContents.send(IPC_EVENT_CHANNEL, event);
}

function bundleArgs(argv: string[]): string[] {
  return argv.filter((a) => a.toLowerCase().endsWith(".siglab"));
}

async function openBundle(file: string): Promise<void> {
  if (!mainWindow) {
    pendingBundles.push(file);
    return;
  }
  try {
    send({ type: "open-bundle", file: await readBundleFile(file) });
  } catch (err) {
    console.error(`siglab: cannot open ${file}: ${(err as Error).message}`);
  }
}

registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on("second-instance", (_e, argv) => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
    for (const f of bundleArgs(argv)) void openBundle(f);
  });
  // macOS delivers file-association opens here, possibly before "ready".
  app.on("open-file", (event, file) => {
    event.preventDefault();
    void openBundle(file);
  });
  pendingBundles.push(...bundleArgs(process.argv.slice(1)));

  void app.whenReady().then(async () => {
    denyAllPermissions(session.defaultSession);
    serveRenderer(path.join(distDir, "renderer"));
    const ws = new Workspace(defaultWorkspaceDir(), process.env.SIGLAB_PLUGIN_DIR);
    await ws.ensure();
    const service = new HostService(ws, electronHostUi(() => mainWindow, () => send({ type: "plugins-changed" })), undefined, { rendererDir: path.join(distDir, "renderer") });
    registerIpc(ipcMain, service.handlers());
    Menu.setApplicationMenu(Menu.buildFromTemplate(buildMenuTemplate(process.platform, (command) => send({ type: "menu", command }))));
    const open = (): void => {
      mainWindow = createMainWindow(path.join(distDir, "preload", "preload.cjs"));
      mainWindow.on("closed", () => (mainWindow = null));
      mainWindow.webContents.once("did-finish-load", () => {
        for (const f of pendingBundles.splice(0)) void openBundle(f);
      });
    };
    open();
    app.on("activate", () => {
      if (BrowserWindow.getAllWindows().length === 0) open();
    });
  });

  app.on("window-all-closed", () => {
    if (process.platform !== "darwin") app.quit();
  });
}
