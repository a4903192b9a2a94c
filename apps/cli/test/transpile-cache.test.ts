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
