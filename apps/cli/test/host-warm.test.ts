/** A host started ahead of its runs (warm) and stopped before it was up leaves no process behind. */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");

describe("NodeExecutionHost.warm", () => {
  it("close() before the host process is up: no host process outlives it (the command exits)", () => {
    const script = `import { createNodeHost } from "@siglab/builtin-plugins/host/node";
const h = createNodeHost({ transpile: (s) => s });
void h.warm();
h.close();
`;
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: join(ROOT, "apps", "cli"), encoding: "utf8", timeout: 60_000 });
    expect(r.signal, "still running after 60 s: a host process keeps it alive").toBeNull();
    expect(r.status, r.stderr).toBe(0);
  }, 90_000);
});
