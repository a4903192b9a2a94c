/**
 * A grouped bar chart as SVG text, with no DOM and no Node: the CLI writes it to a file, the app
 * shows it and exports it (SVG, and PNG through a canvas). Facets (one plot each, side by side, one
 * value scale) hold groups of bars; a bar belongs to a series (its colour and legend entry). Bars of
 * a measured series are hatched in black, never a palette colour, so a real machine's figure cannot
 * be read as a simulated one. The layout is computed here, with text widths measured by text.ts,
 * and returned with the SVG so tests can check it: legend outside the plots, labels that never
 * overlap (a value label is horizontal when it fits its bar's slot, else vertical, else left out).
 */
import { formatUs, niceTicks } from "./format.js";
import { PALETTE_NAME, seriesColor } from "./palette.js";
import { ellipsize, escapeXml, textWidth, wrapText } from "./text.js";

export interface BarSeries {
  id: string;
  label: string;
  /** a measured figure (a real machine's), drawn hatched in black */
  measured?: boolean;
}

export interface Bar {
  series: string;
  value: number | null;
  /** the bar's tooltip (its source, its run) */
  title?: string;
}

export interface BarGroup {
  label: string;
  bars: Bar[];
}

export interface BarFacet {
  label: string;
  groups: BarGroup[];
}

export interface BarFigure {
  title: string;
  subtitle?: string;
  /** what the value axis measures ("latency") */
  quantity: string;
  /** its unit ("µs"): on the axis and in every value label's tooltip */
  unit: string;
  series: BarSeries[];
  facets: BarFacet[];
  /** lines under the plots: sources, the command that drew it */
  notes?: string[];
}

export interface FigureSize {
  width: number;
  height: number;
}

/** A 16:9 slide at 1080p. */
export const SLIDE: FigureSize = { width: 1920, height: 1080 };

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface BarFigureLayout {
  /** each facet's plot area */
  plots: Box[];
  legend: Box;
  /** every text box drawn in or around the plots: value labels, group labels, facet titles, ticks */
  labels: { text: string; kind: "value" | "group" | "facet" | "tick" | "legend"; box: Box }[];
  /** value labels left out because no orientation fits their bar */
  valueLabelsOmitted: number;
}

export interface RenderedFigure {
  svg: string;
  layout: BarFigureLayout;
}

const FONT = "DejaVu Sans, Helvetica, Arial, sans-serif";
const INK = "#1a1a1a";
const GRID = "#d9d9d9";

const r1 = (n: number): number => Math.round(n * 10) / 10;

/** The colour of each series: measured series black, the others the palette in order. */
export function seriesColors(series: readonly BarSeries[]): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  for (const s of series) out.set(s.id, s.measured ? "#000000" : seriesColor(i++));
  return out;
}

export function renderBarFigure(fig: BarFigure, size: FigureSize = SLIDE): RenderedFigure {
  const { width: W, height: H } = size;
  const k = Math.min(W / 1920, H / 1080); // every size below is for 1920×1080, scaled
  const margin = 48 * k;
  const titleSize = 40 * k, subSize = 24 * k, legendSize = 24 * k, tickSize = 22 * k, axisSize = 26 * k, noteSize = 19 * k, facetSize = 26 * k;
  const colors = seriesColors(fig.series);
  const out: string[] = [];
  const labels: BarFigureLayout["labels"] = [];
  let y = margin;

  // title and subtitle
  out.push(`<text x="${r1(margin)}" y="${r1(y + titleSize * 0.8)}" font-size="${r1(titleSize)}" font-weight="bold" fill="${INK}">${escapeXml(ellipsize(fig.title, W - 2 * margin, titleSize, true))}</text>`);
  y += titleSize * 1.15;
  if (fig.subtitle) {
    for (const line of wrapText(fig.subtitle, W - 2 * margin, subSize, 2)) {
      out.push(`<text x="${r1(margin)}" y="${r1(y + subSize * 0.85)}" font-size="${r1(subSize)}" fill="#444">${escapeXml(line)}</text>`);
      y += subSize * 1.3;
    }
  }
  y += 14 * k;

  // legend: entries left to right, wrapped, above the plots (never inside them)
  const swatch = legendSize * 1.1, entryGap = 36 * k, rowH = legendSize * 1.6;
  const legendTop = y;
  let lx = margin;
  const maxEntry = W - 2 * margin - swatch - 10 * k;
  for (const s of fig.series) {
    const text = ellipsize(s.label, maxEntry, legendSize);
    const w = swatch + 10 * k + textWidth(text, legendSize);
    if (lx > margin && lx + w > W - margin) {
      lx = margin;
      y += rowH;
    }
    const sy = y + (rowH - swatch) / 2;
    out.push(swatchSvg(lx, sy, swatch, colors.get(s.id)!, s.measured === true));
    out.push(`<text x="${r1(lx + swatch + 10 * k)}" y="${r1(y + rowH / 2 + legendSize * 0.35)}" font-size="${r1(legendSize)}" fill="${INK}"${s.measured ? ` font-style="italic"` : ""}>${escapeXml(text)}</text>`);
    labels.push({ text, kind: "legend", box: { x: lx, y, w, h: rowH } });
    lx += w + entryGap;
  }
  y += rowH;
  const legend: Box = { x: margin, y: legendTop, w: W - 2 * margin, h: y - legendTop };
  y += 20 * k;

  // notes at the bottom
  const noteLines = (fig.notes ?? []).flatMap((n) => wrapText(n, W - 2 * margin, noteSize, 2));
  const notesTop = H - margin - noteLines.length * noteSize * 1.35;
  noteLines.forEach((line, i) => out.push(`<text x="${r1(margin)}" y="${r1(notesTop + (i + 0.8) * noteSize * 1.35)}" font-size="${r1(noteSize)}" fill="#444">${escapeXml(line)}</text>`));

  // the facets' plot areas: one value scale, the axis on the left
  const values = fig.facets.flatMap((f) => f.groups.flatMap((g) => g.bars.map((b) => b.value))).filter((v): v is number => v !== null && Number.isFinite(v));
  const groupLabelLines = 3;
  const bottomRoom = groupLabelLines * tickSize * 1.25 + 16 * k;
  const facetTitleRoom = fig.facets.length > 1 || fig.facets[0]?.label ? facetSize * 1.6 : 0;
  const plotTop = y + facetTitleRoom;
  const plotBottom = notesTop - 16 * k - bottomRoom;
  const axisRoom = axisSize * 1.6;
  let ticks = niceTicks(Math.max(...values, 0) * 1.05 || 1);
  const tickRoom = Math.max(...ticks.map((t) => textWidth(formatTick(t), tickSize))) + 14 * k;
  const left = margin + axisRoom + tickRoom;
  const right = W - margin;
  const facetGap = fig.facets.length > 1 ? 40 * k : 0;
  const facetW = (right - left - facetGap * (fig.facets.length - 1)) / Math.max(1, fig.facets.length);
  const plots: Box[] = fig.facets.map((_f, i) => ({ x: left + i * (facetW + facetGap), y: plotTop, w: facetW, h: plotBottom - plotTop }));

  // value labels: horizontal if the text fits the bar's slot, else vertical if the font fits it
  const valueSize = 20 * k;
  type Placed = { x: number; slot: number; bw: number; bar: Bar };
  const placed: Placed[] = [];
  fig.facets.forEach((f, fi) => {
    const gw = plots[fi]!.w / Math.max(1, f.groups.length);
    // one bar width in a facet: the fullest group sets it, the others are centred
    const most = Math.max(1, ...f.groups.map((g) => g.bars.length));
    const slot = (gw * 0.84) / most;
    const bw = slot * 0.86;
    f.groups.forEach((g, gi) => {
      const start = plots[fi]!.x + gi * gw + (gw - slot * g.bars.length) / 2;
      g.bars.forEach((b, bi) => placed.push({ x: start + bi * slot + (slot - bw) / 2, slot, bw, bar: b }));
    });
  });
  const orient = (p: Placed): "h" | "v" | null => {
    if (p.bar.value === null) return null;
    const tw = textWidth(formatUs(p.bar.value), valueSize);
    if (tw <= p.slot - 4 * k) return "h";
    if (valueSize * 1.2 <= p.slot) return "v";
    return null;
  };
  const labelHeight = (p: Placed): number => (orient(p) === "h" ? valueSize * 1.2 : orient(p) === "v" ? textWidth(formatUs(p.bar.value!), valueSize) + 4 * k : 0);
  // raise the scale until every label stands inside the plot above its bar
  let top = ticks.at(-1)!;
  const yOf = (v: number): number => plotBottom - (v / top) * (plotBottom - plotTop);
  for (let guard = 0; guard < 20; guard++) {
    const over = placed.some((p) => p.bar.value !== null && yOf(Math.max(0, p.bar.value)) - 6 * k - labelHeight(p) < plotTop);
    if (!over) break;
    const step = ticks[1]! - ticks[0]!;
    ticks = [...ticks, Number((ticks.at(-1)! + step).toPrecision(12))];
    top = ticks.at(-1)!;
  }

  // grid, ticks, axis title
  for (const t of ticks) {
    const ty = yOf(t);
    for (const p of plots) out.push(`<line x1="${r1(p.x)}" y1="${r1(ty)}" x2="${r1(p.x + p.w)}" y2="${r1(ty)}" stroke="${t === 0 ? INK : GRID}" stroke-width="${t === 0 ? 2 * k : 1 * k}"/>`);
    const text = formatTick(t);
    const tw = textWidth(text, tickSize);
    out.push(`<text x="${r1(left - 10 * k)}" y="${r1(ty + tickSize * 0.35)}" font-size="${r1(tickSize)}" text-anchor="end" fill="${INK}">${escapeXml(text)}</text>`);
    labels.push({ text, kind: "tick", box: { x: left - 10 * k - tw, y: ty - tickSize * 0.6, w: tw, h: tickSize * 1.2 } });
  }
  const axisTitle = `${fig.quantity} (${fig.unit})`;
  out.push(`<text transform="translate(${r1(margin + axisSize * 0.9)},${r1((plotTop + plotBottom) / 2)}) rotate(-90)" font-size="${r1(axisSize)}" text-anchor="middle" fill="${INK}">${escapeXml(axisTitle)}</text>`);
  out.push(`<line x1="${r1(left)}" y1="${r1(plotTop)}" x2="${r1(left)}" y2="${r1(plotBottom)}" stroke="${INK}" stroke-width="${2 * k}"/>`);

  // facet titles and group labels
  fig.facets.forEach((f, fi) => {
    const p = plots[fi]!;
    if (facetTitleRoom) {
      const text = ellipsize(f.label, p.w, facetSize, true);
      const tw = textWidth(text, facetSize, true);
      out.push(`<text x="${r1(p.x + p.w / 2)}" y="${r1(plotTop - facetSize * 0.55)}" font-size="${r1(facetSize)}" font-weight="bold" text-anchor="middle" fill="${INK}">${escapeXml(text)}</text>`);
      labels.push({ text, kind: "facet", box: { x: p.x + p.w / 2 - tw / 2, y: plotTop - facetSize * 1.45, w: tw, h: facetSize * 1.2 } });
    }
    const gw = p.w / Math.max(1, f.groups.length);
    f.groups.forEach((g, gi) => {
      const cx = p.x + gi * gw + gw / 2;
      let size = tickSize;
      let lines = wrapText(g.label, gw - 10 * k, size, groupLabelLines);
      while (size > 12 * k && lines.some((l) => l.endsWith("…"))) {
        size -= 1 * k;
        lines = wrapText(g.label, gw - 10 * k, size, groupLabelLines);
      }
      lines.forEach((line, li) => {
        const ly = plotBottom + 12 * k + li * tickSize * 1.25;
        const tw = textWidth(line, size);
        out.push(`<text x="${r1(cx)}" y="${r1(ly + size * 0.85)}" font-size="${r1(size)}" text-anchor="middle" fill="${INK}">${escapeXml(line)}</text>`);
        labels.push({ text: line, kind: "group", box: { x: cx - tw / 2, y: ly, w: tw, h: size * 1.2 } });
      });
      if (gi > 0) out.push(`<line x1="${r1(p.x + gi * gw)}" y1="${r1(plotBottom)}" x2="${r1(p.x + gi * gw)}" y2="${r1(plotBottom + 8 * k)}" stroke="${INK}" stroke-width="${k}"/>`);
    });
  });

  // bars and their value labels
  let omitted = 0;
  for (const p of placed) {
    const s = fig.series.find((x) => x.id === p.bar.series);
    const v = p.bar.value;
    if (v === null || !s) continue;
    const by = yOf(Math.max(0, v));
    const tip = `${s.label}: ${formatUs(v)} ${fig.unit}${p.bar.title ? ` (${p.bar.title})` : ""}`;
    out.push(`<rect x="${r1(p.x)}" y="${r1(by)}" width="${r1(p.bw)}" height="${r1(Math.max(0, plotBottom - by))}" ${s.measured ? `fill="url(#measured-hatch)" stroke="#000" stroke-width="${r1(2 * k)}"` : `fill="${colors.get(s.id)}"`} data-series="${escapeXml(s.id)}" data-value="${v}"><title>${escapeXml(tip)}</title></rect>`);
    const o = orient(p);
    const text = formatUs(v);
    const cx = p.x + p.bw / 2;
    const style = s.measured ? ` font-style="italic"` : "";
    if (o === "h") {
      const tw = textWidth(text, valueSize);
      const ty = by - 6 * k - valueSize * 1.2;
      out.push(`<text x="${r1(cx)}" y="${r1(ty + valueSize * 0.9)}" font-size="${r1(valueSize)}" text-anchor="middle" fill="${INK}"${style}>${escapeXml(text)}</text>`);
      labels.push({ text, kind: "value", box: { x: cx - tw / 2, y: ty, w: tw, h: valueSize * 1.2 } });
    } else if (o === "v") {
      const tw = textWidth(text, valueSize);
      const base = by - 6 * k;
      out.push(`<text transform="translate(${r1(cx + valueSize * 0.35)},${r1(base)}) rotate(-90)" font-size="${r1(valueSize)}" fill="${INK}"${style}>${escapeXml(text)}</text>`);
      labels.push({ text, kind: "value", box: { x: cx - valueSize * 0.6, y: base - tw, w: valueSize * 1.2, h: tw } });
    } else omitted++;
  }

  const defs = `<defs><pattern id="measured-hatch" patternUnits="userSpaceOnUse" width="${r1(10 * k)}" height="${r1(10 * k)}" patternTransform="rotate(45)"><rect width="${r1(10 * k)}" height="${r1(10 * k)}" fill="#ffffff"/><line x1="0" y1="0" x2="0" y2="${r1(10 * k)}" stroke="#000" stroke-width="${r1(3 * k)}"/></pattern></defs>`;
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${FONT}" data-palette="${PALETTE_NAME}">`,
    `<title>${escapeXml(fig.title)}</title>`,
    defs,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    ...out,
    `</svg>`,
  ].join("\n");
  return { svg: svg + "\n", layout: { plots, legend, labels, valueLabelsOmitted: omitted } };
}

function formatTick(t: number): string {
  return t === 0 ? "0" : Number(t.toPrecision(6)).toString();
}

function swatchSvg(x: number, y: number, s: number, color: string, measured: boolean): string {
  return measured
    ? `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(s)}" height="${r1(s)}" fill="url(#measured-hatch)" stroke="#000" stroke-width="2"/>`
    : `<rect x="${r1(x)}" y="${r1(y)}" width="${r1(s)}" height="${r1(s)}" fill="${color}"/>`;
}

/** Whether two boxes overlap (touching edges do not). */
export function boxesOverlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}
