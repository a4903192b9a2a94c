/**
 * Canonical JSON: the same text for the same data whatever order its keys were set in, so that a
 * key made of it changes only when the data does. Object keys are sorted, undefined members left
 * out (as JSON.stringify does); numbers JSON cannot tell apart (NaN, ±Infinity, -0) get a text of
 * their own instead of collapsing into null or 0.
 */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v === "boolean" || typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") return Number.isFinite(v) && !Object.is(v, -0) ? JSON.stringify(v) : `{"$number":"${Object.is(v, -0) ? "-0" : String(v)}"}`;
  if (typeof v === "bigint") return `{"$bigint":"${v}"}`;
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? "null" : canonicalJson(x))).join(",")}]`;
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    const parts = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`);
    return `{${parts.join(",")}}`;
  }
  throw new TypeError(`canonicalJson: a ${typeof v} is not data`);
}
