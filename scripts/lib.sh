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
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
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

# Installs the wasm-bindgen CLI at exactly the version the wasm crate pins, only when it is missing
# or at another version (building it takes minutes).
ensure_wasm_bindgen() {
  local want="0.2.130"
  if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$want" ]; then
    need_cmd cargo "install Rust stable with rustup"
    log "installing wasm-bindgen-cli $want (takes a few minutes, once)"
    cargo install --locked wasm-bindgen-cli --version "$want"
  fi
}

ensure_chromium() {
  # Debian's Chromium for the headless browser tests (playwright-core drives it; browser
  # downloads by test tools are not possible here).
  if [ ! -x /usr/bin/chromium ]; then
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    log "installing Debian chromium for the browser tests"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
  fi
  export CHORUS_REQUIRE_BROWSER=1
}
