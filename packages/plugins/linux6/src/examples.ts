/** The linux6 example workloads (sources embedded from ../examples/*.ts); both need the plugin. */
import type { ExampleWorkload } from "@siglab/plugin-api";
import { LINUX6_EXAMPLE_SOURCES } from "./examples.generated.js";

export const LINUX6_EXAMPLES: ExampleWorkload[] = LINUX6_EXAMPLE_SOURCES.map((e) => ({ ...e, suggestedVariants: [{ id: "linux6" }], suggestedCpu: { id: "skylake" } }));
