/**
 * Short links (`<origin>/#s=<id>`): a shared link's data ("1.<base64url>", what follows #share=)
 * kept in the workspace's links/ folder under an id taken from its SHA-256, so the same link gets
 * the same id and copying it again adds nothing. A short link works in any browser that has opened
 * this server's printed address (the session cookie), across browser profiles, for as long as the
 * workspace keeps the file; on another machine it means nothing (the long link or a bundle does).
 */
import { createHash } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import path from "node:path";
import { HostArgumentError } from "../common/host-schema.js";
import { atomicWriteFile } from "./atomic.js";

/** Ids: 16 base64url characters (96 bits of the data's SHA-256). */
export const SHORT_LINK_ID = /^[A-Za-z0-9_-]{16}$/;
/** The longest link data kept (the renderer's MAX_LINK_CHARS plus the version prefix). */
export const MAX_SHORT_LINK_DATA = 64 * 1024 + 16;
/** At most this many links in a workspace: a full folder refuses new ones (never deletes old ones). */
export const MAX_SHORT_LINKS = 2000;
const DATA = /^\d{1,4}\.[A-Za-z0-9_-]+$/;

export class ShortLinks {
  readonly dir: string;

  constructor(private readonly root: string) {
    this.dir = path.join(root, "links");
  }

  /** Keeps the data and returns its id (the same id for the same data). */
  async save(data: string): Promise<string> {
    if (typeof data !== "string" || data.length > MAX_SHORT_LINK_DATA || !DATA.test(data)) throw new HostArgumentError("a short link keeps a SigLab link's data (\"1.<base64url>\", at most 64 KB)");
    const id = createHash("sha256").update(data).digest("base64url").slice(0, 16);
    const file = path.join(this.dir, `${id}.link`);
    if ((await this.read(id)) === data) return id;
    const count = (await fs.readdir(this.dir).catch(() => [] as string[])).filter((n) => n.endsWith(".link")).length;
    if (count >= MAX_SHORT_LINKS) throw new Error(`${this.dir}: holds ${MAX_SHORT_LINKS} short links already; delete some there, or share the long link`);
    await atomicWriteFile(file, data, { within: this.root });
    return id;
  }

  /** The data kept under `id`, or null when there is none (never follows a link planted there). */
  async read(id: string): Promise<string | null> {
    if (!SHORT_LINK_ID.test(id)) throw new HostArgumentError("a short link's id is 16 letters, digits, - or _");
    let h: fs.FileHandle;
    try {
      h = await fs.open(path.join(this.dir, `${id}.link`), constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch {
      return null;
    }
    try {
      const st = await h.stat();
      if (!st.isFile() || st.size > MAX_SHORT_LINK_DATA) return null;
      const text = await h.readFile("utf8");
      return DATA.test(text) ? text : null;
    } finally {
      await h.close();
    }
  }
}
