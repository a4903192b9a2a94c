/**
 * The open documents: shipped examples (read-only), the user's workloads and new untitled ones,
 * each a Monaco model. Owns which document is open, autosaves edits as drafts, saves, and reads
 * the open workload's parameters from its text (never by running it).
 */
import type { HostApi } from "../../common/host-api.js";
import { monaco } from "../monaco-setup.js";
import { runErrorLine } from "../results/errors.js";
import { appWording, type SimClient } from "../sim-client.js";
import type { Catalog } from "../state/catalog.js";
import type { LocalState } from "../state/local-state.js";
import { h, toast } from "./dom.js";
import type { EditorPane } from "./editor-pane.js";
import { askText } from "./modal.js";
import type { RunConfigView } from "./run-config.js";

export interface Doc {
  key: string;
  kind: "example" | "user" | "new";
  /** example id, workload file name, or "untitled-N" */
  id: string;
  title: string;
  file: string;
  readOnly: boolean;
  saved: string;
  model: monaco.editor.ITextModel;
  /** Opened from a bundle: run under the bundle's workload id and file so results compare 1:1. */
  runAs?: { id: string; file: string };
}

const AUTOSAVE_MS = 700;

export const NEW_WORKLOAD = `import { workload, SIGUSR1 } from "siglab";

export default workload({
  name: "my workload",
  params: { iterations: 1000 },
  *main(t, { iterations }) {
    yield* t.sigaction(SIGUSR1, function* () {}, { flags: 0 });
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) yield* t.kill(t.pid, SIGUSR1);
    t.report("signal round trip", (t.rdtsc() - start) / iterations, "cycles");
  },
});
`;

export interface DocumentHooks {
  /** a document became the open one (the app shows the workload view, the explorer, the run configuration) */
  activated(): void;
  /** a variant stack was added from a banner */
  stackAdded(): void;
  /** the explorer's lists changed */
  listsChanged(): void;
}

export class Documents {
  private docs = new Map<string, Doc>();
  private open: Doc | null = null;
  private autosaveTimer: number | undefined;
  private inspectTimer: number | undefined;

  constructor(
    private readonly host: HostApi,
    private readonly catalog: Catalog,
    private readonly pane: EditorPane,
    private readonly runConfig: RunConfigView,
    private readonly local: LocalState,
    private readonly sim: SimClient,
    private readonly hooks: DocumentHooks,
  ) {}

  /** The open document, or null. */
  get current(): Doc | null {
    return this.open;
  }

  get(key: string): Doc | undefined {
    return this.docs.get(key);
  }

  get editor(): EditorPane["editor"] {
    return this.pane.editor;
  }

  private docFor(key: string, make: () => Omit<Doc, "model" | "key"> & { source: string; uri: string }): Doc {
    const existing = this.docs.get(key);
    if (existing) return existing;
    const d = make();
    const uri = monaco.Uri.parse(d.uri);
    const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(d.source, "typescript", uri);
    const doc: Doc = { key, kind: d.kind, id: d.id, title: d.title, file: d.file, readOnly: d.readOnly, saved: d.saved, model };
    model.onDidChangeContent(() => this.onEdit(doc));
    this.docs.set(key, doc);
    return doc;
  }

  private activate(doc: Doc, banner?: HTMLElement | null): void {
    this.open = doc;
    // each document keeps its own parameters (across reloads too)
    this.runConfig.state.params = this.local.paramsOf(doc.key);
    const editor = this.pane.editor;
    editor.setModel(doc.model);
    editor.updateOptions({ readOnly: doc.readOnly });
    this.pane.title.textContent = doc.title + (doc.readOnly ? " (read-only example)" : "");
    this.pane.title.dataset.key = doc.key;
    this.pane.clearBanner();
    if (doc.readOnly) this.pane.setBanner(h("span", null, "Examples are read-only. "), h("button.primary#save-as-mine", { onclick: () => void this.saveAs() }, "Save as my workload"));
    if (banner) this.pane.setBanner(banner);
    this.hooks.activated();
    this.scheduleInspect(0);
  }

  openExample(id: string): void {
    const e = this.catalog.allExamples().find((x) => x.id === id);
    if (!e) return;
    const doc = this.docFor(`example:${id}`, () => ({ kind: "example", id, title: e.title, file: e.file, readOnly: true, saved: e.source, source: e.source, uri: `file:///${e.file}` }));
    const wanted = e.suggestedVariants ?? [];
    const has = (v: { id: string }): boolean => this.runConfig.state.stacks.some((st) => st.variants.some((x) => x.id === v.id));
    const banner = wanted.length && !wanted.every(has)
      ? h("span", null, `This example is meant to be compared with ${wanted.map((v) => v.id).join(" + ")}. `,
          h("button#add-suggested", { onclick: () => { this.runConfig.state.stacks.push({ variants: wanted.map((v) => ({ ...v })) }); this.runConfig.render(); this.hooks.stackAdded(); } }, "Add that variant stack"))
      : null;
    this.activate(doc, banner);
  }

  async openUser(name: string): Promise<void> {
    const key = `user:${name}`;
    let doc = this.docs.get(key);
    let banner: HTMLElement | null = null;
    if (!doc) {
      const source = await this.host.readWorkload(name);
      doc = this.docFor(key, () => ({ kind: "user", id: name.replace(/\.ts$/, ""), title: name, file: `workloads/${name}`, readOnly: false, saved: source, source, uri: `file:///workloads/${name}` }));
      const draft = this.catalog.drafts.find((d) => d.key === key);
      if (draft && draft.source !== source) {
        doc.model.setValue(draft.source);
        banner = h("span", null, `Recovered unsaved changes from ${new Date(draft.savedAtMs).toLocaleString()}. `,
          h("button", { onclick: () => { doc!.model.setValue(doc!.saved); void this.host.discardDraft(key); this.pane.banner.hidden = true; } }, "Discard them"));
      }
    }
    this.activate(doc, banner);
  }

  openNew(source: string, key?: string, opts: { saveDraft?: boolean; banner?: HTMLElement } = {}): void {
    const k = key ?? `new:untitled-${Date.now().toString(36)}`;
    const id = k.slice(4);
    const doc = this.docFor(k, () => ({ kind: "new", id, title: `${id} (unsaved)`, file: `${id}.ts`, readOnly: false, saved: "", source, uri: `file:///new/${id}.ts` }));
    this.activate(doc, opts.banner ?? null);
    if (!key || opts.saveDraft) void this.host.saveDraft(k, source);
  }

  private onEdit(doc: Doc): void {
    if (doc.readOnly) return;
    window.clearTimeout(this.autosaveTimer);
    this.autosaveTimer = window.setTimeout(() => {
      const source = doc.model.getValue();
      if (source === doc.saved && doc.kind === "user") void this.host.discardDraft(doc.key);
      else void this.host.saveDraft(doc.key, source).then(() => (document.body.dataset.autosaved = doc.key));
    }, AUTOSAVE_MS);
    if (doc === this.open) this.scheduleInspect(500);
  }

  /** Reads the workload's default params from its text (never by running it). */
  private scheduleInspect(ms: number): void {
    window.clearTimeout(this.inspectTimer);
    this.inspectTimer = window.setTimeout(() => void this.readParams(), ms);
  }

  /**
   * Reads the open workload's parameters from its text in the compile worker (workload-outline.ts):
   * nothing of a document or a shared link runs before Run (issue 30). A syntax error, a missing
   * workload or parameters computed by code are shown as one line above the editor; params keep
   * their last good values when nothing could be read.
   */
  async readParams(): Promise<void> {
    window.clearTimeout(this.inspectTimer);
    const doc = this.open;
    if (!doc) return;
    const source = doc.model.getValue();
    try {
      const outline = await this.sim.outline(source, doc.file);
      if (doc !== this.open || doc.model.getValue() !== source) return;
      if (!outline.problem) this.runConfig.setWorkloadParams(outline.params);
      const file = doc.file.split("/").pop()!;
      if (outline.syntax) this.pane.showInspectStatus(runErrorLine({ kind: "compile", message: `${file}:${outline.syntax.line}:${outline.syntax.column}: ${outline.syntax.message}`, file: doc.file, line: outline.syntax.line, column: outline.syntax.column }), "compile");
      else if (outline.problem) this.pane.showInspectStatus(`${file}: ${outline.problem}: the parameters cannot be shown`, "error");
      else if (outline.unread.length) this.pane.showInspectStatus(`${file}: ${outline.unread.join(", ")} ${outline.unread.length === 1 ? "is" : "are"} computed by the workload's code: it takes its own default when it runs (only constants can be shown before Run)`, "note");
      else this.pane.showInspectStatus(null);
    } catch (err) {
      if (doc === this.open) this.pane.showInspectStatus(appWording((err as Error).message), "error");
    }
  }

  async save(): Promise<void> {
    const doc = this.open;
    if (!doc) return;
    if (doc.kind !== "user") return this.saveAs();
    const source = doc.model.getValue();
    await this.host.saveWorkload(doc.title, source);
    doc.saved = source;
    await this.host.discardDraft(doc.key);
    this.catalog.drafts = this.catalog.drafts.filter((d) => d.key !== doc.key);
    toast(`Saved ${doc.title}`);
    this.hooks.listsChanged();
  }

  async saveAs(): Promise<void> {
    const doc = this.open;
    if (!doc) return;
    const base = doc.kind === "example" ? `${doc.id}_mine` : doc.kind === "new" ? "my_workload" : doc.id + "_copy";
    const name = await askText("Save as my workload", `File name in ${this.catalog.info.workspace}/workloads:`, `${base}.ts`, (v) =>
      /^[A-Za-z0-9][A-Za-z0-9_.-]{0,100}\.ts$/.test(v) && !v.includes("..") ? null : "use letters, digits, _ . - and end with .ts");
    if (!name) return;
    try {
      const source = doc.model.getValue();
      await this.host.saveWorkload(name, source);
      if (doc.kind === "new") {
        await this.host.discardDraft(doc.key);
        this.docs.delete(doc.key);
        doc.model.dispose();
      }
      this.docs.get(`user:${name}`)?.model.dispose();
      this.docs.delete(`user:${name}`);
      await this.catalog.reloadWorkloadsAndDrafts();
      await this.openUser(name);
      toast(`Saved ${name}`);
    } catch (err) {
      toast((err as Error).message, "error");
    }
  }

  /** The workload to run: the document's id and file (a bundle's own when opened from one) and its text. */
  workloadRef(doc: Doc): { id: string; file: string; source: string } {
    if (doc.runAs) return { ...doc.runAs, source: doc.model.getValue() };
    return { id: doc.id.replace(/[^A-Za-z0-9_.-]/g, "_"), file: doc.file, source: doc.model.getValue() };
  }
}
