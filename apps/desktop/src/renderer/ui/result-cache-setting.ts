/**
 * The result cache's setting in the run configuration: reuse the stored result of an identical run
 * (the workspace setting `resultCache`, on by default; the CLI's `--no-cache`), with what the cache
 * holds. The cache itself is on the node side (node/run-cache.ts); clearing it is `siglab cache clear`.
 */
import type { HostApi, ResultCacheInfo } from "../../common/host-api.js";
import { clear, h, toast } from "./dom.js";

export class ResultCacheSetting {
  readonly el = h("section.result-cache", { "data-setting": "result-cache" });
  private info: ResultCacheInfo | null = null;

  constructor(private readonly host: HostApi) {}

  /** Reads the setting and what the cache holds (after a run, it may hold more). */
  async refresh(): Promise<void> {
    try {
      this.info = await this.host.resultCacheInfo();
    } catch {
      this.info = null;
    }
    this.render();
  }

  private async set(enabled: boolean): Promise<void> {
    try {
      this.info = await this.host.setResultCacheEnabled(enabled);
    } catch (err) {
      toast(`Could not change the result cache setting: ${(err as Error).message}`, "error");
    }
    this.render();
  }

  private render(): void {
    clear(this.el);
    const i = this.info;
    const box = h("input", { type: "checkbox", checked: i?.enabled !== false, disabled: !i, "aria-label": "Reuse stored results", onchange: (e: Event) => void this.set((e.target as HTMLInputElement).checked) });
    this.el.append(
      h("h3", null, "Result cache"),
      h("label", { title: "Every run is deterministic: an identical run (same workload source, configuration, plugin code, CPU profiles and simulator) gives the same result, so a stored one is shown instead of simulating again. A re-run of an opened bundle is always simulated." }, box, " Reuse the result of an identical run"),
      h("p.muted", null, i ? `${i.entries.toLocaleString("en-US")} result${i.entries === 1 ? "" : "s"} stored, ${mib(i.bytes)} of ${mib(i.maxBytes)} (${i.folder})` : "The result cache is not available."),
    );
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(bytes < 10 * 1048576 ? 1 : 0)} MiB`;
}
