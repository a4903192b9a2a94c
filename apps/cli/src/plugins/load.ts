/** Plugins available to a run: the built-in ones, then third-party plugin folders. */
import type { LoadedPlugin } from "@siglab/core";

export async function loadPlugins(_dirs: string[]): Promise<LoadedPlugin[]> {
  // built-in and third-party plugins arrive with the plugin architecture (issue 4)
  return [];
}
