/** Minimal modal dialogs (Electron has no window.prompt). */
import { h } from "./dom.js";

export function askText(title: string, label: string, initial: string, validate?: (v: string) => string | null): Promise<string | null> {
  return new Promise((resolve) => {
    const input = h("input.text", { type: "text", value: initial, "aria-label": label, spellcheck: "false" });
    const error = h("div.modal-error", { role: "alert" });
    const close = (v: string | null): void => {
      overlay.remove();
      resolve(v);
    };
    const ok = (): void => {
      const v = input.value.trim();
      const problem = validate?.(v) ?? (v === "" ? "required" : null);
      if (problem) {
        error.textContent = problem;
        return;
      }
      close(v);
    };
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") ok();
      if (e.key === "Escape") close(null);
    });
    const overlay = h(
      "div.modal-overlay",
      null,
      h(
        "div.modal",
        { role: "dialog", "aria-modal": "true", "aria-label": title },
        h("h2", null, title),
        h("label", null, label, input),
        error,
        h("div.modal-buttons", null, h("button", { onclick: () => close(null) }, "Cancel"), h("button.primary", { onclick: ok, "data-testid": "modal-ok" }, "OK")),
      ),
    );
    document.body.append(overlay);
    input.focus();
    input.select();
  });
}

export function showMessage(title: string, body: string | Node): void {
  const overlay = h(
    "div.modal-overlay",
    null,
    h("div.modal", { role: "dialog", "aria-modal": "true", "aria-label": title }, h("h2", null, title), typeof body === "string" ? h("p", null, body) : body, h("div.modal-buttons", null, h("button.primary", { onclick: () => overlay.remove() }, "Close"))),
  );
  document.body.append(overlay);
}

/** Asks yes or no; resolves true for `ok`. */
export function askConfirm(title: string, text: string, ok: string): Promise<boolean> {
  return new Promise((resolve) => {
    const close = (v: boolean): void => {
      overlay.remove();
      resolve(v);
    };
    const okButton = h("button.primary", { onclick: () => close(true), "data-testid": "modal-ok" }, ok);
    const overlay = h(
      "div.modal-overlay",
      null,
      h("div.modal", { role: "dialog", "aria-modal": "true", "aria-label": title, onkeydown: (e: KeyboardEvent) => e.key === "Escape" && close(false) },
        h("h2", null, title), h("p", null, text),
        h("div.modal-buttons", null, h("button", { onclick: () => close(false) }, "Cancel"), okButton)),
    );
    document.body.append(overlay);
    okButton.focus();
  });
}
