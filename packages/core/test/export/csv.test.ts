import { describe, expect, it } from "vitest";
import { csvField, toCsv, CSV_COLUMNS } from "../../src/export/index.js";
import { experiment, fakeResults } from "../bundle/fixtures.js";

/** A small RFC 4180 parser, to read the output back the way a spreadsheet would. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), (field = "");
    else if (c === "\r" && text[i + 1] === "\n") row.push(field), rows.push(row), (row = []), (field = ""), i++;
    else if (c === "\r" || c === "\n") throw new Error(`bare line break at ${i}`);
    else field += c;
  }
  expect(field).toBe("");
  return rows;
}

describe("toCsv", () => {
  it("quotes fields as RFC 4180 requires", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\r")).toBe('"cr\r"');
    expect(csvField(1.5)).toBe("1.5");
  });

  it("writes one row per run × metric, with CPU, clock, variants and params", () => {
    const results = fakeResults(experiment());
    const csv = toCsv(results, { kinds: ["metric"] });
    expect(csv.endsWith("\r\n")).toBe(true);
    const rows = parseCsv(csv);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows).toHaveLength(1 + results.length * 2);
    const byHeader = (r: string[]) => Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, r[i]]));
    expect(byHeader(rows[3]!)).toEqual({
      run: "2",
      workload: "lat_sig_catch",
      cpu: "p4-northwood",
      mhz: "2200",
      variants: "sa-nofp:force=true;thirdparty-mask",
      params: "iterations=1000",
      seed: "42",
      kind: "metric",
      metric: "signal round trip",
      value: String(results[1]!.metrics[0]!.value),
      unit: "cycles",
    });
    // the metric with a comma and quotes survives the round trip through a CSV reader
    expect(rows[2]![8]).toBe('syscalls, per "iteration"');
    expect(Number(rows[3]![9])).toBe(results[1]!.metrics[0]!.value);
  });

  it("adds totals, phases and counters by default, and defuses formula-like text", () => {
    const results = fakeResults(experiment({ cpus: [{ id: "p4-northwood", mhz: 2200 }], stacks: [[]] }));
    results[0]!.workload = "=HYPERLINK(\"x\")";
    results[0]!.params = { label: "a,b", n: 2 };
    const rows = parseCsv(toCsv(results)).slice(1);
    expect(rows.map((r) => `${r[7]}:${r[8]}`)).toEqual([
      "metric:signal round trip",
      'metric:syscalls, per "iteration"',
      "total:totalCycles",
      "total:simSeconds",
      "phase:signal.fpu_save",
      "phase:syscall.entry",
      "phase:user",
      "counter:fpu.saves",
      "counter:signals.delivered",
      "counter:syscalls.kill",
    ]);
    expect(rows[0]![1]).toBe("'=HYPERLINK(\"x\")");
    expect(rows[0]![5]).toBe("label=a,b;n=2");
    expect(rows[0]![4]).toBe("");
    expect(toCsv([])).toBe(CSV_COLUMNS.join(",") + "\r\n");
  });

  it("gives a repeated run's spread as metric-min and metric-max rows beside the median", () => {
    const [r] = fakeResults(experiment());
    const repeated = { ...r!, metrics: r!.metrics.map((m) => ({ ...m, value: 2, min: 1, median: 2, max: 5 })) };
    const rows = parseCsv(toCsv([repeated], { kinds: ["metric", "metric-min", "metric-max"] }));
    const name = r!.metrics[0]!.name;
    const of = (kind: string) => rows.filter((x) => x[7] === kind && x[8] === name).map((x) => x[9]);
    expect(of("metric")).toEqual(["2"]);
    expect(of("metric-min")).toEqual(["1"]);
    expect(of("metric-max")).toEqual(["5"]);
    // a single run has no spread rows
    expect(parseCsv(toCsv([r!])).some((x) => x[7] === "metric-min")).toBe(false);
  });
});
