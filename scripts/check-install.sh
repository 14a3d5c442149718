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

# The Rust components check of a fresh machine whose rustup used the 'minimal' profile (no rustfmt,
# no clippy): against stub `cargo` and `rustup` commands, so it runs the same on any machine and
# changes nothing. A stub `cargo fmt`/`cargo clippy` fails until the stub `rustup component add`
# has added its component; a second run has a `rustup` that cannot add anything.
stubs="$root/stubs"
mkdir -p "$stubs"
cat > "$stubs/cargo" <<'STUB'
#!/usr/bin/env bash
case "$1" in
  fmt) [ -f "$STUB_STATE/rustfmt" ] ;;
  clippy) [ -f "$STUB_STATE/clippy" ] ;;
  *) exit 1 ;;
esac
STUB
cat > "$stubs/rustup" <<'STUB'
#!/usr/bin/env bash
[ "$1 $2" = "component add" ] || exit 1
echo "$*" >> "$STUB_STATE/calls"
[ -n "${STUB_RUSTUP_FAILS:-}" ] && exit 1
shift 2
for component in "$@"; do touch "$STUB_STATE/$component"; done
STUB
chmod +x "$stubs/cargo" "$stubs/rustup"
components_check() {
  STUB_STATE="$(mktemp -d -p "$root")" PATH="$stubs:$PATH" bash -c \
    'source "$0/scripts/lib.sh"; ensure_rust_components; echo "ok $(cat "$STUB_STATE/calls")"' "$CHORUS_ROOT" 2>&1
}
out="$(components_check)"
if [ "$(tail -n1 <<<"$out")" != "ok component add rustfmt clippy" ] || ! grep -q "adding the Rust components rustfmt clippy" <<<"$out"; then
  log "install check FAILED: ensure_rust_components on a minimal rustup did not add rustfmt and clippy: $out"
  exit 1
fi
if out="$(STUB_RUSTUP_FAILS=1 components_check)"; then
  log "install check FAILED: ensure_rust_components went on although rustup could not add the components: $out"
  exit 1
fi
if ! grep -q "error: cannot add rustfmt clippy (run 'rustup component add rustfmt clippy'" <<<"$out"; then
  log "install check FAILED: no one-line hint when the components cannot be added: $out"
  exit 1
fi
log "install check passed: rustfmt and clippy are added on a minimal rustup, with a hint when they cannot be"
