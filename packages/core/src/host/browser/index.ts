/** @siglab/core/host/browser: the app's side of the browser sandbox (its Web Worker factory and idle message). */
export * from "./factory.js";
export * from "./messages.js";
