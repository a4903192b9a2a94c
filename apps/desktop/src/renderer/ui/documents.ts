/**
 * The open documents: shipped examples (read-only), the user's workloads and new untitled ones,
 * each a Monaco model. Owns which document is open (kept across a reload), autosaves edits as
 * drafts — an untitled document gets a draft only once it is edited —, renames and deletes
 * drafts, saves, and reads the open workload's parameters from its text (never by running it).
 */
import type { HostApi } from "../../common/host-api.js";
import { monaco } from "../monaco-setup.js";
import { runErrorLine } from "../results/errors.js";
import { appWording, type SimClient } from "../sim-client.js";
import type { Catalog } from "../state/catalog.js";
import type { LocalState } from "../state/local-state.js";
import { h, toast } from "./dom.js";
import type { EditorPane } from "./editor-pane.js";
import { askConfirm, askText } from "./modal.js";
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
    // the open document chosen again (its sidebar entry, a reload's reopening): its banner stays
    const again = doc === this.open && !banner;
    this.open = doc;
    // each document keeps its own parameters (across reloads too)
    this.runConfig.state.params = this.local.paramsOf(doc.key);
    const editor = this.pane.editor;
    editor.setModel(doc.model);
    editor.updateOptions({ readOnly: doc.readOnly });
    this.pane.title.textContent = doc.title + (doc.readOnly ? " (read-only example)" : "");
    this.pane.title.dataset.key = doc.key;
    if (!again) this.pane.clearBanner();
    if (doc.readOnly && !again) this.pane.setBanner(h("span", null, "Examples are read-only. "), h("button.primary#save-as-mine", { onclick: () => void this.saveAs() }, "Save as my workload"));
    if (banner) this.pane.setBanner(banner);
    this.local.rememberOpenDoc(doc.key, doc.kind === "new" && !this.hasDraft(doc.key) ? doc.model.getValue() : undefined);
    this.hooks.activated();
    this.scheduleInspect(0);
  }

  private hasDraft(key: string): boolean {
    return this.catalog.drafts.some((d) => d.key === key);
  }

  /** Untitled documents of this session that have no draft (not edited): listed until the page goes. */
  transient(): { key: string; title: string }[] {
    return [...this.docs.values()].filter((d) => d.kind === "new" && !this.hasDraft(d.key)).map((d) => ({ key: d.key, title: d.id }));
  }

  /** Opens a document of this session again. */
  reopen(key: string): void {
    const doc = this.docs.get(key);
    if (doc) this.activate(doc);
  }

  /** Opens the document that was open before a reload; false when there is none to open. */
  async restoreOpen(): Promise<boolean> {
    const saved = this.local.openDoc();
    if (!saved) return false;
    const [kind, id] = [saved.key.slice(0, saved.key.indexOf(":")), saved.key.slice(saved.key.indexOf(":") + 1)];
    if (kind === "example" && this.catalog.allExamples().some((e) => e.id === id)) this.openExample(id);
    else if (kind === "user" && this.catalog.workloads.some((w) => w.name === id)) await this.openUser(id);
    else if (kind === "new") {
      const source = this.catalog.drafts.find((d) => d.key === saved.key)?.source ?? saved.source;
      if (source === undefined) return false;
      this.openNew(source, saved.key);
    } else return false;
    return true;
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

  /** Opens an untitled document (a draft is made only once it is edited: an untouched one leaves nothing behind). */
  openNew(source: string, key?: string, opts: { banner?: HTMLElement } = {}): void {
    const k = key ?? `new:untitled-${Date.now().toString(36)}`;
    const id = k.slice(4);
    const doc = this.docFor(k, () => ({ kind: "new", id, title: `${id} (unsaved)`, file: `${id}.ts`, readOnly: false, saved: "", source, uri: `file:///new/${id}.ts` }));
    this.activate(doc, opts.banner ?? null);
  }

  private onEdit(doc: Doc): void {
    if (doc.readOnly) return;
    window.clearTimeout(this.autosaveTimer);
    this.autosaveTimer = window.setTimeout(() => {
      const source = doc.model.getValue();
      if (source === doc.saved && doc.kind === "user") {
        void this.host.discardDraft(doc.key);
        this.setDraft(doc.key, null);
      } else {
        void this.host.saveDraft(doc.key, source).then(() => {
          this.setDraft(doc.key, source);
          document.body.dataset.autosaved = doc.key;
        });
      }
    }, AUTOSAVE_MS);
    if (doc === this.open) this.scheduleInspect(500);
  }

  /** Keeps the catalog's drafts in step with what was saved (null: discarded); the explorer is redrawn when one comes or goes. */
  private setDraft(key: string, source: string | null): void {
    const had = this.hasDraft(key);
    this.catalog.drafts = [...this.catalog.drafts.filter((d) => d.key !== key), ...(source === null ? [] : [{ key, source, savedAtMs: Date.now() }])].sort((a, b) => a.key.localeCompare(b.key));
    if (had !== (source !== null)) this.hooks.listsChanged();
  }

  /** Deletes an untitled document and its draft (asks first when it has text of its own). */
  async deleteUntitled(key: string): Promise<void> {
    const doc = this.docs.get(key);
    const name = key.slice(4);
    if (this.hasDraft(key) && !(await askConfirm("Delete unsaved workload", `Delete ${name}? Its text is not saved anywhere else.`, "Delete"))) return;
    await this.host.discardDraft(key);
    this.setDraft(key, null);
    if (doc) {
      this.docs.delete(key);
      if (doc === this.open) {
        this.open = null;
        const first = this.catalog.allExamples()[0];
        if (first) this.openExample(first.id);
      }
      doc.model.dispose();
    }
    this.hooks.listsChanged();
  }

  /** Gives an untitled document a name of its own: its draft, parameters and errors follow. */
  async renameUntitled(key: string): Promise<void> {
    const old = key.slice(4);
    const name = await askText("Rename workload", "New name (letters, digits, _ . -):", old, (v) => {
      if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,100}$/.test(v) || v.includes("..")) return "use letters, digits, _ . - (starting with a letter or digit)";
      return v !== old && (this.docs.has(`new:${v}`) || this.hasDraft(`new:${v}`)) ? `there is already an unsaved workload ${v}` : null;
    });
    if (!name || name === old) return;
    const to = `new:${name}`;
    const doc = this.docs.get(key);
    const source = doc?.model.getValue() ?? this.catalog.drafts.find((d) => d.key === key)?.source ?? "";
    await this.host.saveDraft(to, source);
    await this.host.discardDraft(key);
    this.local.rememberParams(to, this.local.paramsOf(key));
    this.setDraft(key, null);
    this.setDraft(to, source);
    const wasOpen = doc !== undefined && doc === this.open;
    if (doc) {
      this.docs.delete(key);
      const renamed = this.docFor(to, () => ({ kind: "new", id: name, title: `${name} (unsaved)`, file: `${name}.ts`, readOnly: false, saved: "", source, uri: `file:///new/${name}.ts` }));
      if (doc.runAs) renamed.runAs = doc.runAs;
      if (wasOpen) this.activate(renamed);
      doc.model.dispose();
    }
    this.hooks.listsChanged();
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
