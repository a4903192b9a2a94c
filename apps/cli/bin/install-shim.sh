#!/usr/bin/env bash
# Puts a `siglab` command on the PATH (scripts/setup.sh runs this): a two-line shim in
# ~/.local/bin (SIGLAB_BIN_DIR overrides) that runs this checkout's apps/cli/bin/siglab.mjs, so
# `siglab ...` works from any folder. A `siglab` there that is not our shim is left alone. Safe to
# run again; never fails the set-up (it says what to run instead).
set -uo pipefail
cd "$(dirname "$0")/../../.."

# a `siglab` command for any folder: a small shim in ~/.local/bin (SIGLAB_BIN_DIR overrides) that
# runs this checkout's CLI; one of ours is replaced, anything else of that name is left alone
bin_dir="${SIGLAB_BIN_DIR:-${HOME:-/nonexistent}/.local/bin}"
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
