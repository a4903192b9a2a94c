import type { ExampleWorkload } from "../plugin-api/extension-points.js";
import { EXAMPLE_SOURCES } from "./sources.generated.js";

/** The example workloads shipped with the core (plugins contribute more). */
/** The variant each example was written to show (the app offers it next to the baseline). */
const SUGGESTED: Record<string, { id: string; options?: Record<string, string | number | boolean> }[]> = {
  sa_nofp_hazard: [{ id: "sa-nofp" }],
  ngpt_yield: [{ id: "ngpt" }],
  ngpt_readwrite: [{ id: "ngpt" }],
  sigfpe_fixup: [{ id: "lazy-fpu-frame" }],
  longjmp_handler: [{ id: "lazy-fpu-frame" }],
  lat_syscall: [{ id: "sysenter" }],
  uml_tt: [{ id: "sa-nofp" }],
  uml_jail: [{ id: "sa-nofp" }],
  uml_compare: [{ id: "sa-nofp" }],
};

export const EXAMPLES: ExampleWorkload[] = EXAMPLE_SOURCES.map((e) => (SUGGESTED[e.id] ? { ...e, suggestedVariants: SUGGESTED[e.id] } : { ...e }));
