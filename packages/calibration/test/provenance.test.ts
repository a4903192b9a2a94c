import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FitResult, GroupFit } from "../src/index.js";
import { applyFitToText, baseSource, getGroup, getTarget } from "../src/index.js";
import { profileFilePath } from "../src/node.js";

function fakeFit(values: Record<string, number>, status: GroupFit["status"] = "fitted"): FitResult {
  const group = getGroup("p4-int80-gate");
  const gf: GroupFit = { group, target: getTarget(group.target), status, values, evaluations: 0 };
  if (status === "fitted") Object.assign(gf, { scale: 1.01, simulated: 1234.5 });
  if (status === "unreachable") Object.assign(gf, { scale: 1, reach: [1600, 3000], reason: "out of reach" });
  return { groups: [gf], sweeps: 1, converged: true, values: { "p4-northwood": values } };
}

describe("writing a fit into a profile file", () => {
  const path = profileFilePath("p4-northwood");
  const text = readFileSync(path, "utf8");
  const file = "p4-northwood.json";

  it("changes only the cycles and the source note of the group's entries (and the cycles of costs relative to them); layout and order are kept", () => {
    const after = applyFitToText(text, file, fakeFit({ int_gate: 901, iret_user: 611 }));
    const a = text.split("\n");
    const b = after.split("\n");
    expect(b.length).toBe(a.length);
    const changed = a.map((l, i) => [l, b[i]!] as const).filter(([x, y]) => x !== y);
    // int_gate, exception_entry, irq_entry (int_gate + 10), iret_user, iret_kernel (iret_user / 2)
    expect(changed.map(([, y]) => y.trim().split(":")[0])).toEqual(['"cycles"', '"source"', '"cycles"', '"cycles"', '"cycles"', '"source"', '"cycles"']);
    const json = JSON.parse(after);
    expect(json.costs.exception_entry.cycles).toBe(911);
    expect(json.costs.iret_kernel.cycles).toBe(305.5);
    expect(json.costs.int_gate.cycles).toBe(901);
    expect(json.costs.int_gate.kind).toBe("fitted");
    expect(json.costs.int_gate.fittedTo).toEqual(["p4-int80-vs-sysenter"]);
    expect(json.costs.int_gate.source).toMatch(/Fitted by siglab calibrate to p4-int80-vs-sysenter \(int80\): target 1568\.0 cycles, simulated 1234\.5 cycles/);
    expect(Object.keys(json.costs)).toEqual(Object.keys(JSON.parse(text).costs));
  });

  it("replaces its previous note instead of appending another, keeping the starting value's reasoning", () => {
    const once = applyFitToText(text, file, fakeFit({ int_gate: 901, iret_user: 611 }));
    const twice = applyFitToText(once, file, fakeFit({ int_gate: 901, iret_user: 611 }));
    expect(twice).toBe(once);
    const src = JSON.parse(twice).costs.int_gate.source as string;
    expect(src.match(/siglab calibrate/g)).toHaveLength(1);
    expect(baseSource(src)).toBe(baseSource(JSON.parse(text).costs.int_gate.source));
  });

  it("records an out-of-reach figure and leaves a pending group untouched", () => {
    const un = JSON.parse(applyFitToText(text, file, fakeFit({ int_gate: 830, iret_user: 577 }, "unreachable")));
    expect(un.costs.int_gate.source).toMatch(/Not fitted by siglab calibrate: .* the starting value 830 is kept\./);
    expect(applyFitToText(text, file, fakeFit({ int_gate: 1, iret_user: 1 }, "pending"))).toBe(text);
  });

  it("refuses a file that is not JSON, naming it", () => {
    expect(() => applyFitToText("{ nope", file, fakeFit({}))).toThrow(/^p4-northwood\.json: not valid JSON/);
  });
});
