/** Exports people expect: results as CSV, timelines as Chrome/Perfetto trace-event JSON. */
export { toCsv, csvField, CSV_COLUMNS, type CsvOptions, type CsvRowKind } from "./csv.js";
export { CPU_TRACK_TID_BASE, findingCycle, hasNoTimeline, signalFlows, toPerfettoTrace, truncatedTimelines, type SignalFlow, type TraceEvent, type TraceFile } from "./trace.js";
