/**
 * A workload parameter's value against what the workload declares. The workload API declares a
 * parameter by its default only, so the default gives both the type (a number, a boolean, a
 * string) and the range: a number whose default is 0 or more is a count, a size or a time, and
 * takes no negative value (a workload that wants negatives says so with a negative default). Used
 * by the runner for every run (the CLI, the app, a bundle) and by the CLI before it starts any.
 */
import type { ParamValue } from "./experiment.js";

/** The value the run gets, or why it is refused (`file: parameter 'k' ...`). */
export function paramValue(file: string, key: string, declared: ParamValue, given: unknown): { value: ParamValue } | { problem: string } {
  const refuse = (expected: string) => ({ problem: `${file}: parameter '${key}' must be ${expected}, got ${typeof given === "string" ? `'${given}'` : String(given)}` });
  if (typeof declared === "number") {
    const n = typeof given === "number" ? given : typeof given === "string" && given.trim() !== "" ? Number(given) : NaN;
    if (!Number.isFinite(n)) return refuse("a number");
    if (declared >= 0 && n < 0) return refuse(`0 or more (its default is ${declared})`);
    return { value: n };
  }
  if (typeof declared === "boolean") {
    if (given === true || given === "true") return { value: true };
    if (given === false || given === "false") return { value: false };
    return refuse("true or false");
  }
  if (typeof given !== "string" && typeof given !== "number" && typeof given !== "boolean") return refuse("a string");
  return { value: String(given) };
}
