/**
 * Text measurement without a DOM: the advance widths of DejaVu Sans (the sans-serif of Debian, and
 * wider than Helvetica and Arial, so a label sized here fits in either), in em, rounded up. A
 * figure lays its labels out with these so they never overlap, in the CLI as in the app.
 */

const NARROW = new Set("iljI.,:;'|!`");
const SEMI = new Set("frt()[]{}/\\- \"");
const WIDE = new Set("mwMW@%");

/** The width of `text` in `px` at a font size of `size` px (an over-estimate by at most a few %); bold is ~13 % wider. */
export function textWidth(text: string, size: number, bold = false): number {
  let em = 0;
  for (const ch of text) {
    if (NARROW.has(ch)) em += 0.32;
    else if (SEMI.has(ch)) em += 0.42;
    else if (WIDE.has(ch)) em += 0.98;
    else if (ch >= "A" && ch <= "Z") em += 0.74;
    else if (ch >= "0" && ch <= "9") em += 0.64;
    else if (ch.charCodeAt(0) > 0x2000) em += 0.84; // µ is below; arrows, dashes, ×, …
    else em += 0.62;
  }
  return em * size * (bold ? 1.13 : 1);
}

/**
 * Words of `text` in lines at most `width` px wide at font size `size`; a word longer than a line
 * is cut with "…". At most `maxLines` lines (the last ends in "…" when text is left over).
 */
export function wrapText(text: string, width: number, size: number, maxLines = 3): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (textWidth(next, size) <= width || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  const cut = lines.slice(0, maxLines).map((l) => ellipsize(l, width, size));
  if (lines.length > maxLines) cut[maxLines - 1] = ellipsize(`${cut[maxLines - 1]!}…`, width, size);
  return cut;
}

/** `text` cut to at most `width` px, ending in "…" when cut. */
export function ellipsize(text: string, width: number, size: number, bold = false): string {
  if (textWidth(text, size, bold) <= width) return text;
  let t = text;
  while (t.length > 1 && textWidth(`${t}…`, size, bold) > width) t = t.slice(0, -1);
  return `${t.replace(/…$/, "")}…`;
}

/** Text for an SVG text node or attribute. */
export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
