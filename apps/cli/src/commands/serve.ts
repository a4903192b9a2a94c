/**
 * `siglab serve [--port N] [--workspace DIR] [--plugin-dir DIR]`: serves the desktop app's renderer
 * and the host API on 127.0.0.1 for a browser. Owned by the desktop app (apps/desktop/src/server).
 */
import type { CAC } from "cac";
import { startSiglabServer, type RunningServer } from "../../../desktop/src/server/server.js";
import { defaultWorkspaceDir } from "../../../desktop/src/node/workspace.js";

export interface ServeCommandOptions {
  port?: number | string;
  workspace?: string;
  pluginDir?: string;
  /** Built renderer folder; defaults to apps/desktop/dist/renderer. */
  rendererDir?: string;
}

/** Starts the server and prints its URL; resolves once it is listening. */
export async function runServe(opts: ServeCommandOptions, log: (line: string) => void = (l) => console.log(l)): Promise<RunningServer> {
  const port = opts.port === undefined ? 5178 : Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: "${opts.port}" is not a port number (0-65535)`);
  return startSiglabServer({
    port,
    workspace: opts.workspace ?? defaultWorkspaceDir(),
    ...(opts.pluginDir ? { pluginDir: opts.pluginDir } : {}),
    ...(opts.rendererDir ? { rendererDir: opts.rendererDir } : {}),
    log,
  });
}

export function registerServeCommand(cli: CAC): void {
  cli
    .command("serve", "Serve the SigLab UI to a browser on 127.0.0.1")
    .option("--port <n>", "TCP port (0 picks a free one)", { default: 5178 })
    .option("--workspace <dir>", "User workspace folder (default $SIGLAB_HOME or ~/.siglab)")
    .option("--plugin-dir <dir>", "Third-party plugin folder (default <workspace>/plugins)")
    .action(async (options: ServeCommandOptions) => {
      try {
        const server = await runServe(options);
        const stop = (): void => {
          void server.close().then(() => process.exit(0));
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      } catch (err) {
        console.error(`siglab serve: ${(err as Error).message}`);
        process.exitCode = 1;
      }
    });
}
