/**
 * Consent to run a bundle's embedded third-party plugin code, remembered per content hash in the
 * user's config folder ($SIGLAB_HOME or ~/.siglab, trusted-plugins.json). A bundle's workload needs
 * no consent (it only ever runs inside the execution host); plugin code asks once: --trust-embedded,
 * or a yes at the terminal's prompt, records the hashes, and later runs of the same code go ahead.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { atomicWriteFile } from "./output.js";
import { oneLine, rawStderrStream } from "./terminal.js";

export interface TrustedPlugin {
  hash: string;
  id: string;
  version: string;
  /** when consent was given (ISO time) */
  at: string;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env["SIGLAB_HOME"]?.trim() ? resolve(env["SIGLAB_HOME"]) : join(homedir(), ".siglab");
}

const FILE = "trusted-plugins.json";

export function readTrusted(dir: string): { trusted: TrustedPlugin[]; warning?: string } {
  const path = join(dir, FILE);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { trusted: [] };
  }
  try {
    const j = JSON.parse(text) as { trusted?: unknown };
    const list = Array.isArray(j.trusted) ? j.trusted : [];
    return { trusted: list.filter((t): t is TrustedPlugin => !!t && typeof (t as TrustedPlugin).hash === "string" && /^[0-9a-f]{64}$/.test((t as TrustedPlugin).hash)) };
  } catch (e) {
    return { trusted: [], warning: `${path}: not valid JSON (${(e as Error).message}); no plugin is trusted until it is fixed or removed` };
  }
}

export function rememberTrusted(dir: string, add: Omit<TrustedPlugin, "at">[]): void {
  const { trusted, warning } = readTrusted(dir);
  if (warning) throw new Error(warning); // never overwrite a file we could not read
  const known = new Set(trusted.map((t) => t.hash));
  const at = new Date().toISOString();
  for (const p of add) if (!known.has(p.hash)) trusted.push({ ...p, at });
  mkdirSync(dir, { recursive: true });
  atomicWriteFile(join(dir, FILE), JSON.stringify({ version: 1, trusted }, null, 2) + "\n");
}

export interface ConsentIo {
  log(line: string): void;
  error(line: string): void;
  /** ask a yes/no question; undefined when nobody can answer (not a terminal) */
  ask?(question: string): Promise<boolean | undefined>;
}

/** Asks at the terminal when stdin and stderr are one. */
export async function askAtTerminal(question: string): Promise<boolean | undefined> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  // readline's own cursor sequences go past the output guard; the question is SigLab's text
  const rl = createInterface({ input: process.stdin, output: rawStderrStream(), terminal: true });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

/**
 * True when every embedded plugin may run: trusted before, or trusted now (flag or prompt).
 * Prints what is embedded and why it stops otherwise.
 */
export async function consentToEmbedded(bundleFile: string, embedded: { id: string; version: string; hash?: string }[], o: { trustEmbedded?: boolean; dir: string }, io: ConsentIo): Promise<boolean> {
  if (!embedded.length) return true;
  const { trusted, warning } = readTrusted(o.dir);
  if (warning) io.error(`warning: ${warning}`);
  const known = new Set(trusted.map((t) => t.hash));
  const fresh = embedded.filter((p) => !p.hash || !known.has(p.hash));
  for (const p of embedded) if (p.hash && known.has(p.hash)) io.log(oneLine(`embedded plugin ${p.id}@${p.version}: trusted earlier (sha256 ${p.hash})`));
  if (!fresh.length) return true;
  io.error(`${bundleFile}: embeds third-party plugin code:`);
  for (const p of fresh) io.error(`  ${oneLine(`${p.id}@${p.version}  sha256 ${p.hash ?? "(none)"}`)}`);
  let yes = o.trustEmbedded === true;
  if (!yes) {
    const answer = await io.ask?.("It runs only inside SigLab's sandbox (no files, no network, no other processes). Run it, and remember this code?");
    if (answer === undefined) {
      io.error(`To allow it, repeat with --trust-embedded (remembered in ${join(o.dir, FILE)}).`);
      return false;
    }
    yes = answer;
  }
  if (!yes) return false;
  const recordable = fresh.filter((p): p is typeof p & { hash: string } => !!p.hash);
  try {
    rememberTrusted(o.dir, recordable.map((p) => ({ hash: p.hash, id: p.id, version: p.version })));
    io.log(oneLine(`trusted from now on: ${recordable.map((p) => `${p.id}@${p.version}`).join(", ")} (${join(o.dir, FILE)})`));
  } catch (e) {
    io.error(`warning: consent not remembered: ${(e as Error).message}`);
  }
  return true;
}
