/** The linux6 example workloads (sources embedded from ../examples/*.ts); both need the plugin and long mode. */
import type { ExampleWorkload } from "@siglab/plugin-api";
import { LINUX6_EXAMPLE_SOURCES } from "./examples.generated.js";

/** The CPU each example makes its point on: the altstack hazard needs AVX-512's large XSAVE frame. */
const CPU: Record<string, string> = { linux6_altstack: "skylake-x" };

export const LINUX6_EXAMPLES: ExampleWorkload[] = LINUX6_EXAMPLE_SOURCES.map((e) => ({ ...e, suggestedVariants: [{ id: "linux6" }], suggestedCpu: { id: CPU[e.id] ?? "skylake" } }));
