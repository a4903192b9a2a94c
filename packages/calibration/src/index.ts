/** @siglab/calibration: the fit of the profiles' fitted costs, the calibration and predictions suites. */
export { calibrationTargets, getTarget, type Target, type Measurement, type TargetUnit } from "./targets.js";
export { FIT_GROUPS, SCALE_BOUNDS, LARGE_CORRECTION, isLargeCorrection, getGroup, groupValues, startValues, type FitGroup } from "./plan.js";
export { formatFit, formatSuite, formatPredictions, table } from "./format.js";
export { validatePlan, PlanError } from "./validate.js";
export { solveScale, type SolveResult, type SolvePoint, type SolveOptions } from "./solve.js";
export { fit, fmt, type FitResult, type GroupFit, type FitOptions, type GroupStatus } from "./fit.js";
export { candidateProfiles, withCosts, type CostValues } from "./candidate.js";
export { evaluateTarget, withinTolerance, toleranceText, type TargetEval } from "./measure.js";
export { runCalibrationSuite, missedRows, type SuiteRow, type RowStatus, type SuiteOptions } from "./suite.js";
export { runPredictions, predictionSpecs, fittedParamsOf, executedOps, type Prediction, type PredictionOptions, type FittedParam } from "./predictions.js";
export { phaseBreakdowns, opCycles, type Breakdown, type Share } from "./breakdown.js";
export { buildOverlay, buildReport, calibratedProfiles, overlayHeader, serializeOverlay, serializeReport, sourceNote, type CalibrationReport } from "./provenance.js";
export { pendingReason, NGPT, NO_CLI_EXIT, SA_NOFP, SYSENTER } from "./plugins.js";
export { builtinPluginIds, runExample, exampleParams, variantLabel, closeCalibrationHost, configureCalibrationHost, transpileExample, ExampleCompileError } from "./env.js";
export { fsaveFramesProfile } from "./what-if.js";
export { SCALE_BAND, LOO_LIMIT_PERCENT, shippedGroupScales, type GroupScale, inBand, bandViolations, assumedCosts, removedWholesale, checkRules, ruleViolations, opCyclesOf, type RuleReport } from "./rules.js";
export { evaluateLoo, looGroups, looValues, measuredValuesOf, degreesOfFreedom, type LooEval } from "./loo.js";
