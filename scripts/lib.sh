# Shared helpers of the Chorus scripts: each installs what is missing, idempotently.
# Sourced by scripts/demo.sh and scripts/test.sh; never downloads anything but registry packages.

set -euo pipefail

CHORUS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

log() { printf '\033[1m[chorus]\033[0m %s\n' "$*" >&2; }

need_cmd() {
  command -v "$1" >/dev/null 2>&1 || { log "missing '$1': $2"; exit 1; }
}

ensure_rust() {
  need_cmd cargo "install Rust stable with rustup"
  need_cmd rustup "install Rust stable with rustup"
  local have
  have="$(rustc --version | cut -d' ' -f2)"
  if [ "$(printf '%s\n' 1.89.0 "$have" | sort -V | head -n1)" != 1.89.0 ]; then
    log "Rust $have is older than the project's 1.89: run 'rustup update stable'"
    exit 1
  fi
  # ring (the native Noise cipher) compiles its C and assembly with the system C compiler, which
  # Rust also needs as its linker.
  need_cmd cc "install a C compiler (Debian: apt-get install build-essential)"
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown || fail_hint "cannot add the wasm32-unknown-unknown target" "run 'rustup target add wasm32-unknown-unknown' and check that rustup can reach its distribution server"
  fi
}

# Prints a one-line failure with what to do about it, and exits.
fail_hint() {
  log "error: $1 ($2)"
  exit 1
}

# rustfmt and clippy, which rustup's 'minimal' profile leaves out; the tests run both.
ensure_rust_components() {
  local missing=()
  cargo fmt --version >/dev/null 2>&1 || missing+=(rustfmt)
  cargo clippy --version >/dev/null 2>&1 || missing+=(clippy)
  [ "${#missing[@]}" -eq 0 ] && return 0
  log "adding the Rust components ${missing[*]} (rustup's minimal profile has none)"
  rustup component add "${missing[@]}" >/dev/null ||
    fail_hint "cannot add ${missing[*]}" "run 'rustup component add ${missing[*]}'; with a toolchain not managed by rustup, install them with it"
  for component in "${missing[@]}"; do
    local command=fmt
    [ "$component" = clippy ] && command=clippy
    cargo "$command" --version >/dev/null 2>&1 ||
      fail_hint "'cargo $command' still does not run after adding $component" "check that the active toolchain is rustup's (rustup show)"
  done
}

ensure_node_deps() {
  need_cmd node "install Node.js 20 or newer"
  need_cmd npm "install npm"
  cd "$CHORUS_ROOT"
  # Reinstall only when package-lock.json changed since the last install.
  local stamp="node_modules/.chorus-lock-stamp"
  local want
  want="$(sha256sum package-lock.json 2>/dev/null | cut -d' ' -f1 || true)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "installing npm packages"
    if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
    want="$(sha256sum package-lock.json | cut -d' ' -f1)"
    echo "$want" > "$stamp"
  fi
}

# Project tools (wasm-bindgen-cli) live in a project-local cargo root that git ignores, so that a
# fresh clone, and so every CI run, exercises the install path instead of finding a tool left on
# the machine. CHORUS_TOOLS_ROOT overrides it (the install check uses an empty temporary root).
CHORUS_TOOLS_ROOT="${CHORUS_TOOLS_ROOT:-$CHORUS_ROOT/.tools}"
export PATH="$CHORUS_TOOLS_ROOT/bin:$PATH"

# The wasm-bindgen CLI must equal the `wasm-bindgen` crate the wasm crate pins (`=X.Y.Z`).
wasm_bindgen_version() {
  sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' "$CHORUS_ROOT/wasm/Cargo.toml"
}

# Installs the wasm-bindgen CLI at exactly the pinned version into the tools root, only when it is
# missing there or at another version (building it takes minutes).
#
# `cargo install --locked` is tried first: it builds with the versions the CLI was released and
# tested with. Its lock file can name a dependency version that the package registry reachable
# from this machine does not serve (wasm-bindgen-cli 0.2.130 pins webpki-roots 1.0.11); that fails
# in resolution, before any compiling. On any failure of the locked install the script says so in
# one line and installs again with ordinary resolution (the newest semver-compatible versions that
# exist), which still installs the exact CLI version.
# Compiled dependencies are kept in target/tools-build, so a later install into an empty root
# (the install check of scripts/test.sh) only links.
ensure_wasm_bindgen() {
  local want have
  want="$(wasm_bindgen_version)"
  [ -n "$want" ] || { log "cannot read the pinned wasm-bindgen version from wasm/Cargo.toml"; exit 1; }
  have="$("$CHORUS_TOOLS_ROOT/bin/wasm-bindgen" --version 2>/dev/null | cut -d' ' -f2 || true)"
  [ "$have" = "$want" ] && return 0
  need_cmd cargo "install Rust stable with rustup"
  log "installing wasm-bindgen-cli $want into ${CHORUS_TOOLS_ROOT#"$CHORUS_ROOT"/} (takes a few minutes, once)"
  local args=(install wasm-bindgen-cli --version "$want" --root "$CHORUS_TOOLS_ROOT"
              --target-dir "$CHORUS_ROOT/target/tools-build" --force)
  local err
  err="$(mktemp)"
  if ! cargo "${args[@]}" --locked 2>&1 | tee "$err" >&2; then
    log "notice: 'cargo install --locked' failed ($(grep -m1 '^error' "$err" || echo 'see above')); installing wasm-bindgen-cli $want with normal resolution"
    cargo "${args[@]}"
  fi
  rm -f "$err"
  have="$("$CHORUS_TOOLS_ROOT/bin/wasm-bindgen" --version 2>/dev/null | cut -d' ' -f2 || true)"
  [ "$have" = "$want" ] || { log "wasm-bindgen-cli install finished but '$CHORUS_TOOLS_ROOT/bin/wasm-bindgen --version' says '$have', not $want"; exit 1; }
}

# Installs a Debian package when `command` is missing (as root, or with sudo).
ensure_debian_package() {
  local command="$1" package="$2" why="$3"
  command -v "$command" >/dev/null 2>&1 && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  command -v apt-get >/dev/null 2>&1 ||
    fail_hint "'$command' is missing and this is not a Debian-like system" "install the package providing $command ($why)"
  log "installing Debian $package ($why)"
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$package" >/dev/null; } ||
    fail_hint "cannot install $package" "run 'apt-get install $package' as root"
}

# HAProxy for the relay cluster (scripts/relay-cluster.sh) and its test.
ensure_haproxy() {
  ensure_debian_package haproxy haproxy "the load balancer in front of a relay cluster"
  export CHORUS_REQUIRE_HAPROXY=1
}

ensure_chromium() {
  # Debian's Chromium for the headless browser tests (playwright-core drives it; browser
  # downloads by test tools are not possible here).
  [ -x /usr/bin/chromium ] || ensure_debian_package /usr/bin/chromium chromium "the browser tests"
  export CHORUS_REQUIRE_BROWSER=1
}
