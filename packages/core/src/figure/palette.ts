/**
 * Okabe & Ito's colour-blind-safe palette ("Color Universal Design", 2002): eight colours that stay
 * apart under the common colour-vision deficiencies. Black is kept for axes and measured figures;
 * the series take the other seven, the darkest first (they read best on a white slide).
 */
export const OKABE_ITO = {
  black: "#000000",
  orange: "#E69F00",
  skyBlue: "#56B4E9",
  bluishGreen: "#009E73",
  yellow: "#F0E442",
  blue: "#0072B2",
  vermillion: "#D55E00",
  reddishPurple: "#CC79A7",
} as const;

/** The series colours in the order they are handed out. */
export const SERIES_COLORS: readonly string[] = [OKABE_ITO.blue, OKABE_ITO.orange, OKABE_ITO.bluishGreen, OKABE_ITO.vermillion, OKABE_ITO.reddishPurple, OKABE_ITO.skyBlue, OKABE_ITO.yellow];

/** The palette's name, as a figure's legend or a test names it. */
export const PALETTE_NAME = "Okabe–Ito";

/** The i-th series colour (the palette repeats past seven series). */
export function seriesColor(i: number): string {
  return SERIES_COLORS[((i % SERIES_COLORS.length) + SERIES_COLORS.length) % SERIES_COLORS.length]!;
}
