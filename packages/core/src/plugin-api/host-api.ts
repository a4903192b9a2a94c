/**
 * What third-party plugin code receives as `require("@siglab/plugin-api")`: the same extension
 * points, helpers and kernel functions the built-in plugins use. Versioned by PLUGIN_API_VERSION.
 */
import { ContainerModule } from "inversify";
import { op } from "../exec/path.js";
import * as i387 from "../kernel/i387.js";
import * as sched from "../kernel/sched.js";
import * as signal from "../kernel/signal.js";
import { Sigset } from "../kernel/sigset.js";
import { NR } from "../kernel/syscall-nr.js";
import { TOKENS } from "./extension-points.js";
import { PLUGIN_API_VERSION } from "./manifest.js";

export function createPluginApi(): Record<string, unknown> {
  return Object.freeze({ PLUGIN_API_VERSION, ContainerModule, TOKENS, op, Sigset, NR, signal, i387, sched });
}
