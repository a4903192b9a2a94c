/** The Node side of plugin archives: packing a folder, installing checked files into a plugin folder. */
export { packPluginFolder } from "./pack-folder.js";
export { installedVersion, installPluginFiles } from "./install.js";
