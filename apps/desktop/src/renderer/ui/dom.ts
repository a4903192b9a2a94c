/** A tiny DOM builder: h("div.card", { onclick }, ...children). Text is always set as text. */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, unknown>;

/** "button.primary#run" → "button" */
type TagOf<S extends string> = S extends `${infer T}.${string}` ? TagOf<T> : S extends `${infer T}#${string}` ? TagOf<T> : S;
type ElementOf<S extends string> = TagOf<S> extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[TagOf<S>] : HTMLElement;

export function h<S extends string>(tag: S, attrs?: Attrs | null, ...children: (Child | Child[])[]): ElementOf<S> {
  const name = /^[a-z0-9]+/.exec(tag)![0];
  const el = document.createElement(name) as ElementOf<S>;
  for (const [, sigil, value] of tag.slice(name.length).matchAll(/([.#])([^.#]+)/g)) {
    if (sigil === "#") el.id = value!;
    else el.classList.add(value!);
  }
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v as EventListener);
    else if (k === "class") el.className += (el.className ? " " : "") + String(v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k in el && typeof v !== "string") (el as unknown as Record<string, unknown>)[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

export function clear(el: Element): void {
  while (el.firstChild) el.firstChild.remove();
}

export function fmt(n: number, digits = 1): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 1e6) return n.toExponential(3);
  return Number.isInteger(n) ? n.toLocaleString("en-US") : n.toLocaleString("en-US", { maximumFractionDigits: digits });
}

/** Transient status message at the bottom of the window. */
export function toast(message: string, kind: "info" | "error" = "info"): void {
  const el = h("div.toast", { role: kind === "error" ? "alert" : "status", class: kind }, message);
  document.body.append(el);
  setTimeout(() => el.remove(), kind === "error" ? 8000 : 4000);
}
