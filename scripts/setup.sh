#!/usr/bin/env bash
# One-time set-up on a fresh machine: pnpm, Debian's chromium (for the browser tests) and a C
# compiler (for `siglab probe`) when apt is available and we are root, and the workspace's
# packages. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "10.34.9" ]; then
  echo "setup: installing pnpm 10.34.9"
  npm install -g pnpm@10.34.9 >/dev/null
fi

if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ] && [ "${SIGLAB_SKIP_CHROMIUM:-}" != "1" ]; then
  echo "setup: installing Debian's chromium (browser tests)"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

if ! command -v cc >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "setup: installing gcc and the C library's headers (siglab probe compiles probe/siglab-probe.c)"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev >/dev/null
fi

pnpm install --frozen-lockfile --reporter=silent
pnpm --filter @siglab/plugin-api build >/dev/null   # the plugin API's published declarations (what plugins type-check against)
node apps/cli/bin/siglab.mjs --version >/dev/null   # builds the CLI bundle (apps/cli/dist/siglab.mjs) when its sources changed: `pnpm siglab` then starts warm

bash apps/cli/bin/install-shim.sh || true   # a `siglab` command for any folder (~/.local/bin/siglab; SIGLAB_BIN_DIR elsewhere)
