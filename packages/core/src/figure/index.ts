/** Figures drawn without a DOM or Node (SVG text): the CLI writes them, the app shows and exports them. */
export * from "./bar-figure.js";
export * from "./format.js";
export * from "./labels.js";
export * from "./lmbench.js";
export * from "./palette.js";
export * from "./text.js";
export * from "./runs.js";
