/**
 * SVG export of a rendered chart.js chart, rebuilt from the chart's own layout (scales, chart area,
 * element geometry) so the SVG matches what is on screen without a canvas-to-SVG shim.
 */
import type { Chart } from "chart.js";

const esc = (s: string): string => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function colorOf(v: unknown, i: number): string {
  if (Array.isArray(v)) return String(v[i % v.length] ?? "#888");
  return typeof v === "string" ? v : "#888";
}

export function chartToSvg(chart: Chart, title: string, dark: boolean): string {
  const w = chart.width;
  const hgt = chart.height;
  const fg = dark ? "#ddd" : "#222";
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${hgt + 24}" viewBox="0 0 ${w} ${hgt + 24}" font-family="sans-serif" font-size="11">`);
  out.push(`<rect width="100%" height="100%" fill="${dark ? "#1e1e1e" : "#ffffff"}"/>`);
  out.push(`<text x="8" y="16" font-size="13" font-weight="bold" fill="${fg}">${esc(title)}</text>`);
  out.push(`<g transform="translate(0,24)">`);
  const area = chart.chartArea;
  for (const scale of Object.values(chart.scales)) {
    const horizontal = scale.isHorizontal();
    out.push(horizontal
      ? `<line x1="${area.left}" y1="${area.bottom}" x2="${area.right}" y2="${area.bottom}" stroke="${fg}"/>`
      : `<line x1="${area.left}" y1="${area.top}" x2="${area.left}" y2="${area.bottom}" stroke="${fg}"/>`);
    scale.ticks.forEach((tick, i) => {
      const pos = scale.getPixelForTick(i);
      const label = Array.isArray(tick.label) ? tick.label.join(" ") : String(tick.label ?? "");
      if (horizontal) out.push(`<text x="${pos}" y="${area.bottom + 14}" text-anchor="middle" fill="${fg}">${esc(label)}</text>`);
      else {
        out.push(`<text x="${area.left - 4}" y="${pos + 4}" text-anchor="end" fill="${fg}">${esc(label)}</text>`);
        out.push(`<line x1="${area.left}" y1="${pos}" x2="${area.right}" y2="${pos}" stroke="${fg}" stroke-opacity="0.15"/>`);
      }
    });
  }
  // axis titles (units): below the x axis, rotated beside the y axis
  for (const scale of Object.values(chart.scales)) {
    const t = (scale.options as { title?: { display?: boolean; text?: string | string[] } }).title;
    if (!t?.display || !t.text) continue;
    const text = esc(Array.isArray(t.text) ? t.text.join(" ") : t.text);
    if (scale.isHorizontal()) out.push(`<text x="${(area.left + area.right) / 2}" y="${scale.bottom - 2}" text-anchor="middle" fill="${fg}">${text}</text>`);
    else out.push(`<text transform="translate(${scale.left + 10},${(area.top + area.bottom) / 2}) rotate(-90)" text-anchor="middle" fill="${fg}">${text}</text>`);
  }
  chart.data.datasets.forEach((ds, di) => {
    const meta = chart.getDatasetMeta(di);
    if (meta.hidden) return;
    if (meta.type === "line") {
      const pts = meta.data.map((el) => `${el.x},${el.y}`).join(" ");
      out.push(`<polyline fill="none" stroke="${colorOf(ds.borderColor, 0)}" stroke-width="2" points="${pts}"/>`);
      return;
    }
    meta.data.forEach((el, i) => {
      const p = el.getProps(["x", "y", "base", "width", "height", "horizontal"], true) as unknown as { x: number; y: number; base: number; width: number; height: number; horizontal?: boolean };
      const horizontal = chart.options.indexAxis === "y";
      const [x, y, bw, bh] = horizontal
        ? [Math.min(p.x, p.base), p.y - p.height / 2, Math.abs(p.x - p.base), p.height]
        : [p.x - p.width / 2, Math.min(p.y, p.base), p.width, Math.abs(p.base - p.y)];
      if (!Number.isFinite(x) || !Number.isFinite(y)) return;
      out.push(`<rect x="${x}" y="${y}" width="${bw}" height="${bh}" fill="${colorOf(ds.backgroundColor, i)}"><title>${esc(String(ds.label ?? ""))}</title></rect>`);
    });
  });
  let lx = area.left;
  chart.data.datasets.forEach((ds, di) => {
    const label = String(ds.label ?? `series ${di + 1}`);
    out.push(`<rect x="${lx}" y="2" width="10" height="10" fill="${colorOf(ds.backgroundColor ?? ds.borderColor, 0)}"/>`);
    out.push(`<text x="${lx + 14}" y="11" fill="${fg}">${esc(label)}</text>`);
    lx += 24 + label.length * 6;
  });
  out.push(`</g></svg>`);
  return out.join("\n");
}
