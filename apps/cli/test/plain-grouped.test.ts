/** Help texts built at start-up write numbers as toLocaleString("en") does, without loading Intl. */
import { describe, expect, it } from "vitest";
import { plainGrouped } from "../src/numbers.js";
import { LIMIT_OPTIONS } from "../src/run/limits.js";

describe("plainGrouped", () => {
  it("writes what toLocaleString('en') writes: digit groups, at most three decimals", () => {
    for (const n of [0, 1, -1, 0.001, 0.5, 64, 999, 1000, 1234.5, -1234.25, 20_000, 262_144, 2_000_000, 1e12, 1e15 - 1, 1e15, 2 ** 53, 0.1 + 0.2, 1 / 3, NaN, Infinity]) {
      expect(plainGrouped(n), String(n)).toBe(n.toLocaleString("en"));
    }
  });

  it("gives the limits' help its usual numbers", () => {
    expect(LIMIT_OPTIONS.find(([f]) => f.startsWith("--max-seconds"))![1]).toMatch(/\(0\.001 to 2,000,000; default [\d,.]+\)$/);
    expect(LIMIT_OPTIONS.find(([f]) => f.startsWith("--max-cycles"))![1]).toMatch(/\(1 to 1,000,000,000,000,000; default [\d,.]+\)$/);
  });
});
