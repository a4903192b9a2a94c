/**
 * Development entry for the HTTP host without the CLI: node --import tsx scripts/serve.ts
 * [--port N] [--workspace DIR] [--plugin-dir DIR]. Same code path as `siglab serve`.
 */
import { parseArgs } from "node:util";
import { runServe } from "../../cli/src/commands/serve.js";

const { values } = parseArgs({ options: { port: { type: "string" }, workspace: { type: "string" }, "plugin-dir": { type: "string" } } });
const server = await runServe({ port: values.port, workspace: values.workspace, pluginDir: values["plugin-dir"] });
process.once("SIGINT", () => void server.close().then(() => process.exit(0)));
