/**
 * The results pane's height: compact while editing, taking the room once there are results (a run,
 * an opened bundle), leaving the editor a few lines. Each is resizable with the splitter and
 * remembered on its own (the layout in local storage), so a drag made over results never shrinks
 * the editor before the next run, nor the other way round.
 */
import type { LocalState } from "../state/local-state.js";
import type { Splitter } from "./splitter.js";

export type PaneMode = "edit" | "results";

/** The defaults, as grid tracks: a fifth-and-more of the window while editing, most of it with results. */
const DEFAULT_TRACK: Record<PaneMode, string> = {
  edit: "minmax(150px, 30%)",
  results: "minmax(240px, 64%)",
};

export class PaneSizes {
  private mode: PaneMode = "edit";

  constructor(
    private readonly local: LocalState,
    private readonly splitter: Splitter,
  ) {}

  private get key(): "editHeight" | "resultsHeight" {
    return this.mode === "edit" ? "editHeight" : "resultsHeight";
  }

  /** Applies the current mode's height (at start, and on a mode change). */
  apply(): void {
    this.splitter.setHeight(this.local.layout[this.key] ?? DEFAULT_TRACK[this.mode]);
    document.body.dataset.resultsPane = this.mode;
  }

  show(mode: PaneMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.apply();
  }

  /** The user resized the pane: remembered for this mode. */
  resized(px: number): void {
    this.local.layout[this.key] = px;
    this.local.saveLayout();
  }
}
