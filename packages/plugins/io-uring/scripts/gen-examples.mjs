// Embeds the io_uring example workloads (packages/plugins/io-uring/examples/*.ts) as strings (see
// packages/builtin-plugins/scripts/plugin-examples.mjs). A test checks that the generated file is
// current: run `node packages/plugins/io-uring/scripts/gen-examples.mjs` after an edit.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderPluginExamples, writePluginExamples } from "../../../builtin-plugins/scripts/plugin-examples.mjs";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");

export function render() {
  return renderPluginExamples(pkg, "io-uring", "URING_EXAMPLE_SOURCES");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writePluginExamples(pkg, "io-uring", "URING_EXAMPLE_SOURCES");
