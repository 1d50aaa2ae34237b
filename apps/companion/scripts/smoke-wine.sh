#!/usr/bin/env bash
# Windows smoke test under wine (reference/packaging.md §5): the Windows executable's --version,
# status --json and run (serving /api/status as win32), then the installer's silent install (files,
# Run value, Start-menu shortcut, uninstall key) and its uninstaller. Needs `npm run package` first.
# Nothing leaves this machine: the server is a closed local port, no browser, a temp data folder.
# Without wine it says so and passes (CI installs wine); a missing build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
# Ceilings stretch on a slower host (paced).
. scripts/paced.sh
started=$(date +%s)
fail() {
  echo "windows smoke FAILED: $*" >&2
  exit 1
}
if ! command -v wine >/dev/null; then
  echo "windows smoke: SKIPPED, wine not installed (Debian: apt-get install -y wine wine64)"
  exit 0
fi
EXE=dist/flaglight-companion-win-x64.exe
SETUP=dist/flaglight-setup.exe
VERSION=$(node -p 'require("./package.json").version')
[ -f "$EXE" ] || fail "$EXE missing: run npm run package -w @flaglight/companion first"

TMP=$(mktemp -d)
export WINEPREFIX="$TMP/wine" WINEDEBUG=-all WINEDLLOVERRIDES=winemenubuilder.exe=d
trap 'wineserver -k 2>/dev/null || true; rm -rf "$TMP"' EXIT
OFFLINE_SERVER=http://127.0.0.1:9
PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
mkdir -p "$TMP/data"

# Wine 8 reports Windows 7 by default and Node refuses to start there. This first call makes the
# prefix: over 240 s once on a host given one core beside the journeys, so its ceiling is generous.
timeout "$(paced 300)" wine reg add 'HKCU\Software\Wine' /v Version /t REG_SZ /d win10 /f >/dev/null 2>&1 ||
  fail "could not create the wine prefix"
DATA_W=$(wine winepath -w "$TMP/data" | tr -d '\r')
echo "windows smoke: wine prefix ready after $(($(date +%s) - started)) s"

# Node under wine dies with EBADF when stdout is a pipe: always a file.
timeout "$(paced 60)" wine "$EXE" --version >"$TMP/version.txt" 2>&1 || fail "--version exit code $?: $(head -c 300 "$TMP/version.txt")"
[ "$(tr -d '\r\n' <"$TMP/version.txt")" = "$VERSION" ] || fail "--version printed '$(head -c 300 "$TMP/version.txt")', not $VERSION"

timeout "$(paced 60)" wine "$EXE" status --json --server "$OFFLINE_SERVER" --data-dir "$DATA_W" >"$TMP/status.json" 2>"$TMP/status.err" ||
  fail "status --json exit code $?: $(head -c 300 "$TMP/status.err")"
node -e '
  const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const bad = [];
  if (s.version !== process.argv[2]) bad.push("version " + s.version);
  if (s.platform !== "win32") bad.push("platform " + s.platform);
  if (s.linked !== false) bad.push("linked " + s.linked + " with an empty data folder");
  if (typeof s.running !== "boolean") bad.push("running " + s.running);
  for (const k of ["dataDir", "server"]) if (typeof s[k] !== "string") bad.push(k + " missing");
  if (bad.length) { console.error(bad.join(", ")); process.exit(1); }
' "$TMP/status.json" "$VERSION" 2>"$TMP/check.txt" || fail "status --json: $(cat "$TMP/check.txt"): $(head -c 300 "$TMP/status.json")"

timeout "$(paced 60)" wine "$EXE" run --server "$OFFLINE_SERVER" --port "$PORT" --no-browser --data-dir "$DATA_W" \
  >"$TMP/run.txt" 2>&1 &
pid=$!
ok=
for _ in $(seq "$(paced 60)"); do
  if curl -fsS -m 1 "http://127.0.0.1:$PORT/api/status" >"$TMP/api-status.json" 2>/dev/null; then
    ok=1
    break
  fi
  sleep 0.5
done
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
[ -n "$ok" ] || fail "run: no /api/status on port $PORT: $(head -c 300 "$TMP/run.txt")"
grep -q '"platform":"win32"' "$TMP/api-status.json" || fail "/api/status is not win32: $(head -c 300 "$TMP/api-status.json")"
echo "windows smoke: executable ok after $(($(date +%s) - started)) s"

if [ ! -f "$SETUP" ]; then
  echo "windows smoke: SKIPPED the installer, $SETUP not built (makensis missing? Debian: apt-get install -y nsis)"
  exit 0
fi
RUN='HKCU\Software\Microsoft\Windows\CurrentVersion\Run'
UNINST='HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\FlaglightCompanion'
# NSIS exits 0 even when it installs nothing (an x86 stub under wine64): check the results.
timeout "$(paced 120)" wine "$SETUP" /S || fail "installer exit code $?"
# A Windows folder's environment value, as a path here. Wine's cmd once printed nothing on a loaded
# host (the check then looked in /Programs/Flaglight): it is asked again until it answers.
winfolder() {
  local value='' folder='' _
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    value=$(timeout "$(paced 30)" wine cmd /c echo "%$1%" 2>/dev/null | tr -d '\r') || value=''
    if [ -n "$value" ] && [ "$value" != "%$1%" ]; then
      folder=$(timeout "$(paced 30)" wine winepath -u "$value" 2>/dev/null | tr -d '\r') || folder=''
      [ -n "$folder" ] && echo "$folder" && return 0
    fi
    sleep 1
  done
  return 1
}
LOCAL=$(winfolder LOCALAPPDATA) || fail "wine did not say where %LOCALAPPDATA% is"
ROAMING=$(winfolder APPDATA) || fail "wine did not say where %APPDATA% is"
DIR="$LOCAL/Programs/Flaglight"
MENU="$ROAMING/Microsoft/Windows/Start Menu/Programs/Flaglight"
[ -f "$DIR/flaglight-companion-win-x64.exe" ] || fail "nothing installed in $DIR"
[ -f "$DIR/uninstall.exe" ] || fail "no uninstall.exe in $DIR"
wine reg query "$RUN" /v 'Flaglight Companion' 2>/dev/null | grep -q -- '--background' || fail "no Run value with --background"
wine reg query "$UNINST" /v UninstallString >/dev/null 2>&1 || fail "no uninstall entry in HKCU"
LNK="$MENU/Flaglight Companion.lnk"
[ -f "$LNK" ] || fail "no Start-menu shortcut at $LNK"
# A .lnk holds its arguments in UTF-16.
tr -d '\0' <"$LNK" | grep -q -- '--background' || fail "the Start-menu shortcut does not pass --background"
echo "windows smoke: installed after $(($(date +%s) - started)) s"

# What an update leaves beside the executable (the version before it) goes with the uninstall too.
cp "$DIR/flaglight-companion-win-x64.exe" "$DIR/flaglight-companion-win-x64.exe.previous"
# `_?=` runs the uninstaller in place and waits (plain /S returns at once and works from a copy).
timeout "$(paced 120)" wine "$DIR/uninstall.exe" /S "_?=$(wine winepath -w "$DIR" | tr -d '\r')" || fail "uninstaller exit code $?"
[ ! -e "$DIR/flaglight-companion-win-x64.exe" ] || fail "the uninstaller left the executable"
[ ! -e "$DIR/flaglight-companion-win-x64.exe.previous" ] || fail "the uninstaller left the previous version"
[ ! -e "$LNK" ] || fail "the uninstaller left the Start-menu shortcut"
if wine reg query "$RUN" /v 'Flaglight Companion' >/dev/null 2>&1; then fail "the uninstaller left the Run value"; fi
if wine reg query "$UNINST" >/dev/null 2>&1; then fail "the uninstaller left the uninstall entry"; fi

echo "windows smoke: ok in $(($(date +%s) - started)) s (--version $VERSION, status --json, run /api/status win32, install /S, Run value, Start-menu shortcut, uninstall)"
