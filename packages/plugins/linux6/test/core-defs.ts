/**
 * What the tests of linux6's 6.x path files share: the core's 2.4 definition of a path, linux6 as
 * it was before a file replaced some paths (the core's ops put back by one more transform), the
 * cost of a definition on a profile, and the check that a run took the 6.x paths.
 */
import { expect } from "vitest";
import { ContainerModule, TOKENS, type OpLine, type PathDef, type PathTransform, type PluginModule, type RunResult } from "@siglab/plugin-api";
import { CORE_PATHS } from "@siglab/core";
import { getBuiltinProfile } from "../../../cpu-profiles/src/builtin.js";
import { resolveProfile } from "../../../cpu-profiles/src/resolve.js";
import linux6 from "../src/index.js";

/** the core's 2.4 definition of path `name` */
export function coreDef(name: string): PathDef {
  const d = CORE_PATHS.find((p) => p.name === name);
  if (!d) throw new Error(`no core path ${name}`);
  return d;
}

/** linux6 with the core's definitions (ops and origin) back on `names`: linux6 before the file that replaced them */
export function linux6WithCoreDefs(names: readonly string[]): PluginModule {
  return {
    ...linux6,
    createModule: (options, api) =>
      new ContainerModule((ctx) => {
        (linux6.createModule(options, api) as unknown as { load(o: unknown): void }).load(ctx);
        const restore: PathTransform[] = names.map((target) => ({ target, origin: "core", transform: (def) => ({ ...def, origin: "core", ops: coreDef(target).ops }) }));
        ctx.bind(TOKENS.PathTransformContribution).toConstantValue({ transforms: () => restore });
      }),
  };
}

/** cycles of one execution of `ops` on the profile `cpu`@`mhz` as a run resolves it */
export function opsCost(cpu: string, mhz: number, ops: readonly OpLine[]): number {
  const costs = resolveProfile(getBuiltinProfile(cpu)!, mhz).costs as Record<string, number>;
  return ops.reduce((s, l) => s + costs[l.op]! * (l.n ?? 1), 0);
}

/**
 * The run took the 6.x definitions of `names`: each path is linux6's, no op or note matches
 * `i386Only` (what only 2.4's paths say), and every function of `fns` appears among their ops.
 */
export function expectSixX(r: RunResult, names: readonly string[], fns: readonly string[], i386Only: RegExp): void {
  const seen = new Set<string>();
  for (const name of names) {
    const p = r.paths.find((x) => x.name === name);
    expect(p, name).toBeDefined();
    expect(p!.origin, name).toBe("linux6");
    for (const o of p!.ops) {
      seen.add(o.fn);
      expect(`${o.fn} ${o.note ?? ""}`, name).not.toMatch(i386Only);
    }
  }
  for (const fn of fns) expect([...seen], fn).toContain(fn);
}
