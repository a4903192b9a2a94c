/** The Electron side of HostUi: native dialogs and the system browser. */
import path from "node:path";
import { app, dialog, shell, type BrowserWindow } from "electron";
import type { HostUi } from "../node/host-service.js";

const FILTERS: Record<string, { name: string; extensions: string[] }> = {
  ".siglab": { name: "SigLab bundle", extensions: ["siglab"] },
  ".csv": { name: "CSV", extensions: ["csv"] },
  ".png": { name: "PNG image", extensions: ["png"] },
  ".svg": { name: "SVG image", extensions: ["svg"] },
  ".json": { name: "JSON", extensions: ["json"] },
  ".siglab-plugin": { name: "SigLab plugin", extensions: ["siglab-plugin"] },
};

export function electronHostUi(getWindow: () => BrowserWindow | null, notifyPluginsChanged: () => void): HostUi {
  const parent = (): BrowserWindow | undefined => getWindow() ?? undefined;
  return {
    kind: "electron",
    appVersion: app.getVersion(),
    // the save dialog asks before replacing an existing file; symlinks and non-regular files are still refused
    overwriteConfirmed: true,
    async choosePluginFolder() {
      const opts = { title: "Install SigLab plugin from folder", properties: ["openDirectory" as const] };
      const win = parent();
      const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0]!;
    },
    async choosePluginArchive() {
      const opts = { title: "Install SigLab plugin from file", properties: ["openFile" as const], filters: [FILTERS[".siglab-plugin"]!] };
      const win = parent();
      const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0]!;
    },
    async chooseSavePath(suggestedName) {
      const filter = FILTERS[path.extname(suggestedName)];
      const opts = {
        defaultPath: path.join(app.getPath("documents"), suggestedName),
        ...(filter ? { filters: [filter] } : {}),
      };
      const win = parent();
      const r = win ? await dialog.showSaveDialog(win, opts) : await dialog.showSaveDialog(opts);
      return r.canceled || !r.filePath ? null : r.filePath;
    },
    async chooseBundleToOpen() {
      const opts = { title: "Open SigLab bundle", properties: ["openFile" as const], filters: [FILTERS[".siglab"]!] };
      const win = parent();
      const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts);
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0]!;
    },
    async openExternal(url) {
      await shell.openExternal(url);
      return true;
    },
    notifyPluginsChanged,
  };
}
