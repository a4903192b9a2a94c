#!/usr/bin/env node
/**
 * prepublishOnly of @siglab/plugin-api and @siglab/plugin-harness: their package.json in this
 * repository points `exports` at src/ (the workspace's view); only pnpm applies `publishConfig`'s
 * exports (at dist/) when it packs. `npm publish` in the package's folder would publish the
 * workspace's exports, naming files the package does not contain: refuse it, and say what to do.
 */
const agent = process.env.npm_config_user_agent ?? "";
if (!agent.startsWith("pnpm/")) {
  console.error(`${process.env.npm_package_name ?? "this package"}: publish the tarball \`pnpm pack:api\` writes (npm publish dist/packages/<name>-<version>.tgz --provenance), or use pnpm publish: npm would publish this folder's workspace exports (src/), not publishConfig's (dist/)`);
  process.exit(1);
}
