/**
 * What the host lists, in one place: the host's info, examples (built-in, and those in enabled
 * third-party plugins' examples/ folders), variant-stack presets, CPU profiles, plugins, the user's
 * workloads, drafts and recent experiments. Every pane reads them from here; only this class asks
 * the host for them again.
 */
import { BundlePlugins } from "../run/bundle-plugins.js";
import type { Draft, ExampleEntry, HostApi, HostInfo, PluginCode, PluginEntry, PresetEntry, ProfileEntry, RecentExperiment, WorkloadFile } from "../../common/host-api.js";

export class Catalog {
  info!: HostInfo;
  examples: ExampleEntry[] = [];
  /** examples shipped in third-party plugins' examples/ folders (enabled plugins only) */
  pluginExamples: ExampleEntry[] = [];
  presets: PresetEntry[] = [];
  profiles: ProfileEntry[] = [];
  plugins: PluginEntry[] = [];
  workloads: WorkloadFile[] = [];
  drafts: Draft[] = [];
  recent: RecentExperiment[] = [];
  /** plugins carried by bundles opened in this session, once trusted (not installed: not in `plugins`) */
  readonly bundlePlugins = new BundlePlugins();

  constructor(private readonly host: HostApi) {}

  /** Everything, at start. */
  async load(): Promise<void> {
    const h = this.host;
    [this.info, this.examples, this.presets, this.profiles, this.plugins, this.workloads, this.drafts, this.recent] = await Promise.all([
      h.info(), h.listExamples(), h.listPresets(), h.listProfiles(), h.listPlugins(), h.listWorkloads(), h.listDrafts(), h.listRecent(),
    ]);
  }

  allExamples(): ExampleEntry[] {
    return [...this.examples, ...this.pluginExamples];
  }

  profileFile(id: string): ProfileEntry["profile"] | undefined {
    return this.profiles.find((p) => p.profile.id === id)?.profile;
  }

  async reloadPlugins(): Promise<void> {
    this.plugins = await this.host.listPlugins();
  }

  async reloadProfiles(): Promise<void> {
    this.profiles = await this.host.listProfiles();
  }

  async reloadDrafts(): Promise<void> {
    this.drafts = await this.host.listDrafts();
  }

  async reloadWorkloadsAndDrafts(): Promise<void> {
    [this.workloads, this.drafts] = await Promise.all([this.host.listWorkloads(), this.host.listDrafts()]);
  }

  /**
   * The example workloads of enabled third-party plugins (the .ts files of their examples/ folder,
   * read by the host as text), each suggesting its plugin as a variant stack. An id already taken
   * by a built-in example keeps the built-in one.
   */
  async refreshPluginExamples(): Promise<void> {
    const taken = new Set(this.examples.map((e) => e.id));
    const out: ExampleEntry[] = [];
    for (const p of this.plugins.filter((x) => x.origin === "third-party" && x.status === "ok" && x.enabled)) {
      let code: PluginCode;
      try {
        code = await this.host.readPluginCode(p.id);
      } catch {
        continue; // listed as refused or gone: the Plugins view says why
      }
      for (const [rel, source] of Object.entries(code.examples ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
        const id = rel.replace(/^.*\//, "").replace(/\.ts$/, "");
        if (taken.has(id)) continue;
        taken.add(id);
        const title = /name:\s*"([^"]+)"/.exec(source)?.[1] ?? id;
        out.push({ id, title: `${title} (${p.id})`, file: `${p.id}/${rel}`, source, suggestedVariants: [{ id: p.id }] });
      }
    }
    this.pluginExamples = out;
  }
}
