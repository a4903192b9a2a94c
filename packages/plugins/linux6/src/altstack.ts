/**
 * The task's sigaltstack, as far as the plugin API lets a plugin see it. The API's Task has no
 * sas_ss_sp/sas_ss_size, so the entry mechanism watches the sigaltstack system call instead: the
 * pages it maps (the core's sigaltstack maps the stack) give the base and the mapped length; the
 * exact size is recovered at the first delivery onto it (the frame sits at the top). See the
 * README's limitations.
 */
import { PAGE_SIZE, stateKey, type Task } from "@siglab/plugin-api";

export interface Altstack {
  /** sas_ss_sp */
  base: number;
  /** bytes of the pages the call mapped (the size rounded up to pages) */
  mappedBytes: number;
  /** sas_ss_size once known (from the first frame placed at its top), else null */
  size: number | null;
}

const SAS = stateKey<{ current: Altstack | null; before: Set<number> | null }>("linux6.sas", () => ({ current: null, before: null }));

export function altstackOf(t: Task): Altstack | null {
  return t.peekSlot(SAS)?.current ?? null;
}

/** sigaltstack entered: remember which pages were mapped. */
export function sigaltstackEnter(t: Task): void {
  t.slot(SAS).before = new Set(t.mm.pages.keys());
}

/** sigaltstack returned `result`: the pages it mapped are the new alternate stack. */
export function sigaltstackExit(t: Task, result: number): void {
  const s = t.slot(SAS);
  const before = s.before;
  s.before = null;
  if (!before || result !== 0) return;
  const added = [...t.mm.pages.keys()].filter((p) => !before.has(p)).sort((a, b) => a - b);
  if (!added.length) return;
  s.current = { base: added[0]! * PAGE_SIZE, mappedBytes: added.length * PAGE_SIZE, size: null };
}
