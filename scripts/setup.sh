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

# a `siglab` command for any folder: a small shim in ~/.local/bin (SIGLAB_BIN_DIR overrides) that
# runs this checkout's CLI; one of ours is replaced, anything else of that name is left alone
bin_dir="${SIGLAB_BIN_DIR:-$HOME/.local/bin}"
shim="$bin_dir/siglab"
if [ -e "$shim" ] && ! grep -q "siglab-shim" "$shim" 2>/dev/null; then
  echo "setup: $shim exists and is not SigLab's shim: left alone (run node $PWD/apps/cli/bin/siglab.mjs instead)"
elif quoted=$(printf '%s' "$PWD" | sed "s/'/'\\\\''/g") && mkdir -p "$bin_dir" 2>/dev/null && printf '#!/bin/sh\n# siglab-shim: written by %s/scripts/setup.sh\nexec node '"'"'%s/apps/cli/bin/siglab.mjs'"'"' "$@"\n' "$quoted" "$quoted" > "$shim.tmp.$$" && chmod +x "$shim.tmp.$$" && mv -f "$shim.tmp.$$" "$shim"; then
  case ":$PATH:" in
    *":$bin_dir:"*) ;;
    *) echo "setup: installed $shim; $bin_dir is not on your PATH: add it (export PATH=\"$bin_dir:\$PATH\") or run node $PWD/apps/cli/bin/siglab.mjs" ;;
  esac
else
  rm -f "$shim.tmp.$$"
  echo "setup: could not write $shim: run node $PWD/apps/cli/bin/siglab.mjs instead of siglab"
fi
