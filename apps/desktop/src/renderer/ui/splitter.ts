/**
 * A horizontal splitter between the editor area and the results pane: drag it (pointer), or focus
 * it and use the arrow keys (Home/End: smallest/largest). The height is reported to the app, which
 * remembers it across reloads.
 */
import { h } from "./dom.js";

export const MIN_RESULTS_PX = 90;
/** The editor area keeps at least this much of the window. */
export const MIN_EDITOR_PX = 160;

export function clampResultsHeight(px: number, windowHeight: number): number {
  const max = Math.max(MIN_RESULTS_PX, windowHeight - MIN_EDITOR_PX);
  return Math.round(Math.min(max, Math.max(MIN_RESULTS_PX, px)));
}

export function makeSplitter(opts: { root: HTMLElement; pane: HTMLElement; initial?: number; onResize(px: number): void }): HTMLElement {
  const apply = (px: number, save: boolean): void => {
    const v = clampResultsHeight(px, window.innerHeight);
    opts.root.style.setProperty("--results-h", `${v}px`);
    el.setAttribute("aria-valuenow", String(v));
    if (save) opts.onResize(v);
  };
  const el = h("div.splitter#results-splitter", {
    role: "separator", tabindex: "0", "aria-orientation": "horizontal", "aria-label": "Resize the results pane", "aria-valuemin": String(MIN_RESULTS_PX),
    title: "Drag to resize the results pane (arrow keys when focused)",
  });
  el.addEventListener("pointerdown", (e: PointerEvent) => {
    if (e.button !== 0) return;
    e.preventDefault();
    el.setPointerCapture(e.pointerId);
    const startY = e.clientY;
    const startH = opts.pane.getBoundingClientRect().height;
    el.classList.add("dragging");
    const move = (m: PointerEvent): void => apply(startH + (startY - m.clientY), false);
    const up = (u: PointerEvent): void => {
      el.releasePointerCapture(u.pointerId);
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
      el.classList.remove("dragging");
      apply(startH + (startY - u.clientY), true);
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
  });
  el.addEventListener("keydown", (e: KeyboardEvent) => {
    const cur = opts.pane.getBoundingClientRect().height;
    const step = e.shiftKey ? 80 : 20;
    const next = e.key === "ArrowUp" ? cur + step : e.key === "ArrowDown" ? cur - step : e.key === "Home" ? MIN_RESULTS_PX : e.key === "End" ? Number.MAX_SAFE_INTEGER : null;
    if (next === null) return;
    e.preventDefault();
    apply(next, true);
  });
  window.addEventListener("resize", () => {
    const cur = opts.pane.getBoundingClientRect().height;
    if (cur > 0 && opts.root.style.getPropertyValue("--results-h")) apply(cur, false);
  });
  if (opts.initial !== undefined) queueMicrotask(() => apply(opts.initial!, false));
  return el;
}
