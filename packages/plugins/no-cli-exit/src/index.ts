/**
 * no-cli-exit: the Jan 2002 "syscall latency improvement #1" experiment (David Howells' patch;
 * Linus: "almost all of the gain came from removing the cli"). ret_from_sys_call tests the work
 * flags with interrupts on. The iret then finds IF already 1, so its implicit sti disappears too
 * (that follows from IF staying 1; nothing here charges it away). The price: an interrupt landing
 * between the flag test and the iret can set need_resched/sigpending that nobody looks at until
 * the task next enters the kernel.
 */
import { ContainerModule, TOKENS, type CreateModule, type OpLine, type PathDef, type PathTransform, type PluginModule } from "@siglab/plugin-api";
import manifest from "../plugin.json" with { type: "json" };

const ID = manifest.id;

/** Drop the `cli` of ret_from_sys_call from a path; the flag test right after it says why it is racy now. */
export function dropExitCli(def: PathDef): PathDef {
  const isExitCli = (l: OpLine) => l.op === "cli" && l.fn === "ret_from_sys_call";
  const at = def.ops.findIndex(isExitCli);
  if (at < 0) throw new Error(`plugin '${ID}': path '${def.name}' has no cli in ret_from_sys_call to remove (core path changed?)`);
  const ops = def.ops.filter((l) => !isExitCli(l)).map((l, i) =>
    i === at && l.fn === "ret_from_sys_call" && l.op === "load"
      ? { ...l, note: `${l.note ? `${l.note} ` : ""}(no cli: work set by an interrupt after this test waits for the next kernel entry)` }
      : l,
  );
  return { ...def, ops };
}

export function transforms(exceptionPath: boolean): PathTransform[] {
  const out: PathTransform[] = [{ target: "ret_from_sys_call", origin: ID, transform: dropExitCli }];
  if (exceptionPath) out.push({ target: "ret_from_exception", origin: ID, transform: dropExitCli });
  return out;
}

export const createModule: CreateModule = (options) =>
  new ContainerModule(({ bind }) => {
    const exceptionPath = options["exceptionPath"] !== false;
    bind(TOKENS.PathTransformContribution).toConstantValue({ transforms: () => transforms(exceptionPath) });
  });

const plugin: PluginModule<typeof manifest> = { manifest, createModule };
export default plugin;
