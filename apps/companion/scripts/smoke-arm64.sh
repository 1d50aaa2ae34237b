#!/usr/bin/env bash
# Raspberry Pi smoke test under emulation: the linux-arm64 executable's --version and status --json,
# run by qemu-user-static with Debian's arm64 C libraries (reference/packaging.md). Nothing leaves
# this machine: the server is a closed local port, a temp data folder. Without qemu it says so and
# passes (CI installs it); a missing build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
# Ceilings stretch on a slower host (paced).
. scripts/paced.sh
started=$(date +%s)
fail() {
  echo "arm64 smoke FAILED: $*" >&2
  exit 1
}
EXE=dist/flaglight-companion-linux-arm64
QEMU=$(command -v qemu-aarch64-static || true)
if [ -z "$QEMU" ] || [ ! -d /usr/aarch64-linux-gnu ]; then
  echo "arm64 smoke: SKIPPED, qemu-aarch64-static or the arm64 libraries are missing (Debian: apt-get install -y qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross)"
  exit 0
fi
[ -f "$EXE" ] || fail "$EXE missing: run npm run package -w @flaglight/companion first"
file_type=$(od -An -t x1 -j 18 -N 2 "$EXE" | tr -d ' \n')
[ "$file_type" = "b700" ] || fail "$EXE is not an aarch64 ELF (e_machine $file_type)"
VERSION=$(node -p 'require("./package.json").version')
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
run() { timeout "$(paced 120)" "$QEMU" -L /usr/aarch64-linux-gnu "$EXE" "$@"; }

run --version >"$TMP/version.txt" 2>&1 || fail "--version exit code $?: $(head -c 300 "$TMP/version.txt")"
[ "$(tr -d '\r\n' <"$TMP/version.txt")" = "$VERSION" ] || fail "--version printed '$(head -c 300 "$TMP/version.txt")', not $VERSION"

run status --json --server http://127.0.0.1:9 --data-dir "$TMP/data" >"$TMP/status.json" 2>"$TMP/status.err" ||
  fail "status --json exit code $?: $(head -c 300 "$TMP/status.err")"
node -e '
  const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const bad = [];
  if (s.version !== process.argv[2]) bad.push("version " + s.version);
  if (s.platform !== "linux") bad.push("platform " + s.platform);
  if (s.linked !== false) bad.push("linked " + s.linked);
  if (bad.length) { console.error(bad.join(", ")); process.exit(1); }
' "$TMP/status.json" "$VERSION" 2>"$TMP/check.txt" || fail "status --json: $(cat "$TMP/check.txt")"
echo "arm64 smoke: --version and status --json ok under qemu after $(($(date +%s) - started)) s"
