/** Exports people expect: results as CSV, timelines as Chrome/Perfetto trace-event JSON. */
export { toCsv, csvField, CSV_COLUMNS, type CsvOptions, type CsvRowKind } from "./csv.js";
export { hasNoTimeline, toPerfettoTrace, truncatedTimelines, type TraceEvent, type TraceFile } from "./trace.js";
