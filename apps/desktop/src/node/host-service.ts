/**
 * The host API's request methods implemented on the Node side, shared by the Electron main process
 * and the HTTP server. What differs between the two (dialogs, the system browser) comes in `HostUi`.
 */
import { PLUGIN_API_VERSION } from "@siglab/core/plugin-api";
import type { CpuProfileFile, RunResult } from "../common/contracts.js";
import type {
  CachedRunRequest,
  FileBytes,
  HostApi,
  HostInfo,
  HostKind,
  HostMethod,
  InstallOutcome,
  PluginEntry,
  PresetEntry,
  ProfileEntry,
  RecentExperiment,
  ResultCacheInfo,
  SaveOutcome,
} from "../common/host-api.js";
import { isAllowedExternalUrl } from "../common/url-policy.js";
import { HostArgumentError } from "../common/host-schema.js";
import { atomicWriteFile } from "./atomic.js";
import { type BuiltinCatalog, builtinCatalog } from "./catalog.js";
import { HostError, NotFoundError, WriteRefusedError } from "./host-errors.js";
import { checkExportName } from "./names.js";
import { checkExportSize, checkSourceSize, MAX_EXPORT_BYTES } from "./payload-limits.js";
import { installPluginFolder, readPluginCode, ReplaceNeedsConfirmation, scanPluginDir, type ReplaceQuestion } from "./plugin-folder.js";
import { installPluginArchive, readArchiveFile } from "./plugin-archive-install.js";
import type { PluginManifest } from "../common/contracts.js";
import { randomBytes } from "node:crypto";
import { AppRunCache } from "./run-cache.js";
import { ShortLinks } from "./short-links.js";
import { Workspace } from "./workspace.js";
import { promises as fs } from "node:fs";
import path from "node:path";

export interface HostUi {
  kind: HostKind;
  appVersion: string;
  /** A folder to install a plugin from; null when cancelled. */
  choosePluginFolder(): Promise<string | null>;
  /** A .siglab-plugin file to install; null when cancelled. Absent: the host's page picks the file (siglab serve). */
  choosePluginArchive?(): Promise<string | null>;
  /** Where to save an export or bundle; null when cancelled. */
  chooseSavePath(suggestedName: string, ws: Workspace): Promise<string | null>;
  /**
   * True when chooseSavePath already asked the user before replacing an existing file (Electron's
   * save dialog). Otherwise an existing file is never replaced: the host asks for another path.
   */
  overwriteConfirmed?: boolean;
  /** A bundle file to open; null when cancelled. */
  chooseBundleToOpen(): Promise<string | null>;
  /** Open a validated https URL outside the app; false when this host does not. */
  openExternal(url: string): Promise<boolean>;
  /** Tell renderers that the plugin list changed. */
  notifyPluginsChanged?(): void;
}

export type HostHandlers = { [M in HostMethod]: (...args: Parameters<HostApi[M]>) => ReturnType<HostApi[M]> };

export const MAX_BUNDLE_BYTES = MAX_EXPORT_BYTES;

/** How often the HTTP host picks a new unique name when a concurrent export took the last one. */
const SAVE_ATTEMPTS = 5;

export class HostService {
  readonly catalog: BuiltinCatalog;
  readonly runCache: AppRunCache;
  private readonly shortLinks: ShortLinks;

  constructor(
    readonly ws: Workspace,
    private readonly ui: HostUi,
    catalog?: BuiltinCatalog,
    /** rendererDir: the built renderer whose sandbox worker runs the app's runs (the result cache keys by it) */
    opts: { rendererDir?: string; runCache?: AppRunCache } = {},
  ) {
    this.catalog = catalog ?? builtinCatalog();
    this.runCache = opts.runCache ?? new AppRunCache(opts.rendererDir);
    this.shortLinks = new ShortLinks(ws.root);
  }

  async resultCacheInfo(): Promise<ResultCacheInfo> {
    const { resultCache } = await this.ws.readSettings();
    const i = this.runCache.info();
    return { enabled: resultCache !== false, folder: this.runCache.folder, entries: i.entries, bytes: i.bytes, maxBytes: i.maxBytes };
  }

  private builtinPluginIds(): Set<string> {
    return new Set(this.catalog.plugins.map((p) => p.id));
  }

  async listPlugins(): Promise<PluginEntry[]> {
    const { disabledPlugins } = await this.ws.readSettings();
    const disabled = new Set(disabledPlugins);
    const builtin: PluginEntry[] = this.catalog.plugins.map((m) => ({
      id: m.id, origin: "builtin", manifest: m, enabled: !disabled.has(m.id), status: "ok",
    }));
    const builtinIds = this.builtinPluginIds();
    const third: PluginEntry[] = (await scanPluginDir(this.ws.pluginDir, PLUGIN_API_VERSION)).map((s) => {
      const id = s.manifest?.id ?? s.folderName;
      const clash = !s.problem && builtinIds.has(id) ? `${s.folder}: id "${id}" is already used by a built-in plugin` : undefined;
      const reason = s.problem ?? clash;
      return {
        id, origin: "third-party", manifest: s.manifest, folder: s.folder,
        enabled: !reason && !disabled.has(id), status: reason ? "refused" : "ok", ...(reason ? { reason } : {}),
      };
    });
    return [...builtin, ...third];
  }

  /** The built-in presets, then those of enabled third-party plugins (an id already taken is left out). */
  async listPresets(): Promise<PresetEntry[]> {
    const presets = [...this.catalog.presets];
    for (const p of await this.listPlugins()) {
      if (p.origin !== "third-party" || !p.enabled) continue;
      for (const preset of p.manifest?.presets ?? []) {
        if (presets.some((x) => x.id === preset.id)) continue;
        presets.push({ id: preset.id, name: preset.name, description: preset.description, stack: preset.stack.map((v) => ({ ...v })) });
      }
    }
    return presets;
  }

  /** Installs waiting for the user's answer (replacing another version), by token: the folder or archive never travels to the renderer. */
  private readonly pendingReplace = new Map<string, { install: (confirmed?: ReplaceQuestion) => Promise<PluginManifest>; question: ReplaceQuestion }>();

  /**
   * Installs from an explicit folder (the HTTP host's route; Electron goes through the dialog). When
   * another version of the plugin is installed nothing is written: the outcome's `confirm` asks the
   * user, and confirmPluginReplace(confirm.token) installs it.
   */
  async installPlugin(folder: string, confirmed?: ReplaceQuestion): Promise<InstallOutcome> {
    return this.installWith((q) => installPluginFolder(folder, this.ws.pluginDir, PLUGIN_API_VERSION, this.builtinPluginIds(), q), confirmed);
  }

  /**
   * Installs a .siglab-plugin archive's bytes (`name`: the file as the user knows it), checked here
   * by core's plugin-archive whoever sent them; the replace question as for a folder.
   */
  async installPluginArchive(name: string, bytes: Uint8Array): Promise<InstallOutcome> {
    return this.installWith((q) => installPluginArchive(name, bytes, this.ws.pluginDir, this.builtinPluginIds(), q));
  }

  private async installWith(install: (confirmed?: ReplaceQuestion) => Promise<PluginManifest>, confirmed?: ReplaceQuestion): Promise<InstallOutcome> {
    try {
      const manifest = await install(confirmed);
      this.ui.notifyPluginsChanged?.();
      const entry = (await this.listPlugins()).find((p) => p.id === manifest.id);
      return { installed: true, ...(entry ? { entry } : {}) };
    } catch (err) {
      if (err instanceof ReplaceNeedsConfirmation) {
        const token = randomBytes(16).toString("hex");
        this.pendingReplace.clear(); // only the latest question can be answered
        this.pendingReplace.set(token, { install, question: err.question });
        return { installed: false, confirm: { ...err.question, token } };
      }
      return { installed: false, error: (err as Error).message };
    }
  }

  /** The user agreed to replace the installed version (the question of `token`): install it, unless the folder changed since. */
  async confirmPluginReplace(token: string): Promise<InstallOutcome> {
    const pending = this.pendingReplace.get(token);
    if (!pending) return { installed: false, error: "nothing to confirm: that replacement was already answered or has expired (install again)" };
    this.pendingReplace.delete(token);
    return this.installWith(pending.install, pending.question);
  }

  /**
   * Saves an export where the user (or the HTTP host) chose. Always atomic; symlinks and
   * non-regular targets are refused; inside the workspace no symlinked folder is followed; an
   * existing file is replaced only when the dialog confirmed it.
   */
  private async writeChosen(suggestedName: string, data: string | Uint8Array): Promise<SaveOutcome> {
    checkExportName(suggestedName);
    checkExportSize(suggestedName, data);
    const existing = this.ui.overwriteConfirmed ? "replace" : "create";
    for (let attempt = 1; ; attempt++) {
      const target = await this.ui.chooseSavePath(suggestedName, this.ws);
      if (!target) return { saved: false };
      const rel = path.relative(this.ws.root, path.resolve(target));
      const inWorkspace = !rel.startsWith("..") && !path.isAbsolute(rel);
      try {
        await atomicWriteFile(target, data, { existing, ...(inWorkspace ? { within: this.ws.root } : {}) });
        return { saved: true, path: target };
      } catch (err) {
        // another save took the unique name between choosing and writing: choose again
        const taken = err instanceof WriteRefusedError && err.code === "EEXIST";
        if (!taken || existing === "replace" || attempt >= SAVE_ATTEMPTS) throw err;
      }
    }
  }

  async profileEntries(): Promise<ProfileEntry[]> {
    const builtin: ProfileEntry[] = this.catalog.profiles.map((profile) => ({ origin: "builtin", profile }));
    const user: ProfileEntry[] = [];
    for (const u of await this.ws.listUserProfiles()) {
      if (u.profile) user.push({ origin: "user", profile: u.profile, fileName: u.fileName });
    }
    return [...builtin, ...user];
  }

  handlers(): HostHandlers {
    return {
      info: async (): Promise<HostInfo> => ({
        kind: this.ui.kind,
        appVersion: this.ui.appVersion,
        platform: process.platform,
        workspace: this.ws.root,
        pluginDir: this.ws.pluginDir,
        pluginApiVersion: PLUGIN_API_VERSION,
      }),
      listExamples: async () => this.catalog.examples,
      listPresets: async () => this.listPresets(),
      listProfiles: async () => this.profileEntries(),
      saveUserProfile: async (profile: CpuProfileFile) => {
        const saved = await this.ws.saveUserProfile(profile, new Set(this.catalog.profiles.map((p) => p.id)));
        return { origin: "user", profile: saved.profile, fileName: saved.fileName };
      },
      listPlugins: async () => this.listPlugins(),
      setPluginEnabled: async (id: string, enabled: boolean) => {
        const all = await this.listPlugins();
        if (!all.some((p) => p.id === id)) throw new HostArgumentError(`no plugin with id "${id}"`);
        const s = await this.ws.readSettings();
        const set = new Set(s.disabledPlugins);
        if (enabled) set.delete(id);
        else set.add(id);
        await this.ws.writeSettings({ ...s, disabledPlugins: [...set].sort() });
        return this.listPlugins();
      },
      installPluginFromFolder: async () => {
        const folder = await this.ui.choosePluginFolder();
        if (!folder) return { installed: false };
        return this.installPlugin(folder);
      },
      installPluginFromFile: async () => {
        if (!this.ui.choosePluginArchive) return { installed: false, error: "this host installs a plugin file chosen in the page" };
        const file = await this.ui.choosePluginArchive();
        if (!file) return { installed: false };
        let bytes: Uint8Array;
        try {
          bytes = await readArchiveFile(file);
        } catch (err) {
          return { installed: false, error: (err as Error).message };
        }
        return this.installPluginArchive(file, bytes);
      },
      confirmPluginReplace: async (token: string) => this.confirmPluginReplace(token),
      readPluginCode: async (id: string) => {
        const entry = (await this.listPlugins()).find((p) => p.id === id && p.origin === "third-party");
        if (!entry) throw new NotFoundError(`no third-party plugin with id "${id}" in ${this.ws.pluginDir}`);
        if (entry.status !== "ok") throw new HostError(409, entry.reason ?? `plugin "${id}" was refused`);
        return readPluginCode(this.ws.pluginDir, id, PLUGIN_API_VERSION);
      },
      listWorkloads: async () => this.ws.listWorkloads(),
      readWorkload: async (name: string) => this.ws.readWorkload(name),
      saveWorkload: async (name: string, source: string) => {
        checkSourceSize(name, source);
        return this.ws.saveWorkload(name, source);
      },
      saveDraft: async (key: string, source: string) => {
        checkSourceSize(key, source);
        return this.ws.saveDraft(key, source);
      },
      listDrafts: async () => this.ws.listDrafts(),
      discardDraft: async (key: string) => this.ws.discardDraft(key),
      listRecent: async () => this.ws.listRecent(),
      addRecent: async (entry: RecentExperiment) => this.ws.addRecent(entry),
      exportBundle: async (name: string, bytes: Uint8Array) => {
        if (!name.endsWith(".siglab")) throw new HostArgumentError(`bundle file name "${name}" must end in .siglab`);
        return this.writeChosen(name, bytes);
      },
      importBundle: async (): Promise<FileBytes | null> => {
        const file = await this.ui.chooseBundleToOpen();
        if (!file) return null;
        return readBundleFile(file);
      },
      saveExport: async (name: string, data: string | Uint8Array) => this.writeChosen(name, data),
      openExternal: async (url: string) => (isAllowedExternalUrl(url) ? this.ui.openExternal(url) : false),
      lookupRun: async (req: CachedRunRequest) => ((await this.ws.readSettings()).resultCache !== false ? (this.runCache.lookup(req) as (RunResult & { cached: true }) | null) : null),
      storeRun: async (req: CachedRunRequest, result: RunResult) => (await this.ws.readSettings()).resultCache !== false && this.runCache.store(req, result),
      resultCacheInfo: async () => this.resultCacheInfo(),
      setResultCacheEnabled: async (enabled: boolean) => {
        await this.ws.writeSettings({ ...(await this.ws.readSettings()), resultCache: enabled });
        return this.resultCacheInfo();
      },
      saveShortLink: async (data: string) => this.shortLinks.save(data),
      readShortLink: async (id: string) => this.shortLinks.read(id),
    };
  }
}

/** Reads a bundle file with a size cap (the worker validates its content). */
export async function readBundleFile(file: string): Promise<FileBytes> {
  const st = await fs.stat(file);
  if (!st.isFile()) throw new Error(`${file}: not a file`);
  if (st.size > MAX_BUNDLE_BYTES) throw new Error(`${file}: larger than ${MAX_BUNDLE_BYTES} bytes, refused`);
  return { name: path.basename(file), bytes: new Uint8Array(await fs.readFile(file)) };
}
