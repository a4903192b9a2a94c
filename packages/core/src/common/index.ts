export * from "./experiment.js";
export * from "./results.js";
