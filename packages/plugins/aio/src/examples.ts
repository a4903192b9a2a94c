/** The aio_* example family, shipped with the plugin (sources embedded from ../examples/*.ts). */
import type { ExampleWorkload } from "@siglab/plugin-api";
import { AIO_EXAMPLE_SOURCES } from "./examples.generated.js";

/** Only aio_ring needs the plugin's system calls; the other three run on the baseline kernel. */
const NEEDS_PLUGIN = new Set(["aio_ring"]);

export const AIO_EXAMPLES: ExampleWorkload[] = AIO_EXAMPLE_SOURCES.map((e) =>
  NEEDS_PLUGIN.has(e.id) ? { ...e, suggestedVariants: [{ id: "aio" }] } : { ...e },
);
