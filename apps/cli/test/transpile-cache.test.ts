/** The CLI keeps transpiled workloads (a sweep runs one workload many times); what it returns is as if transpiled afresh. */
import { describe, expect, it } from "vitest";
import { transpileCacheHas, transpileWorkloadWithMap } from "../src/run/compile.js";

const W = (n: number) => `import { workload } from "siglab";
export default workload({ name: "w${n}", params: {}, *main(t) { yield* t.getpid(); } });
`;

describe("transpileWorkloadWithMap's cache", () => {
  it("gives the same output again, as a copy the caller may change", () => {
    const a = transpileWorkloadWithMap(W(1), "w.ts");
    a.js = "tampered";
    const b = transpileWorkloadWithMap(W(1), "w.ts");
    expect(b.js).toContain('name: "w1"');
    expect(b.js).not.toBe("tampered");
    expect(transpileWorkloadWithMap(W(2), "w.ts").js).toContain('name: "w2"'); // keyed by the source
  });

  it("keys by file too (errors and source maps name it) and keeps no errors", () => {
    expect(transpileWorkloadWithMap(W(3), "one.ts").map).toContain("one.ts");
    expect(transpileWorkloadWithMap(W(3), "two.ts").map).toContain("two.ts");
    const bad = "export default workload({ name: ";
    expect(() => transpileWorkloadWithMap(bad, "bad.ts")).toThrow(/bad\.ts/);
    expect(() => transpileWorkloadWithMap(bad, "bad.ts")).toThrow(/bad\.ts/);
  });

  it("stays bounded: the least recently used entry goes first", () => {
    transpileWorkloadWithMap(W(100), "lru.ts");
    transpileWorkloadWithMap(W(101), "lru.ts");
    for (let i = 0; i < 62; i++) transpileWorkloadWithMap(W(200 + i), "lru.ts");
    transpileWorkloadWithMap(W(100), "lru.ts"); // used again: now the most recent
    for (let i = 0; i < 10; i++) transpileWorkloadWithMap(W(300 + i), "lru.ts");
    expect(transpileCacheHas(W(100), "lru.ts")).toEqual({ size: 64, has: true });
    expect(transpileCacheHas(W(101), "lru.ts").has).toBe(false);
  });
});

describe("a workload's inspection (its declared parameters), cached on disk", () => {
  it("asks the sandbox once per source and simulator; an error is not kept", async () => {
    const { cachedInspect } = await import("../src/cache/compile-cache.js");
    let asked = 0;
    const inspect = async () => (asked++, { name: "w", params: { iterations: 10 } });
    const source = `// ${Math.random()}\n${W(7)}`;
    expect(await cachedInspect("w.ts", source, "sim-a", inspect)).toEqual({ name: "w", params: { iterations: 10 } });
    expect(await cachedInspect("w.ts", source, "sim-a", inspect)).toEqual({ name: "w", params: { iterations: 10 } });
    expect(asked).toBe(1);
    await cachedInspect("w.ts", source, "sim-b", inspect); // another simulator: asked again
    expect(asked).toBe(2);
    const failing = async (): Promise<never> => {
      throw new Error("top-level throw");
    };
    await expect(cachedInspect("bad.ts", source, "sim-a", failing)).rejects.toThrow("top-level throw");
    await expect(cachedInspect("bad.ts", source, "sim-a", failing)).rejects.toThrow("top-level throw");
  });
});
