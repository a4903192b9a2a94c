/** The LMbench summary's progress line counts the pool's runs done and running (issue 32 item 7), not the last-reported run. */
import { describe, expect, it } from "vitest";
import { summaryProgress } from "../src/renderer/run/progress-line.js";

describe("summaryProgress", () => {
  it("says the runs done and running of the benchmark, and the time left from the share of the summary done", () => {
    expect(summaryProgress("lat_ctx", 2, 5, 3, 2, 8, 12_000, 0.5)).toBe("Summary: lat_ctx (3/5) · 3/8 runs done, 2 running · ~12 s left");
    expect(summaryProgress("lat_syscall", 0, 5, 0, 1, 4, 100, 0.01)).toBe("Summary: lat_syscall (1/5) · 0/4 runs done, 1 running");
    expect(summaryProgress("lat_pipe", 4, 5, 4, 0, 4, 30_000, 1)).toBe("Summary: lat_pipe (5/5) · 4/4 runs done · ~0 s left");
  });
});
