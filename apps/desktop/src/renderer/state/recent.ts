/**
 * How a recent experiment is named in the explorer: its workload, then what tells it from the
 * others of the same workload — the CPUs, the variant stacks (with their options) — and when it
 * ran. Read from the entry's configuration, so entries saved before this also read well.
 */
import type { CpuProfileFile } from "../../common/contracts.js";
import type { RecentExperiment } from "../../common/host-api.js";
import { shortCpuLabel, stackLabel } from "../results/labels.js";

export function recentLabel(r: RecentExperiment, profiles: CpuProfileFile[], now = Date.now()): { title: string; detail: string } {
  const title = r.title.split(" · ")[0] || r.workload.id;
  const when = new Date(r.savedAtMs);
  const sameDay = new Date(now).toDateString() === when.toDateString();
  const time = sameDay ? when.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" }) : when.toLocaleDateString("en-GB", { day: "numeric", month: "short" });
  const cpus = r.config.cpus.map((c) => shortCpuLabel(c, profiles)).join(", ");
  const stacks = r.config.stacks.map(stackLabel).join(" vs ");
  return { title, detail: `${cpus} · ${stacks} · ${time}` };
}
