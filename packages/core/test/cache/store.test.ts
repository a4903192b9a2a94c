/** The cache store: verified entries, LRU eviction within the bound, atomic writes shared by processes. */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decodeEntry, encodeEntry, sha256Hex } from "../../src/cache/entry.js";
import { CacheStore } from "../../src/cache/store.js";

const root = mkdtempSync(join(tmpdir(), "siglab-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (maxBytes = 1 << 20) => {
  const damaged: string[] = [];
  const store = new CacheStore(join(root, `s${n++}`), { maxBytes, onDamaged: (f, p) => damaged.push(`${f}: ${p}`) });
  return { store, damaged };
};
const key = (s: string) => sha256Hex(s);
const body = (s: string, size = 0) => Buffer.from(s + "x".repeat(size));

describe("a cache entry", () => {
  it("decodes to its body, and refuses another key, a truncated, an extended or a corrupted body", () => {
    const k = key("a");
    const e = encodeEntry(k, body("hello"));
    expect((decodeEntry(k, e) as { body: Buffer }).body.toString()).toBe("hello");
    expect(decodeEntry(key("b"), e)).toEqual({ problem: expect.stringMatching(/holds the entry/) });
    expect(decodeEntry(k, e.subarray(0, e.length - 1))).toEqual({ problem: expect.stringMatching(/truncated/) });
    expect(decodeEntry(k, Buffer.concat([e, Buffer.from("!")]))).toEqual({ problem: expect.stringMatching(/truncated or extended/) });
    const flipped = Buffer.from(e);
    flipped[flipped.length - 2] ^= 1;
    expect(decodeEntry(k, flipped)).toEqual({ problem: expect.stringMatching(/SHA-256/) });
    expect(decodeEntry(k, Buffer.from("not an entry"))).toEqual({ problem: "no valid header" });
  });
});

describe("the cache store", () => {
  it("gives back exactly the bytes stored, under their key only", () => {
    const { store } = fresh();
    const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) & 255));
    expect(store.put(key("k"), bytes)).toBe(true);
    expect(store.get(key("k"))!.equals(bytes)).toBe(true);
    expect(store.get(key("other"))).toBeUndefined();
    expect(() => store.get("../../etc/passwd")).toThrow(/64 lower-case hex/);
  });

  it("deletes and misses a truncated or corrupted entry (never returns it), and says so", () => {
    const { store, damaged } = fresh();
    store.put(key("t"), body("truncate me", 100));
    store.put(key("c"), body("corrupt me", 100));
    const t = store.fileOf(key("t"));
    writeFileSync(t, readFileSync(t).subarray(0, 90));
    const c = store.fileOf(key("c"));
    const bytes = readFileSync(c);
    bytes[bytes.length - 5] ^= 0x20;
    writeFileSync(c, bytes);
    expect(store.get(key("t"))).toBeUndefined();
    expect(store.get(key("c"))).toBeUndefined();
    expect(damaged).toHaveLength(2);
    expect(() => statSync(t)).toThrow();
    expect(store.put(key("t"), body("truncate me", 100))).toBe(true);
    expect(store.get(key("t"))!.toString()).toBe("truncate me" + "x".repeat(100));
  });

  it("stays within its bound, evicting the least recently used entries first", () => {
    const { store } = fresh(20_000);
    const past = (k: string, s: number) => utimesSync(store.fileOf(key(k)), s, s);
    for (let i = 0; i < 10; i++) {
      store.put(key(`e${i}`), body(`e${i}`, 1500));
      past(`e${i}`, 1000 + i); // e0 oldest ... e9 newest
    }
    expect(store.get(key("e0"))).toBeDefined(); // used again: now the most recent
    for (let i = 10; i < 16; i++) store.put(key(`e${i}`), body(`e${i}`, 1500));
    const info = store.info();
    expect(info.bytes).toBeLessThanOrEqual(20_000);
    expect(store.get(key("e0"))).toBeDefined();
    expect(store.get(key("e1"))).toBeUndefined();
    expect(store.get(key("e15"))).toBeDefined();
    expect(info.entries).toBeLessThan(16);
  });

  it("does not store an entry bigger than an eighth of its bound", () => {
    const { store } = fresh(8_000);
    expect(store.put(key("big"), body("big", 2000))).toBe(false);
    expect(store.get(key("big"))).toBeUndefined();
  });

  it("clear() deletes every entry and info() counts them", () => {
    const { store } = fresh();
    for (let i = 0; i < 3; i++) store.put(key(`c${i}`), body(`c${i}`));
    expect(store.info().entries).toBe(3);
    expect(store.clear()).toBe(3);
    expect(store.info()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it("two processes writing the same and different keys at once, a third reading, leave only whole entries and read none torn", async () => {
    const dir = join(root, "shared");
    const done = join(root, "writers-done");
    const script = join(root, "worker.ts");
    // writers: 25 rounds over the same 10 keys (racing each other) and 10 of their own, ~40 KiB each;
    // the reader: reads the shared keys until the writers are done, counting damaged entries
    writeFileSync(
      script,
      `import { existsSync } from "node:fs";
import { CacheStore } from ${JSON.stringify(join(import.meta.dirname, "../../src/cache/store.ts"))};
import { sha256Hex } from ${JSON.stringify(join(import.meta.dirname, "../../src/cache/entry.ts"))};
const me = process.argv[2]!;
let damaged = 0;
const s = new CacheStore(${JSON.stringify(dir)}, { maxBytes: 1 << 30, onDamaged: () => damaged++ });
if (me === "reader") {
  let reads = 0;
  while (!existsSync(${JSON.stringify(done)})) for (let i = 0; i < 10; i++) if (s.get(sha256Hex("shared" + i))) reads++;
  console.log(JSON.stringify({ damaged, reads }));
} else {
  for (let round = 0; round < 25; round++) for (let i = 0; i < 10; i++) {
    s.put(sha256Hex("shared" + i), Buffer.from(("shared" + i + ":").repeat(4000)));
    s.put(sha256Hex(me + i), Buffer.from((me + i + ":").repeat(4000)));
  }
}
`,
    );
    const start = (me: string) => {
      const c = spawn(process.execPath, ["--import", "tsx", script, me], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      c.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
      return new Promise<{ code: number | null; out: string }>((resolve) => c.on("close", (code) => resolve({ code, out })));
    };
    const reader = start("reader");
    expect((await Promise.all([start("one"), start("two")])).map((w) => w.code)).toEqual([0, 0]);
    writeFileSync(done, "");
    const r = await reader;
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ damaged: 0 });
    const store = new CacheStore(dir, { maxBytes: 1 << 30, onDamaged: (f, p) => expect.fail(`${f}: ${p}`) });
    for (const name of ["shared", "one", "two"]) {
      for (let i = 0; i < 10; i++) expect(store.get(sha256Hex(name + i))?.toString()).toBe((name + i + ":").repeat(4000));
    }
    const leftovers = readdirSync(dir).flatMap((d) => readdirSync(join(dir, d))).filter((f) => f.startsWith("."));
    expect(leftovers).toEqual([]); // no temp file left behind
    expect(store.info().entries).toBe(30);
  }, 60_000);
});
