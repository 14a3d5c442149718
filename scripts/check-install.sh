#!/usr/bin/env bash
# The install check of scripts/test.sh: installs the project's cargo tools into an empty,
# temporary tools root exactly as a fresh clone does, and fails unless the pinned wasm-bindgen CLI
# comes out of it. A tool left on the machine (or in .tools/) cannot hide a broken install step
# here: the root starts empty and the check runs the installed binary from it. Compiled
# dependencies are reused from target/tools-build, so after the first install this takes seconds.
# Usage: bash scripts/check-install.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CHORUS_ROOT"

root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
log "install check: wasm-bindgen-cli into an empty tools root ($root)"
(
  export CHORUS_TOOLS_ROOT="$root"
  source "$CHORUS_ROOT/scripts/lib.sh"
  ensure_wasm_bindgen
)
want="$(wasm_bindgen_version)"
got="$("$root/bin/wasm-bindgen" --version | cut -d' ' -f2)"
if [ "$got" != "$want" ]; then
  log "install check FAILED: wasm-bindgen from an empty root reports '$got', the wasm crate pins '$want'"
  exit 1
fi
log "install check passed: wasm-bindgen $got installed from an empty tools root"
