/**
 * The explorer (sidebar): examples, the user's workloads and unsaved ones (drafts, and this
 * session's untouched untitled documents) with Rename and Delete, recent experiments named by
 * what tells them apart, plugins and CPU profiles, each an entry that opens it. Drawn from the
 * catalog on every change.
 */
import type { Draft, RecentExperiment } from "../../common/host-api.js";
import type { Catalog } from "../state/catalog.js";
import { recentLabel } from "../state/recent.js";
import { clear, h } from "./dom.js";

export interface ExplorerActions {
  openExample(id: string): void;
  openUser(name: string): void;
  openDraft(d: Draft): void;
  /** an untitled document of this session that has no draft */
  reopen(key: string): void;
  renameUntitled(key: string): void;
  deleteUntitled(key: string): void;
  newWorkload(): void;
  openRecent(r: RecentExperiment): void;
  showPlugins(): void;
  showProfile(id: string): void;
}

export class Explorer {
  readonly el = h("nav.explorer#explorer", { "aria-label": "Explorer" });

  constructor(
    private readonly catalog: Catalog,
    private readonly actions: ExplorerActions,
    /** the open document's key */
    private readonly openKey: () => string | undefined,
    /** untitled documents of this session without a draft */
    private readonly transient: () => { key: string; title: string }[],
  ) {}

  render(): void {
    const c = this.catalog;
    const a = this.actions;
    const open = this.openKey();
    clear(this.el);
    const item = (label: string, attrs: Record<string, unknown>, active = false, extra?: Node | string | null): HTMLElement =>
      h("li", null, h("button.list-item", { ...attrs, class: active ? "active" : "" }, label, extra ?? null));
    const section = (title: string, items: HTMLElement[], action?: HTMLElement): HTMLElement =>
      h("section", null, h("h3", null, title, action ?? null), h("ul", null, items.length ? items : h("li.muted", null, "none")));
    const draftKeys = new Set(c.drafts.map((d) => d.key));
    this.el.append(
      section("Examples", c.allExamples().map((e) => item(e.title, { "data-example": e.id, title: e.file, onclick: () => a.openExample(e.id) }, open === `example:${e.id}`))),
      section("My workloads", [
        ...c.workloads.map((w) => item(w.name, { "data-workload": w.name, onclick: () => a.openUser(w.name) }, open === `user:${w.name}`, draftKeys.has(`user:${w.name}`) ? h("span.dot", { title: "unsaved changes recovered" }, " ●") : null)),
        ...c.drafts.filter((d) => d.key.startsWith("new:")).map((d) => this.untitled(d.key, open === d.key, () => a.openDraft(d))),
        ...this.transient().map((t) => this.untitled(t.key, open === t.key, () => a.reopen(t.key))),
      ], h("button.icon", { title: "New workload", "aria-label": "New workload", onclick: () => a.newWorkload() }, "+")),
      section("Recent experiments", c.recent.slice(0, 10).map((r) => {
        const { title, detail } = recentLabel(r, c.profiles.map((p) => p.profile));
        return h("li", null, h("button.list-item.recent", { "data-recent": r.id, title: `${title}: ${detail}${r.summary ? ` (${r.summary})` : ""}`, onclick: () => a.openRecent(r) }, h("span.recent-title", null, title), h("span.recent-detail", null, detail)));
      })),
      section("Plugins", c.plugins.map((p) => item(p.manifest?.displayName ?? p.id, { "data-plugin-link": p.id, onclick: () => a.showPlugins() }, false, p.status === "refused" ? h("span.warn", null, " refused") : !p.enabled ? h("span.muted", null, " off") : null))),
      section("CPU profiles", c.profiles.map((p) => item(p.profile.name, { "data-profile-link": p.profile.id, onclick: () => a.showProfile(p.profile.id) }, false, p.origin === "user" ? h("span.tag", null, "mine") : null))),
    );
  }

  /** An unsaved workload's entry: opens it; Rename and Delete beside it. */
  private untitled(key: string, active: boolean, open: () => void): HTMLElement {
    const name = key.slice(4);
    const a = this.actions;
    return h("li.with-actions", null,
      h("button.list-item", { "data-draft": key, class: active ? "active" : "", onclick: open }, `${name} (unsaved)`),
      h("button.icon.item-action", { title: `Rename ${name}`, "aria-label": `Rename ${name}`, "data-rename": key, onclick: () => a.renameUntitled(key) }, "✎"),
      h("button.icon.item-action", { title: `Delete ${name}`, "aria-label": `Delete ${name}`, "data-delete": key, onclick: () => a.deleteUntitled(key) }, "×"));
  }
}
