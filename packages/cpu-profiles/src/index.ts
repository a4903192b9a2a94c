/** @siglab/cpu-profiles: op classes, profile types, the loader, the builtins, calibration figures. */
export * from "./op-classes.js";
export type * from "./types.js";
export * from "./loader.js";
export {
  CpuProfileFileSchema,
  CpuProfileSourceSchema,
  CostEntrySchema,
  SourcedNumberSchema,
  PROFILE_ID_PATTERN,
  profileJsonSchema,
} from "./schema.js";
export {
  BUILTIN_FITTED_OVERLAYS,
  BUILTIN_HANDWRITTEN_SOURCES,
  BUILTIN_PROFILE_FILES,
  BUILTIN_PROFILE_IDS,
  BUILTIN_PROFILE_SOURCES,
  getBuiltinProfile,
} from "./builtin.js";
export {
  applyFittedOverlay,
  FittedCostSchema,
  FittedOverlaySchema,
  fittedOverlayFileName,
  fittedOverlayJsonSchema,
  fittedOverlayStaleness,
  parseFittedOverlay,
  validateFittedOverlay,
  type FittedCost,
  type FittedOverlay,
} from "./overlay.js";
export { ProfileCatalog } from "./catalog.js";
export { cloneProfile, deriveProfile, serializeJson, serializeProfile } from "./clone.js";
export {
  provenanceMatrix,
  provenanceSummary,
  provenanceSummaryTable,
  type ProvenanceSummary,
} from "./provenance.js";
export {
  CALIBRATION_FIGURES,
  CALIBRATION_FIGURE_IDS,
  getCalibrationFigure,
  type CalibrationFigure,
  type CalibrationFigures,
} from "./calibration.js";
