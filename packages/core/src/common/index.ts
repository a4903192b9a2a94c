export * from "./experiment.js";
export * from "./results.js";
export * from "./repeat.js";
export * from "./host-figures.js";
export * from "./host-kernel.js";
export * from "./host-profile.js";
export * from "./host-virtualization.js";
