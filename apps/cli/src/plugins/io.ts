/** Where the plugin commands (commands/plugins.ts and its plugin-*.ts subcommands) print: stdout and stderr, or a test's lines. */
export interface PluginsIo {
  log(line: string): void;
  error(line: string): void;
}

export const consoleIo: PluginsIo = { log: (l) => console.log(l), error: (l) => console.error(l) };
