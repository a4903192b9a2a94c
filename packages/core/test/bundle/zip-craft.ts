/**
 * A tiny zip writer for hostile test inputs that fflate would never produce: duplicate names,
 * sizes that lie, local headers that disagree with the central directory. CRCs are left at 0
 * (the reader relies on the manifest's SHA-256, not on CRC-32).
 */
import { deflateSync, strToU8, unzipSync, zipSync } from "fflate";
import { sha256Hex } from "../../src/bundle/index.js";

export interface CraftEntry {
  name: string;
  data: Uint8Array | string;
  /** 0 stored, 8 deflate (default); any other number stores the bytes under that method id */
  method?: number;
  /** Size claimed in both headers (default: the real one). */
  declaredSize?: number;
  /** Write `data` as the compressed bytes as-is (to craft broken deflate streams). */
  raw?: boolean;
  /** Name in the local header when it should differ from the central directory's. */
  localName?: string;
}

export function craftZip(entries: CraftEntry[]): Uint8Array {
  const chunks: number[] = [];
  const central: number[] = [];
  const u16 = (a: number[], v: number) => a.push(v & 0xff, (v >>> 8) & 0xff);
  const u32 = (a: number[], v: number) => a.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  for (const e of entries) {
    const raw = typeof e.data === "string" ? strToU8(e.data) : e.data;
    const method = e.method ?? 8;
    const comp = method === 8 && !e.raw ? deflateSync(raw) : raw;
    const usize = e.declaredSize ?? raw.length;
    const offset = chunks.length;
    const lname = strToU8(e.localName ?? e.name);
    const cname = strToU8(e.name);
    u32(chunks, 0x04034b50); u16(chunks, 20); u16(chunks, 0x800); u16(chunks, method); u16(chunks, 0); u16(chunks, 0x21);
    u32(chunks, 0); u32(chunks, comp.length); u32(chunks, usize); u16(chunks, lname.length); u16(chunks, 0);
    chunks.push(...lname, ...comp);
    u32(central, 0x02014b50); u16(central, 20); u16(central, 20); u16(central, 0x800); u16(central, method); u16(central, 0); u16(central, 0x21);
    u32(central, 0); u32(central, comp.length); u32(central, usize); u16(central, cname.length); u16(central, 0); u16(central, 0);
    u16(central, 0); u16(central, 0); u32(central, 0); u32(central, offset);
    central.push(...cname);
  }
  const cdOffset = chunks.length;
  const eocd: number[] = [];
  u32(eocd, 0x06054b50); u16(eocd, 0); u16(eocd, 0); u16(eocd, entries.length); u16(eocd, entries.length);
  u32(eocd, central.length); u32(eocd, cdOffset); u16(eocd, 0);
  return new Uint8Array([...chunks, ...central, ...eocd]);
}

export type FileMap = Record<string, Uint8Array>;

/** Unzip, let `mutate` edit the entries, optionally re-hash the manifest, and zip again. */
export function rezip(bytes: Uint8Array, mutate: (files: FileMap) => void, opts: { rehash?: boolean } = {}): Uint8Array {
  const files: FileMap = unzipSync(bytes);
  mutate(files);
  if (opts.rehash) rehashManifest(files);
  return zipSync(files);
}

export function rehashManifest(files: FileMap): void {
  const m = JSON.parse(new TextDecoder().decode(files["manifest.json"]));
  m.entries = Object.keys(files)
    .filter((p) => p !== "manifest.json")
    .sort()
    .map((path) => ({ path, size: files[path]!.length, sha256: sha256Hex(files[path]!) }));
  files["manifest.json"] = strToU8(JSON.stringify(m));
}

export const editJson = (files: FileMap, name: string, edit: (v: any) => void): void => {
  const v = JSON.parse(new TextDecoder().decode(files[name]));
  edit(v);
  files[name] = strToU8(JSON.stringify(v));
};

/** For tests outside @siglab/core (the CLI's), which do not depend on fflate themselves. */
export { strToU8, unzipSync, zipSync };
