#!/usr/bin/env bash
# Installs what is missing, then runs every check and test: formatting, clippy (native
# and wasm32), the Rust tests, the release build, and the browser tests in chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser
export PATH="$PWD/node_modules/.bin:$PATH"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (native, then the browser's crates on wasm32)"
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p sim -p page -p web -p simworker --target wasm32-unknown-unknown --lib --bins -- -D warnings

step "cargo test"
cargo test --workspace

step "release builds: the CLI and the browser app"
cargo build --release --bin ratelab
trunk build --release

step "Node tests over real HTTP, then the browser tests (Debian's chromium)"
node --test --test-concurrency=1 tests/docs/*.test.mjs tests/http/*.test.mjs tests/browser/*.test.mjs
