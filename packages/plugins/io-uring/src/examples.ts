/**
 * The io_uring_* examples (sources embedded from ../examples/*.ts): the aio_* family's shape (the
 * same device, batch, rounds and useful work) on an x86-64 CPU under the linux6 plugin.
 */
import type { ExampleWorkload } from "@siglab/plugin-api";
import { URING_EXAMPLE_SOURCES } from "./examples.generated.js";

export const URING_EXAMPLES: ExampleWorkload[] = URING_EXAMPLE_SOURCES.map((e) => ({
  ...e,
  suggestedVariants: [{ id: "linux6" }, { id: "io-uring" }],
  suggestedCpu: { id: "zen4" },
}));
