export * from "./experiment.js";
export * from "./results.js";
export * from "./repeat.js";
export * from "./host-figures.js";
