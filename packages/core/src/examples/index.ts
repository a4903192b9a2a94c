import type { ExampleWorkload } from "../plugin-api/extension-points.js";
import { EXAMPLE_SOURCES } from "./sources.generated.js";

/** The example workloads shipped with the core (plugins contribute more). */
export const EXAMPLES: ExampleWorkload[] = EXAMPLE_SOURCES.map((e) =>
  e.id === "sa_nofp_hazard" ? { ...e, suggestedVariants: [{ id: "sa-nofp" }] } : { ...e },
);
