/**
 * The ONE host API the renderer uses. Two implementations:
 *  - Electron: main process handlers (src/main) reached through the preload's contextBridge;
 *  - HTTP: `siglab serve` (src/server) reached with fetch + server-sent events.
 * Everything crossing it is plain, structured-clone-able data. The renderer never sees a host path
 * it can write to: names are validated and resolved inside the workspace by the host.
 */
import type {
  CpuProfileFile,
  ExperimentConfig,
  PluginManifest,
  RunResult,
  RunSpec,
} from "./contracts.js";
import type { HostLimits, PluginSource } from "@siglab/core/host";

export type HostKind = "electron" | "http";

export interface HostInfo {
  kind: HostKind;
  appVersion: string;
  /** process.platform of the host ("linux", "darwin", "win32"). */
  platform: string;
  /** Display path of the user workspace folder (default ~/.siglab). */
  workspace: string;
  /** Display path of the third-party plugin folder. */
  pluginDir: string;
  pluginApiVersion: string;
}

/** A shipped example workload (read-only in the editor). */
export interface ExampleEntry {
  id: string;
  title: string;
  /** e.g. "examples/lat_sig_catch.ts" */
  file: string;
  source: string;
  /** Plugins the example needs to show its point (e.g. sa_nofp_hazard → sa-nofp). */
  suggestedVariants?: { id: string; options?: Record<string, string | number | boolean> }[];
}

/** A named variant stack shipped with SigLab (e.g. "Linux 2.5.53 + SYSENTER"). */
export interface PresetEntry {
  id: string;
  name: string;
  description: string;
  stack: { id: string; options?: Record<string, string | number | boolean> }[];
}

export interface ProfileEntry {
  origin: "builtin" | "user";
  profile: CpuProfileFile;
  /** For user profiles: the file name inside <workspace>/profiles. */
  fileName?: string;
}

export interface PluginEntry {
  /** Manifest id, or the folder name when the manifest could not be read. */
  id: string;
  /**
   * "bundle": code an opened bundle carries, run after the user trusted it (renderer only, never
   * installed; run/bundle-plugins.ts).
   */
  origin: "builtin" | "third-party" | "bundle";
  /** null when the manifest is missing or unreadable (see reason). */
  manifest: PluginManifest | null;
  enabled: boolean;
  status: "ok" | "refused";
  /** Why the plugin was refused (bad manifest, incompatible API version, missing entry...). */
  reason?: string;
  /** Third-party: display path of its folder. */
  folder?: string;
}

/** A third-party plugin's code, handed to the simulation worker (the only place it runs). */
export interface PluginCode {
  id: string;
  manifest: PluginManifest;
  /** Entry file, relative to the plugin folder. */
  main: string;
  /** Relative path → source text of every .js/.mjs/.cjs/.json file the plugin ships (bounded). */
  files: Record<string, string>;
  /**
   * The plugin's example workloads: "examples/<name>.ts" → TypeScript source (text, shown in the
   * app's example list; run like any workload).
   */
  examples?: Record<string, string>;
}

export interface WorkloadFile {
  /** File name inside <workspace>/workloads, e.g. "my_sig_test.ts". */
  name: string;
  size: number;
  modifiedMs: number;
}

/** Unsaved editor contents, autosaved so they survive a crash or restart. */
export interface Draft {
  /** "example:<id>", "user:<name>" or "new:<n>" */
  key: string;
  source: string;
  savedAtMs: number;
}

export interface RecentExperiment {
  id: string;
  title: string;
  savedAtMs: number;
  /** Where the workload came from, so the explorer can reopen it. */
  workload: { kind: "example" | "user"; id: string };
  config: ExperimentConfig;
  /** One line for the explorer, e.g. "2 CPUs × 2 stacks, 0 findings". */
  summary?: string;
}

export interface FileBytes {
  name: string;
  bytes: Uint8Array;
}

export interface SaveOutcome {
  /** false when the user cancelled the dialog. */
  saved: boolean;
  /** Display path of the written file. */
  path?: string;
}

export interface InstallOutcome {
  /** false when cancelled, refused, or waiting for the user's confirmation. */
  installed: boolean;
  entry?: PluginEntry;
  /** Why the folder was refused (names the folder and the problem). */
  error?: string;
  /**
   * Another version of the plugin is installed: nothing was written. Ask the user ("replace
   * `id` installedVersion with version?") and, if they agree, call confirmPluginReplace(token).
   */
  confirm?: { id: string; installedVersion: string; version: string; token: string };
}

/** Commands the host's menus (or OS) send to the renderer. */
export const MENU_COMMANDS = [
  "new-workload",
  "save",
  "save-as",
  "run",
  "cancel",
  "export-bundle",
  "import-bundle",
  "export-csv",
  "export-trace",
  "install-plugin",
  "install-plugin-file",
  "show-workload",
  "show-profiles",
  "show-plugins",
  "show-summary",
  "about",
] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

export type HostEvent =
  | { type: "menu"; command: MenuCommand }
  | { type: "open-bundle"; file: FileBytes }
  | { type: "plugins-changed" };

/** A run in the renderer as the result cache keys it: its spec and what it is handed (never a bundle's run). */
export interface CachedRunRequest {
  spec: RunSpec;
  /** the third-party plugin code handed to the run */
  plugins: PluginSource[];
  /** the profiles handed to the run (the user's) */
  profiles: CpuProfileFile[];
  /** the renderer's execution-host limits, when not core's defaults */
  limits?: Partial<HostLimits>;
}

/** The result cache as the app shows it (a setting; `siglab cache info` in the CLI). */
export interface ResultCacheInfo {
  enabled: boolean;
  /** display path of the results folder */
  folder: string;
  entries: number;
  bytes: number;
  maxBytes: number;
}

export interface HostApi {
  info(): Promise<HostInfo>;

  listExamples(): Promise<ExampleEntry[]>;
  listPresets(): Promise<PresetEntry[]>;

  listProfiles(): Promise<ProfileEntry[]>;
  /** Validates and writes <workspace>/profiles/<id>.json atomically; refuses built-in ids. */
  saveUserProfile(profile: CpuProfileFile): Promise<ProfileEntry>;

  listPlugins(): Promise<PluginEntry[]>;
  setPluginEnabled(id: string, enabled: boolean): Promise<PluginEntry[]>;
  /** Asks the user for a folder (dialog / prompt), validates it and copies it into the plugin folder. */
  installPluginFromFolder(): Promise<InstallOutcome>;
  /**
   * Asks the user for a .siglab-plugin file (`siglab plugin pack`; dialog / file picker); the Node
   * side checks it whole (core plugin-archive: integrity, links, sizes, manifest, plugin API range)
   * and installs it into the plugin folder, with the same replace question as a folder.
   */
  installPluginFromFile(): Promise<InstallOutcome>;
  /** Replaces the installed plugin as the `confirm` of an InstallOutcome asked (its token; once). */
  confirmPluginReplace(token: string): Promise<InstallOutcome>;
  readPluginCode(id: string): Promise<PluginCode>;

  listWorkloads(): Promise<WorkloadFile[]>;
  readWorkload(name: string): Promise<string>;
  /** Atomic write of <workspace>/workloads/<name>; the name must end in .ts. */
  saveWorkload(name: string, source: string): Promise<WorkloadFile>;

  saveDraft(key: string, source: string): Promise<void>;
  listDrafts(): Promise<Draft[]>;
  discardDraft(key: string): Promise<void>;

  listRecent(): Promise<RecentExperiment[]>;
  addRecent(entry: RecentExperiment): Promise<RecentExperiment[]>;

  /** Save dialog for a .siglab bundle (Electron) / write into <workspace>/exports (HTTP). */
  exportBundle(suggestedName: string, bytes: Uint8Array): Promise<SaveOutcome>;
  /** Open dialog for a .siglab bundle; null when cancelled. */
  importBundle(): Promise<FileBytes | null>;
  /** CSV / PNG / SVG / JSON exports. Text is written as UTF-8. */
  saveExport(suggestedName: string, data: string | Uint8Array): Promise<SaveOutcome>;
  /** Opens an https: URL in the system browser after validation; false when refused. */
  openExternal(url: string): Promise<boolean>;

  /** The stored result of an identical run, with `cached: true`; null on a miss or with the cache off. */
  lookupRun(req: CachedRunRequest): Promise<(RunResult & { cached: true }) | null>;
  /** Stores a run's result (not one with an error); false when not stored (the cache off, a failure). */
  storeRun(req: CachedRunRequest, result: RunResult): Promise<boolean>;
  resultCacheInfo(): Promise<ResultCacheInfo>;
  /** The setting: runs read from and stored in the result cache, or not. */
  setResultCacheEnabled(enabled: boolean): Promise<ResultCacheInfo>;

  /**
   * Keeps a shared link's data ("1.<base64url>", what follows `#share=`) in the workspace and
   * returns its short id (`#s=<id>`; the same id for the same data).
   */
  saveShortLink(data: string): Promise<string>;
  /** The data kept under a short link's id, or null when this workspace has none. */
  readShortLink(id: string): Promise<string | null>;

  /** Push events (menus, bundles opened from the OS). Returns an unsubscribe function. */
  onEvent(listener: (e: HostEvent) => void): () => void;
}

/** The request/response methods (everything but onEvent), in one list for the preload and the HTTP client. */
export const HOST_METHODS = [
  "info",
  "listExamples",
  "listPresets",
  "listProfiles",
  "saveUserProfile",
  "listPlugins",
  "setPluginEnabled",
  "installPluginFromFolder",
  "installPluginFromFile",
  "confirmPluginReplace",
  "readPluginCode",
  "listWorkloads",
  "readWorkload",
  "saveWorkload",
  "saveDraft",
  "listDrafts",
  "discardDraft",
  "listRecent",
  "addRecent",
  "exportBundle",
  "importBundle",
  "saveExport",
  "openExternal",
  "lookupRun",
  "storeRun",
  "resultCacheInfo",
  "setResultCacheEnabled",
  "saveShortLink",
  "readShortLink",
] as const satisfies readonly Exclude<keyof HostApi, "onEvent">[];
export type HostMethod = (typeof HOST_METHODS)[number];

/** The single IPC channel for calls and the one for pushed events (Electron). */
export const IPC_CALL_CHANNEL = "siglab:call";
export const IPC_EVENT_CHANNEL = "siglab:event";

/** The renderer's origin inside Electron (custom protocol, never file://). */
export const APP_SCHEME = "siglab";
export const APP_ORIGIN = "siglab://app";

// Compile-time guard: every request method of HostApi is listed in HOST_METHODS.
type MissingMethods = Exclude<Exclude<keyof HostApi, "onEvent">, HostMethod>;
export const HOST_METHODS_COMPLETE: [MissingMethods] extends [never] ? true : false = true;
