/**
 * The figure view of the LMbench summary: the grouped bar chart `siglab summary --plot` writes
 * (@siglab/core/figure draws both), shown as an image and exported as SVG, as PNG at slide
 * resolution (the SVG drawn on a 1920×1080 canvas) and as the data behind it (CSV).
 */
import { figureDataCsv, lmbenchFigure, renderBarFigure, SLIDE, type FigureDatum, type LmbenchFigureOptions, type LmbenchSummary, type RenderedFigure } from "@siglab/core/figure";
import { h, toast } from "../ui/dom.js";
import { svgToPng } from "../results/slide-export.js";

export type SaveExport = (name: string, data: string | Uint8Array) => Promise<void>;

export class FigurePanel {
  readonly el: HTMLElement;
  private readonly img: HTMLImageElement;
  private url: string | null = null;
  private rendered: RenderedFigure | null = null;
  private data: FigureDatum[] = [];

  constructor(private readonly save: SaveExport) {
    this.img = h("img#summary-figure-img", { alt: "The LMbench summary as a grouped bar chart (µs)", width: SLIDE.width, height: SLIDE.height }) as HTMLImageElement;
    const button = (id: string, label: string, title: string, fn: () => Promise<void>): HTMLElement => h(`button.small#${id}`, { title, onclick: () => void fn() }, label);
    this.el = h("figure.summary-figure#summary-figure", { hidden: true },
      h("figcaption", null, h("span", null, "Figure: simulated bars per variant stack, the measured figures hatched in black beside them (µs)"), h("span.spacer"),
        button("summary-figure-svg", "SVG", "Export the figure as SVG (1920×1080)", () => this.exportSvg()),
        button("summary-figure-png", "PNG", "Export the figure as PNG (1920×1080, for a slide)", () => this.exportPng()),
        button("summary-figure-data", "Data", "Export the data behind the figure (CSV, µs)", () => this.exportData())),
      this.img);
  }

  /** Draws the summary (nothing while it has no row). */
  set(summary: LmbenchSummary | null, opts: LmbenchFigureOptions): void {
    if (!summary || summary.rows.length === 0) {
      this.el.hidden = true;
      this.rendered = null;
      return;
    }
    const { figure, data } = lmbenchFigure(summary, opts);
    this.rendered = renderBarFigure(figure);
    this.data = data;
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = URL.createObjectURL(new Blob([this.rendered.svg], { type: "image/svg+xml" }));
    this.img.src = this.url;
    this.el.hidden = false;
  }

  /** The figure drawn (its SVG and layout), for tests. */
  get current(): RenderedFigure | null {
    return this.rendered;
  }

  private async exportSvg(): Promise<void> {
    if (!this.rendered) return toast("No figure yet: run the summary first", "error");
    await this.save("lmbench-summary.svg", this.rendered.svg);
  }

  private async exportData(): Promise<void> {
    if (!this.rendered) return toast("No figure yet: run the summary first", "error");
    await this.save("lmbench-summary.csv", figureDataCsv(this.data));
  }

  /** The SVG drawn on a canvas of the slide's size, as PNG bytes. */
  async png(): Promise<Uint8Array> {
    if (!this.rendered) throw new Error("no figure yet: run the summary first");
    return svgToPng(this.rendered.svg);
  }

  private async exportPng(): Promise<void> {
    try {
      await this.save("lmbench-summary.png", await this.png());
    } catch (err) {
      toast(`PNG export failed: ${(err as Error).message}`, "error");
    }
  }
}
