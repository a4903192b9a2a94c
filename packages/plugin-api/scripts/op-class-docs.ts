/**
 * The op-class tables' entries document themselves: each entry of OP_CLASSES, SMP_OP_CLASSES and MACHINE_OP_CLASSES
 * has a `description`, which TypeScript keeps in the declarations only as a string literal type.
 * This copies it into a doc comment on the entry in the generated declarations (so editors show
 * it on hover, and the reference lists every op with its meaning), and documents the entry's two
 * fields, instead of keeping a second copy of each description by hand in the source.
 */

const TABLE = /^export declare const (OP_CLASSES|SMP_OP_CLASSES|MACHINE_OP_CLASSES): \{$/;
const ENTRY = /^\treadonly (\w+): \{$/;
const UNIT = /^\t\treadonly unit: "(instr|line|event)";$/;
const DESCRIPTION = /^\t\treadonly description: ("(?:[^"\\]|\\.)*");$/;

const PER: Record<string, string> = { instr: "per instruction", event: "per event", line: "per cache line (XSAVE/XRSTOR: per 64-byte chunk)" };

/** `dts` with a doc comment on every entry of the op-class tables (and on its unit and description). */
export function documentOpClasses(dts: string): string {
  const lines = dts.split("\n");
  const out: string[] = [];
  let inTable = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (TABLE.test(line)) inTable = true;
    else if (inTable && line === "};") inTable = false;
    const entry = inTable ? ENTRY.exec(line) : null;
    if (entry) {
      const unit = UNIT.exec(lines[i + 1] ?? "");
      const description = DESCRIPTION.exec(lines[i + 2] ?? "");
      if (!unit || !description) throw new Error(`op class ${entry[1]}: expected its unit and description on the next two lines of the declarations`);
      const text = (JSON.parse(description[1]!) as string).replaceAll("*/", "*\\/");
      out.push(`\t/** ${text} (cost ${PER[unit[1]!]}). */`, line);
      out.push("\t\t/** What one occurrence is (see OpClassInfo.unit). */", lines[i + 1]!);
      out.push("\t\t/** What the op is (the text of this entry's doc comment). */", lines[i + 2]!);
      i += 2;
      continue;
    }
    out.push(line);
  }
  return out.join("\n");
}
