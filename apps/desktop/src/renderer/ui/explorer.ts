/**
 * The explorer (sidebar): examples, the user's workloads and unsaved drafts, recent experiments,
 * plugins and CPU profiles, each an entry that opens it. Drawn from the catalog on every change.
 */
import type { Draft, RecentExperiment } from "../../common/host-api.js";
import type { Catalog } from "../state/catalog.js";
import { clear, h } from "./dom.js";

export interface ExplorerActions {
  openExample(id: string): void;
  openUser(name: string): void;
  openDraft(d: Draft): void;
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
        ...c.drafts.filter((d) => d.key.startsWith("new:")).map((d) => item(`${d.key.slice(4)} (unsaved)`, { "data-draft": d.key, onclick: () => a.openDraft(d) }, open === d.key)),
      ], h("button.icon", { title: "New workload", "aria-label": "New workload", onclick: () => a.newWorkload() }, "+")),
      section("Recent experiments", c.recent.slice(0, 10).map((r) => item(r.title, { "data-recent": r.id, title: r.summary ?? "", onclick: () => a.openRecent(r) }))),
      section("Plugins", c.plugins.map((p) => item(p.manifest?.displayName ?? p.id, { "data-plugin-link": p.id, onclick: () => a.showPlugins() }, false, p.status === "refused" ? h("span.warn", null, " refused") : !p.enabled ? h("span.muted", null, " off") : null))),
      section("CPU profiles", c.profiles.map((p) => item(p.profile.name, { "data-profile-link": p.profile.id, onclick: () => a.showProfile(p.profile.id) }, false, p.origin === "user" ? h("span.tag", null, "mine") : null))),
    );
  }
}
