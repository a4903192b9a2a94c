/** CPU profiles: every number with its provenance; clone a profile and edit it as the user's own. */
import type { CpuProfileFile } from "../../common/contracts.js";
import type { ProfileEntry } from "../../common/host-api.js";
import { clear, h, toast } from "./dom.js";
import { askText } from "./modal.js";

const KINDS = ["sourced", "derived", "fitted", "estimated"];

export class ProfilesView {
  readonly el = h("section.profiles-view#profiles-view", { "aria-label": "CPU profiles" });
  private entries: ProfileEntry[] = [];
  private selected: string | null = null;
  private draft: CpuProfileFile | null = null;

  constructor(private readonly save: (p: CpuProfileFile) => Promise<void>) {}

  setEntries(entries: ProfileEntry[]): void {
    this.entries = entries;
    if (!this.selected || !entries.some((e) => e.profile.id === this.selected)) this.selected = entries[0]?.profile.id ?? null;
    this.render();
  }

  select(id: string): void {
    this.selected = id;
    this.draft = null;
    this.render();
  }

  private render(): void {
    clear(this.el);
    const list = h("nav.profile-list", null, this.entries.map((e) => h("button.list-item", { class: e.profile.id === this.selected ? "active" : "", onclick: () => this.select(e.profile.id) }, e.profile.name, e.origin === "user" ? h("span.tag", null, "mine") : null)));
    const entry = this.entries.find((e) => e.profile.id === this.selected);
    this.el.append(list, entry ? this.detail(entry) : h("p.empty", null, "No CPU profiles."));
  }

  private async clone(p: CpuProfileFile): Promise<void> {
    const taken = new Set(this.entries.map((e) => e.profile.id));
    const id = await askText("Clone profile", "Id of your copy (lower case, digits, - _ .):", `${p.id}-mine`, (v) =>
      !/^[A-Za-z0-9][A-Za-z0-9._+~-]{0,63}$/.test(v) ? "use letters, digits, - _ . + ~" : taken.has(v) ? `"${v}" exists already` : null);
    if (!id) return;
    const copy = JSON.parse(JSON.stringify(p)) as CpuProfileFile & Record<string, unknown>;
    copy.id = id;
    copy.name = `${p.name} (my copy)`;
    // A user profile is self-contained: drop inheritance and the loader's annotations.
    for (const k of ["inherits", "inheritedFrom", "abstract"]) delete copy[k];
    for (const group of [copy.costs, copy.geometry] as unknown as Record<string, Record<string, unknown>>[]) for (const e of Object.values(group)) delete e.inheritedFrom;
    await this.save(copy);
    this.selected = id;
  }

  private detail(entry: ProfileEntry): HTMLElement {
    const p = entry.origin === "user" && this.draft?.id === entry.profile.id ? this.draft : entry.profile;
    const editable = entry.origin === "user";
    const edit = (): CpuProfileFile => {
      if (!this.draft || this.draft.id !== p.id) this.draft = JSON.parse(JSON.stringify(entry.profile)) as CpuProfileFile;
      return this.draft;
    };
    const costs = Object.entries(p.costs).map(([op, c]) =>
      h("tr", null,
        h("td", null, h("code", null, op)),
        h("td.num", null, editable ? h("input.num", { type: "number", min: 0, value: String(c.cycles), "aria-label": `${op} cycles`, onchange: (e: Event) => { (edit().costs as Record<string, typeof c>)[op]!.cycles = Number((e.target as HTMLInputElement).value); } }) : String(c.cycles)),
        h("td", null, editable ? h("select", { onchange: (e: Event) => { (edit().costs as Record<string, typeof c>)[op]!.kind = (e.target as HTMLSelectElement).value as typeof c.kind; } }, KINDS.map((k) => h("option", { value: k, selected: k === c.kind }, k))) : h(`span.kind.${c.kind}`, null, c.kind)),
        h("td", null, editable ? h("input.text", { type: "text", value: c.source, "aria-label": `${op} source`, onchange: (e: Event) => { (edit().costs as Record<string, typeof c>)[op]!.source = (e.target as HTMLInputElement).value; } }) : c.source, c.fittedTo?.length ? h("div.muted", null, `fitted to: ${c.fittedTo.join(", ")}`) : null)));
    const geometry = Object.entries(p.geometry).map(([k, n]) => h("tr", null, h("td", null, k), h("td.num", null, String(n.value)), h("td", null, h(`span.kind.${n.kind}`, null, n.kind)), h("td", null, n.source)));
    const features = Object.entries(p.features).map(([k, v]) => h("span", { class: v ? "feature on" : "feature off" }, k));
    return h("div.profile-detail", { "data-profile": p.id },
      h("header", null, h("h2", null, p.name), h("span.muted", null, ` ${p.id} · ${p.vendor}${entry.origin === "user" ? ` · your profile (${entry.fileName ?? ""})` : " · built-in"}`)),
      h("p", null, p.description),
      h("div.actions", null,
        h("button", { onclick: () => void this.clone(p) }, "Clone as my profile…"),
        editable ? h("button.primary", { onclick: () => { const d = this.draft ?? entry.profile; void this.save(d).then(() => toast(`Saved profile ${d.id}`)); } }, "Save profile") : null),
      h("p", null, h("strong", null, "Clock: "), `${p.clock.defaultMhz} MHz default (${p.clock.minMhz}–${p.clock.maxMhz}), presets ${p.clock.presets.join(", ")}`),
      h("div.features", null, features),
      h("h3", null, "Geometry"),
      h("table.provenance", null, h("thead", null, h("tr", null, ["what", "value", "kind", "source"].map((c) => h("th", null, c)))), h("tbody", null, geometry)),
      h("h3", null, "Op costs (cycles) and where each number comes from"),
      h("table.provenance", null, h("thead", null, h("tr", null, ["op class", "cycles", "kind", "source"].map((c) => h("th", null, c)))), h("tbody", null, costs)),
    );
  }
}
