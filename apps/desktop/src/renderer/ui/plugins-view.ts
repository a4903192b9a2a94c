/** Plugins: built-in and third-party, their manifests, enable/disable, install, why refused. */
import type { PluginEntry } from "../../common/host-api.js";
import { clear, h } from "./dom.js";

export interface PluginsActions {
  setEnabled(id: string, enabled: boolean): Promise<void>;
  install(): Promise<void>;
  installFromFile(): Promise<void>;
}

export class PluginsView {
  readonly el = h("section.plugins-view#plugins-view", { "aria-label": "Plugins" });
  private entries: PluginEntry[] = [];

  constructor(private readonly actions: PluginsActions, private pluginDir = "") {}

  setEntries(entries: PluginEntry[], pluginDir?: string): void {
    this.entries = entries;
    if (pluginDir !== undefined) this.pluginDir = pluginDir;
    this.render();
  }

  private render(): void {
    clear(this.el);
    this.el.append(
      h("header", null, h("h2", null, "Plugins"), h("button.primary", { onclick: () => void this.actions.install(), "data-action": "install-plugin" }, "Install from folder…"), h("button", { onclick: () => void this.actions.installFromFile(), "data-action": "install-plugin-file", title: "A .siglab-plugin file made by `siglab plugin pack`" }, "Install from file…")),
      h("p.muted", null, `Third-party plugins live in ${this.pluginDir}. Plugin code only ever runs in the simulation sandbox.`),
      ...this.entries.map((p) => this.card(p)),
    );
  }

  private card(p: PluginEntry): HTMLElement {
    const m = p.manifest;
    const toggle = h("input", { type: "checkbox", checked: p.enabled, disabled: p.status !== "ok", "aria-label": `Enable ${p.id}`, onchange: (e: Event) => void this.actions.setEnabled(p.id, (e.target as HTMLInputElement).checked) });
    return h("article.plugin", { "data-plugin": p.id, "data-status": p.status },
      h("header", null, h("label", null, toggle, " ", h("strong", null, m?.displayName ?? p.id)), h("span.muted", null, ` ${p.id}${m ? ` ${m.version}` : ""} · ${p.origin}${m ? ` · plugin API ${m.apiVersion}` : ""}`)),
      p.status === "refused" ? h("p.refused", { role: "note" }, `Refused: ${p.reason ?? "unknown reason"}`) : null,
      m ? h("p", null, m.description) : null,
      m && Object.keys(m.options).length
        ? h("table.options", null, h("thead", null, h("tr", null, ["option", "type", "default", "description"].map((c) => h("th", null, c)))),
            h("tbody", null, Object.entries(m.options).map(([k, o]) => h("tr", null, h("td", null, h("code", null, k)), h("td", null, o.type === "enum" ? `enum: ${(o.values ?? []).join(" | ")}` : o.type), h("td", null, String(o.default)), h("td", null, o.description)))))
        : null,
      m ? h("p.muted", null, `Contributes: ${m.contributes.join(", ") || "—"}${m.replaces?.length ? ` · replaces: ${m.replaces.join(", ")}` : ""}`) : null,
      p.folder ? h("p.muted", null, p.folder) : null,
    );
  }
}
