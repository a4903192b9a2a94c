/**
 * The workload pane: the document's title, a banner (read-only example, recovered edits, an opened
 * link or bundle), the CPU note, the line saying what could not be read from the text, and the
 * Monaco editor.
 */
import { monaco } from "../monaco-setup.js";
import { clear, h } from "./dom.js";

export class EditorPane {
  readonly title = h("span.doc-title#doc-title");
  readonly banner = h("div.banner#doc-banner", { hidden: true });
  /** one line when the open workload's parameters could not be read from its text (a syntax error, no workload) */
  readonly inspectStatus = h("div.inspect-status#inspect-status", { role: "status", "aria-live": "polite", hidden: true });
  private readonly host = h("div.editor#editor");
  readonly el: HTMLElement;
  editor!: monaco.editor.IStandaloneCodeEditor;

  constructor(cpuNote: HTMLElement) {
    this.el = h("section.workload-view#workload-view", null, h("div.doc-bar", null, this.title, h("span.spacer")), this.banner, cpuNote, this.inspectStatus, this.host);
  }

  /** Creates the editor (once the pane is in the page); Ctrl/Cmd+Enter runs, Ctrl/Cmd+S saves. */
  mount(keys: { run(): void; save(): void }): void {
    this.editor = monaco.editor.create(this.host, { automaticLayout: true, minimap: { enabled: false }, fontSize: 13, scrollBeyondLastLine: false, tabSize: 2 });
    this.editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, keys.run);
    this.editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, keys.save);
  }

  setBanner(...nodes: Node[]): void {
    this.banner.append(...nodes);
    this.banner.hidden = false;
  }

  clearBanner(): void {
    clear(this.banner);
    this.banner.hidden = true;
  }

  showInspectStatus(text: string | null, kind?: string): void {
    this.inspectStatus.hidden = text === null;
    this.inspectStatus.textContent = text ?? "";
    if (kind) this.inspectStatus.dataset.kind = kind;
    else delete this.inspectStatus.dataset.kind;
  }
}
