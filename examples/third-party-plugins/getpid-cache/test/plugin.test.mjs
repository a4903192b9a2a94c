// The plugin's own tests, in process with the test harness @siglab/plugin-harness (run: npm test).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { runWorkload } from "@siglab/plugin-harness";
import * as entry from "../src/index.ts";

const manifest = JSON.parse(readFileSync(new URL("../plugin.json", import.meta.url), "utf8"));
const plugin = { manifest, ...entry };
const workload = { file: "getpid_cache.ts", source: readFileSync(new URL("../examples/getpid_cache.ts", import.meta.url), "utf8") };
const metric = (r, name) => r.metrics.find((m) => m.name === name)?.value;

test("getpid from the page: a load instead of the kernel round trip, right pids after fork", () => {
  const base = runWorkload({ plugins: [plugin], workload, params: { iterations: 500 } });
  const cached = runWorkload({ plugins: [plugin], variant: "getpid-cache", workload, params: { iterations: 500 } });
  assert.equal(cached.error, undefined);
  assert.equal(metric(base, "pid page registered"), 0); // ENOSYS without the plugin
  assert.equal(metric(cached, "pid page registered"), 1);
  assert.ok(metric(cached, "getpid") < 0.05 * metric(base, "getpid"));
  assert.equal(metric(cached, "child getpid right"), 1);
  assert.deepEqual(cached.findings, []);
});

test("without the rewrite at fork the child reads its parent's pid: a finding", () => {
  const r = runWorkload({ plugins: [plugin], variant: "getpid-cache:updateOnFork=false", workload, params: { iterations: 100 } });
  assert.equal(metric(r, "child getpid right"), 0);
  assert.equal(r.findings[0]?.kind, "getpid-cache.stale-pid");
});
