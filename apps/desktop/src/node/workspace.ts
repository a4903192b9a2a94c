/**
 * The user workspace folder (default ~/.siglab): workloads, drafts, user CPU profiles, recent
 * experiments, exports and settings. Every write is atomic and stays inside the workspace: a symlink
 * planted in it (a folder or a file) is refused, never followed. Shared by the Electron main process
 * and the HTTP server, so both hosts behave identically.
 */
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CpuProfileFile } from "../common/contracts.js";
import type { Draft, RecentExperiment, WorkloadFile } from "../common/host-api.js";
import { atomicWriteFile, readJsonFile } from "./atomic.js";
import { HostArgumentError } from "../common/host-schema.js";
import { NotFoundError } from "./host-errors.js";
import { checkDraftKey, checkExportName, checkWorkloadName, draftFileName } from "./names.js";
import { checkProfileFile } from "./profile-check.js";

export const MAX_RECENT = 20;

export interface Settings {
  disabledPlugins: string[];
  /** runs read from and stored in the result cache (node/run-cache.ts); absent: true */
  resultCache?: boolean;
}

/** Default workspace: $SIGLAB_HOME, else ~/.siglab. */
export function defaultWorkspaceDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SIGLAB_HOME && env.SIGLAB_HOME.trim() !== "" ? path.resolve(env.SIGLAB_HOME) : path.join(os.homedir(), ".siglab");
}

export class Workspace {
  readonly workloadsDir: string;
  readonly draftsDir: string;
  readonly profilesDir: string;
  readonly exportsDir: string;
  readonly pluginDir: string;
  private readonly recentFile: string;
  private readonly settingsFile: string;

  constructor(
    readonly root: string,
    pluginDir?: string,
  ) {
    this.workloadsDir = path.join(root, "workloads");
    this.draftsDir = path.join(root, "drafts");
    this.profilesDir = path.join(root, "profiles");
    this.exportsDir = path.join(root, "exports");
    this.pluginDir = pluginDir ? path.resolve(pluginDir) : path.join(root, "plugins");
    this.recentFile = path.join(root, "recent.json");
    this.settingsFile = path.join(root, "settings.json");
  }

  async ensure(): Promise<void> {
    for (const d of [this.workloadsDir, this.draftsDir, this.profilesDir, this.exportsDir, this.pluginDir]) {
      await fs.mkdir(d, { recursive: true });
    }
  }

  // ---- workloads --------------------------------------------------------------------------------
  async listWorkloads(): Promise<WorkloadFile[]> {
    const names = await readdirOrEmpty(this.workloadsDir);
    const out: WorkloadFile[] = [];
    for (const name of names.sort()) {
      if (!name.endsWith(".ts") || name.startsWith(".")) continue;
      const st = await fs.stat(path.join(this.workloadsDir, name));
      if (st.isFile()) out.push({ name, size: st.size, modifiedMs: st.mtimeMs });
    }
    return out;
  }

  async readWorkload(name: string): Promise<string> {
    const file = path.join(this.workloadsDir, checkWorkloadName(name));
    try {
      return await fs.readFile(file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new NotFoundError(`workload "${name}" does not exist in ${this.workloadsDir}`);
      throw err;
    }
  }

  async saveWorkload(name: string, source: string): Promise<WorkloadFile> {
    const file = path.join(this.workloadsDir, checkWorkloadName(name));
    await this.write(file, source);
    const st = await fs.stat(file);
    return { name, size: st.size, modifiedMs: st.mtimeMs };
  }

  // ---- drafts (autosave / recovery) -------------------------------------------------------------
  async saveDraft(key: string, source: string): Promise<void> {
    const draft: Draft = { key: checkDraftKey(key), source, savedAtMs: Date.now() };
    await this.write(path.join(this.draftsDir, draftFileName(key)), JSON.stringify(draft));
  }

  async listDrafts(): Promise<Draft[]> {
    const out: Draft[] = [];
    for (const name of await readdirOrEmpty(this.draftsDir)) {
      if (!name.endsWith(".json") || name.startsWith(".")) continue;
      try {
        const d = await readJsonFile<Draft | null>(path.join(this.draftsDir, name), null);
        if (d && typeof d.key === "string" && typeof d.source === "string" && typeof d.savedAtMs === "number") out.push(d);
      } catch {
        // A damaged draft is skipped, never fatal: the saved workload is still intact.
      }
    }
    return out.sort((a, b) => a.key.localeCompare(b.key));
  }

  async discardDraft(key: string): Promise<void> {
    await fs.rm(path.join(this.draftsDir, draftFileName(key)), { force: true });
  }

  // ---- user CPU profiles ------------------------------------------------------------------------
  async listUserProfiles(): Promise<{ fileName: string; profile?: CpuProfileFile; error?: string }[]> {
    const out: { fileName: string; profile?: CpuProfileFile; error?: string }[] = [];
    for (const fileName of (await readdirOrEmpty(this.profilesDir)).sort()) {
      if (!fileName.endsWith(".json") || fileName.startsWith(".")) continue;
      const file = path.join(this.profilesDir, fileName);
      try {
        const raw = await readJsonFile<unknown>(file, null);
        out.push({ fileName, profile: checkProfileFile(raw, file) });
      } catch (err) {
        out.push({ fileName, error: (err as Error).message });
      }
    }
    return out;
  }

  async saveUserProfile(profile: unknown, builtinIds: ReadonlySet<string>): Promise<{ fileName: string; profile: CpuProfileFile }> {
    let checked: CpuProfileFile;
    try {
      checked = checkProfileFile(profile, "profile");
    } catch (err) {
      throw new HostArgumentError((err as Error).message); // bad content is a bad argument
    }
    if (builtinIds.has(checked.id)) {
      throw new HostArgumentError(`profile id "${checked.id}" is a built-in profile: give your copy a new id (e.g. "${checked.id}-mine")`);
    }
    const fileName = `${checked.id}.json`;
    await this.write(path.join(this.profilesDir, fileName), JSON.stringify(checked, null, 2) + "\n");
    return { fileName, profile: checked };
  }

  // ---- recent experiments -----------------------------------------------------------------------
  async listRecent(): Promise<RecentExperiment[]> {
    try {
      const list = await readJsonFile<unknown>(this.recentFile, []);
      return Array.isArray(list) ? (list as RecentExperiment[]) : [];
    } catch {
      return [];
    }
  }

  async addRecent(entry: RecentExperiment): Promise<RecentExperiment[]> {
    const list = (await this.listRecent()).filter((e) => e.id !== entry.id);
    list.unshift(entry);
    const trimmed = list.slice(0, MAX_RECENT);
    await this.write(this.recentFile, JSON.stringify(trimmed, null, 2));
    return trimmed;
  }

  // ---- settings ---------------------------------------------------------------------------------
  async readSettings(): Promise<Settings> {
    try {
      const s = await readJsonFile<Partial<Settings>>(this.settingsFile, {});
      return { disabledPlugins: Array.isArray(s.disabledPlugins) ? s.disabledPlugins.filter((x) => typeof x === "string") : [], resultCache: s.resultCache !== false };
    } catch {
      return { disabledPlugins: [], resultCache: true };
    }
  }

  async writeSettings(s: Settings): Promise<void> {
    await this.write(this.settingsFile, JSON.stringify(s, null, 2));
  }

  /** An atomic write that follows no symlink below the workspace root. */
  private write(file: string, data: string): Promise<void> {
    return atomicWriteFile(file, data, { within: this.root });
  }

  // ---- exports ----------------------------------------------------------------------------------
  /**
   * A path in <workspace>/exports for `name` that no file (or link) has yet. A concurrent export may
   * take it first: the caller writes with `existing: "create"` and asks again on EEXIST.
   */
  async uniqueExportPath(name: string): Promise<string> {
    checkExportName(name);
    await fs.mkdir(this.exportsDir, { recursive: true });
    const ext = path.extname(name);
    const base = name.slice(0, -ext.length);
    let candidate = path.join(this.exportsDir, name);
    for (let i = 1; await exists(candidate); i++) candidate = path.join(this.exportsDir, `${base} (${i})${ext}`);
    return candidate;
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

/** True when the name is taken, by anything (a dangling symlink too). */
async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}
