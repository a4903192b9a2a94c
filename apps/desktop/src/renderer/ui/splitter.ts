/**
 * A horizontal splitter between the editor area and the results pane: drag it (pointer), or focus
 * it and use the arrow keys (Home/End: smallest/largest). The height is reported to the app, which
 * remembers it across reloads (ui/pane-sizes.ts).
 */
import { h } from "./dom.js";

export const MIN_RESULTS_PX = 90;
/** The editor area keeps at least this much of the window. */
export const MIN_EDITOR_PX = 160;

export function clampResultsHeight(px: number, windowHeight: number): number {
  const max = Math.max(MIN_RESULTS_PX, windowHeight - MIN_EDITOR_PX);
  return Math.round(Math.min(max, Math.max(MIN_RESULTS_PX, px)));
}

export interface Splitter {
  el: HTMLElement;
  /** Sets the pane's height: pixels (kept within the window), or a CSS grid track ("minmax(180px, 60%)"). */
  setHeight(height: number | string): void;
}

export function makeSplitter(opts: { root: HTMLElement; pane: HTMLElement; onResize(px: number): void }): Splitter {
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
    // a height in pixels stays within the new window; a proportional default follows it by itself
    if (cur > 0 && opts.root.style.getPropertyValue("--results-h").endsWith("px")) apply(cur, false);
  });
  return {
    el,
    setHeight: (height) => {
      if (typeof height === "number") apply(height, false);
      else {
        opts.root.style.setProperty("--results-h", height);
        el.removeAttribute("aria-valuenow");
      }
    },
  };
}
