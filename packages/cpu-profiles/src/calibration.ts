/**
 * The calibration figures (a copy of the project's calibration brief): the only measurements
 * fitted profile values may be fitted to. Checked when the module loads.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import raw from "../calibration/figures.json" with { type: "json" };

export const CalibrationFigureSchema = Type.Object({
  id: Type.String({ minLength: 1 }),
  cpu: Type.String(),
  kernel: Type.Optional(Type.String()),
  program: Type.String(),
  /** A single value, or named values (e.g. { int80: 1568, sysenter: 428 }). */
  value: Type.Union([Type.Number(), Type.Record(Type.String(), Type.Number())]),
  unit: Type.String(),
  source: Type.String({ minLength: 1 }),
});

export const CalibrationFiguresSchema = Type.Object({
  note: Type.String(),
  about: Type.String(),
  figures: Type.Array(CalibrationFigureSchema),
  mechanisms_without_figures: Type.Array(Type.String()),
});

export type CalibrationFigure = Static<typeof CalibrationFigureSchema>;
export type CalibrationFigures = Static<typeof CalibrationFiguresSchema>;

function load(value: unknown): CalibrationFigures {
  if (!Value.Check(CalibrationFiguresSchema, value)) {
    const first = [...Value.Errors(CalibrationFiguresSchema, value)][0];
    throw new Error(`calibration/figures.json: ${first?.path ?? ""}: ${first?.message ?? "invalid"}`);
  }
  return value;
}

export const CALIBRATION_FIGURES: CalibrationFigures = load(raw);
export const CALIBRATION_FIGURE_IDS: readonly string[] = CALIBRATION_FIGURES.figures.map((f) => f.id);

export function getCalibrationFigure(id: string): CalibrationFigure | undefined {
  return CALIBRATION_FIGURES.figures.find((f) => f.id === id);
}
