/** What a run produces: the result types are the plugin API's (the test harness returns them too). */
export type { Metric, Severity, Finding, PathOpStat, PathStat, TimelineEvent, RunError, RunResult, RunProgress } from "@siglab/plugin-api";
