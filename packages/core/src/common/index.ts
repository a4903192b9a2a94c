export * from "./experiment.js";
export * from "./results.js";
export * from "./repeat.js";
