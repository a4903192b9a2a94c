/** Application menus following each OS's conventions; items send menu commands to the renderer. */
import type { MenuItemConstructorOptions } from "electron";
import type { MenuCommand } from "../common/host-api.js";

export function buildMenuTemplate(platform: NodeJS.Platform, send: (c: MenuCommand) => void, appName = "SigLab"): MenuItemConstructorOptions[] {
  const mac = platform === "darwin";
  const cmd = (label: string, command: MenuCommand, accelerator?: string): MenuItemConstructorOptions => ({
    label,
    ...(accelerator ? { accelerator } : {}),
    click: () => send(command),
  });
  const file: MenuItemConstructorOptions = {
    label: "&File",
    submenu: [
      cmd("New Workload", "new-workload", "CmdOrCtrl+N"),
      cmd("Open Bundle…", "import-bundle", "CmdOrCtrl+O"),
      { type: "separator" },
      cmd("Save", "save", "CmdOrCtrl+S"),
      cmd("Save As My Workload…", "save-as", "CmdOrCtrl+Shift+S"),
      { type: "separator" },
      cmd("Export Bundle…", "export-bundle", "CmdOrCtrl+E"),
      cmd("Export Results as CSV…", "export-csv"),
      cmd("Export Timeline as Perfetto Trace…", "export-trace"),
      { type: "separator" },
      cmd("Install Plugin from Folder…", "install-plugin"),
      cmd("Install Plugin from File…", "install-plugin-file"),
      ...(mac ? [] : [{ type: "separator" } as const, { role: "quit" as const, label: "E&xit" }]),
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: "&Edit",
    submenu: [
      { role: "undo" }, { role: "redo" }, { type: "separator" },
      { role: "cut" }, { role: "copy" }, { role: "paste" }, { role: "selectAll" },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: "&View",
    submenu: [
      cmd("Workload", "show-workload", "CmdOrCtrl+1"),
      cmd("CPU Profiles", "show-profiles", "CmdOrCtrl+2"),
      cmd("Plugins", "show-plugins", "CmdOrCtrl+3"),
      cmd("LMbench Summary", "show-summary", "CmdOrCtrl+4"),
      { type: "separator" },
      { role: "resetZoom" }, { role: "zoomIn" }, { role: "zoomOut" },
      { type: "separator" },
      { role: "togglefullscreen" },
    ],
  };
  const run: MenuItemConstructorOptions = {
    label: "&Run",
    submenu: [cmd("Run Experiment", "run", "CmdOrCtrl+Enter"), cmd("Cancel Run", "cancel", "CmdOrCtrl+.")],
  };
  const help: MenuItemConstructorOptions = {
    role: "help",
    label: "&Help",
    submenu: mac ? [cmd(`About ${appName}`, "about")] : [cmd(`&About ${appName}`, "about")],
  };
  if (mac) {
    return [
      {
        label: appName,
        submenu: [
          cmd(`About ${appName}`, "about"),
          { type: "separator" },
          { role: "services" },
          { type: "separator" },
          { role: "hide" }, { role: "hideOthers" }, { role: "unhide" },
          { type: "separator" },
          { role: "quit" },
        ],
      },
      file, edit, view, run,
      { role: "windowMenu" },
      help,
    ];
  }
  return [file, edit, view, run, help];
}
