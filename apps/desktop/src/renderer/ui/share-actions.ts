/**
 * "Copy link" and opening a link: the open workload, the run configuration and the seed in the
 * URL fragment (state/share.ts), restored into a new untitled document, never an existing one.
 */
import type { ExperimentConfig } from "../../common/contracts.js";
import type { HostApi } from "../../common/host-api.js";
import type { Catalog } from "../state/catalog.js";
import { fitToCatalog, type LocalState } from "../state/local-state.js";
import { decodeShare, encodeShare, findShareFragment, findShortLinkId, ShareError, type SharedConfig } from "../state/share.js";
import type { CpuNote } from "./cpu-note.js";
import type { Documents } from "./documents.js";
import { h, toast } from "./dom.js";
import { askText, showMessage } from "./modal.js";
import { restoredRunConfig } from "../state/restore.js";
import { defaultCpus, maxSecondsOf, smpOf, withSmp, type RunConfigView } from "./run-config.js";

export class ShareActions {
  /** the last link "Copy link" made (tests) */
  lastLink = "";

  constructor(
    private readonly host: HostApi,
    private readonly catalog: Catalog,
    private readonly documents: Documents,
    private readonly runConfig: RunConfigView,
    private readonly local: LocalState,
    private readonly cpuNote: CpuNote,
    private readonly listsChanged: () => void,
  ) {}

  /** Copies a link carrying the open workload, the run configuration and the seed (all in the fragment). */
  async copyLink(): Promise<void> {
    const fragment = await this.fragment();
    if (!fragment) return;
    // never the query string: the HTTP host's session token must not travel with a link
    const link = `${location.origin}${location.pathname}${fragment}`;
    await this.copy(link, `Link copied (${(link.length / 1024).toFixed(1)} KB): it holds the workload, the configuration and the seed, and opens in any SigLab (Open link…, or a browser where this SigLab is open). For another machine without SigLab's server, export a bundle.`);
  }

  /**
   * Copies a short link (`#s=<id>`): the link's data is kept in this workspace (node/short-links.ts),
   * so it opens in any browser profile that has opened this server's printed address, and nowhere else.
   */
  async copyShortLink(): Promise<void> {
    const fragment = await this.fragment();
    if (!fragment) return;
    let id: string;
    try {
      id = await this.host.saveShortLink(fragment.slice("#share=".length));
    } catch (err) {
      return toast(`Cannot make a short link: ${(err as Error).message}`, "error");
    }
    await this.copy(`${location.origin}${location.pathname}#s=${id}`, "Short link copied: it opens in a browser (any profile) that has opened the address siglab serve printed, on this machine; the long link or a bundle carries the experiment anywhere else.");
  }

  /** "#share=1.<data>" for the open workload and the run configuration, or null (said why). */
  private async fragment(): Promise<string | null> {
    const doc = this.documents.current;
    if (!doc) return null;
    let cfg: ExperimentConfig;
    try {
      cfg = this.runConfig.experiment(this.documents.workloadRef(doc));
    } catch (err) {
      toast(`Cannot make a link: ${(err as Error).message}`, "error");
      return null;
    }
    const config: SharedConfig = { cpus: cfg.cpus, stacks: cfg.stacks, params: cfg.params, seed: cfg.seed };
    if (cfg.sweep) config.sweep = cfg.sweep;
    if (cfg.timeline) config.timeline = true;
    const maxSeconds = maxSecondsOf(cfg);
    if (maxSeconds !== undefined) config.maxSeconds = maxSeconds;
    const repeat = this.runConfig.state.repeat ?? 1;
    if (repeat > 1) config.repeat = repeat;
    const name = (doc.kind === "user" ? doc.id : doc.kind === "example" ? doc.id : doc.id.replace(/-shared-[a-z0-9]+$/, "")).replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^[^A-Za-z0-9]+/, "").slice(0, 60) || "workload";
    try {
      return await encodeShare({ name, source: doc.model.getValue(), config });
    } catch (err) {
      toast(err instanceof ShareError ? `Cannot make a link: ${err.message}` : (err as Error).message, "error");
      return null;
    }
  }

  private async copy(link: string, said: string): Promise<void> {
    this.lastLink = link;
    try {
      await navigator.clipboard.writeText(link);
      toast(said);
    } catch {
      showMessage("Copy this link", h("textarea.link-text", { readonly: true, rows: 4, "aria-label": "Shareable link" }, link));
    }
  }

  async openLinkDialog(): Promise<void> {
    const text = await askText("Open link", "Paste a SigLab link (it opens in a new untitled workload):", "", (v) => (findShareFragment(v) || findShortLinkId(v) ? null : "this is not a SigLab link (it has no #share=… or #s=…)"));
    if (!text) return;
    const id = findShortLinkId(text);
    if (id) await this.openShortLink(id);
    else await this.openShared(findShareFragment(text)!);
  }

  /** Opens a short link's data kept in this workspace; says so when this workspace has none. */
  private async openShortLink(id: string): Promise<void> {
    let data: string | null;
    try {
      data = await this.host.readShortLink(id);
    } catch (err) {
      data = null;
      toast((err as Error).message, "error");
    }
    if (data === null) {
      document.body.dataset.linkError = String(Number(document.body.dataset.linkError ?? 0) + 1);
      showMessage("Cannot open this link", `This short link (${id}) is not kept by this SigLab: a short link opens only where it was made (the same siglab serve workspace). Ask for the long link, or for a bundle.`);
      return;
    }
    await this.openShared(data);
  }

  async openFromLocation(): Promise<void> {
    const data = findShareFragment(location.hash);
    const id = data === null ? findShortLinkId(location.hash) : null;
    if (data === null && id === null) return;
    // the link is consumed: a reload shows the new document (kept as the open one), not a second copy
    history.replaceState(null, "", `${location.pathname}${location.search}`);
    if (id !== null) await this.openShortLink(id);
    else await this.openShared(data!);
  }

  /** Restores a shared link into a new untitled document; never touches an existing one. */
  private async openShared(data: string): Promise<void> {
    let payload;
    try {
      payload = await decodeShare(data);
    } catch (err) {
      showMessage("Cannot open this link", err instanceof ShareError ? `This SigLab link cannot be opened: ${err.message}.` : (err as Error).message);
      document.body.dataset.linkError = String(Number(document.body.dataset.linkError ?? 0) + 1);
      return;
    }
    const c = payload.config;
    const fixed = fitToCatalog(c.cpus, c.stacks, this.catalog.profiles, this.catalog.plugins);
    const key = `new:${payload.name}-shared-${Date.now().toString(36)}`;
    this.local.rememberParams(key, c.params);
    const notes = fixed.notes.length ? ` Not available here: ${fixed.notes.join("; ")}.` : "";
    const banner = h("span#shared-banner", null, `Opened a shared link as a new workload (${payload.name}): ${fixed.cpus.length} CPU${fixed.cpus.length === 1 ? "" : "s"} × ${fixed.stacks.length} variant stack${fixed.stacks.length === 1 ? "" : "s"}, seed ${c.seed}. Press Run to run it.${notes}`);
    this.documents.openNew(payload.source, key, { banner });
    // CPUs this app has (with the link's CPUs per machine), or the default
    const cpus = fixed.cpus.length ? fixed.cpus.map((x) => withSmp(x, smpOf(c.cpus))) : defaultCpus(this.catalog.profiles);
    const state = restoredRunConfig({ ...c, cpus, stacks: fixed.stacks });
    if (smpOf(c.cpus) > 1) state.smp = smpOf(c.cpus);
    this.runConfig.setState(state);
    this.cpuNote.check();
    await this.catalog.reloadDrafts().catch(() => undefined);
    this.listsChanged();
    document.body.dataset.linkOpened = key;
  }
}
