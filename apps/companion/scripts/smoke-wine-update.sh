#!/usr/bin/env bash
# The Windows update path under wine (decision 045): version N (dist/flaglight-companion-win-x64.exe,
# from `npm run package`) runs from an install folder of its own; a small local server offers
# version N+1 (built here with --windows-only --version, signed with the same throw-away key). The
# companion downloads it, renames its running .exe aside (.previous), puts N+1 in its place, starts
# it with the same arguments and exits once N+1 answers on the same port.
# Nothing leaves this machine. Without wine it says so and passes; a missing build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
# Ceilings stretch on a slower host (paced).
. scripts/paced.sh
started=$(date +%s)
fail() {
  echo "windows update smoke FAILED: $*" >&2
  exit 1
}
if ! command -v wine >/dev/null; then
  echo "windows update smoke: SKIPPED, wine not installed (Debian: apt-get install -y wine wine64)"
  exit 0
fi
EXE=dist/flaglight-companion-win-x64.exe
[ -f "$EXE" ] || fail "$EXE missing: run npm run package -w @flaglight/companion first"
VERSION=$(node -p 'require("./package.json").version')
NEXT=$(node -p 'const [a, b, c] = require("./package.json").version.split(".").map(Number); `${a}.${b}.${c + 1}`')

TMP=$(mktemp -d)
export WINEPREFIX="$TMP/wine" WINEDEBUG=-all WINEDLLOVERRIDES=winemenubuilder.exe=d
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  wineserver -k 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

node scripts/package.mjs --windows-only --version "$NEXT" --out-dir "$TMP/next" >"$TMP/build.txt" 2>&1 ||
  fail "building $NEXT: $(tail -c 600 "$TMP/build.txt")"
echo "windows update smoke: $NEXT built after $(($(date +%s) - started)) s"

# The server's two download routes, from the N+1 folder; every other path is a 404 (the companion's
# attempts to link go nowhere, which does not stop its update check).
PORTS=$(node -e 'const n=require("net");const a=n.createServer().listen(0,"127.0.0.1",()=>{const b=n.createServer().listen(0,"127.0.0.1",()=>{console.log(a.address().port+" "+b.address().port);a.close();b.close()})})')
SERVER_PORT=${PORTS% *}
PORT=${PORTS#* }
node -e '
  const http = require("http"), fs = require("fs"), path = require("path");
  const dir = process.argv[1];
  const files = { "/api/downloads/companion-manifest": "manifest.json", ["/api/downloads/companion-releases/" + process.argv[3] + "/flaglight-companion-win-x64"]: "flaglight-companion-win-x64.exe" };
  http.createServer((q, r) => {
    const name = files[q.url];
    if (!name) return r.writeHead(404, { "content-type": "application/json" }).end("{\"error\":\"not found\"}");
    const file = path.join(dir, name);
    r.writeHead(200, { "content-length": fs.statSync(file).size });
    fs.createReadStream(file).pipe(r);
  }).listen(Number(process.argv[2]), "127.0.0.1");
' "$TMP/next" "$SERVER_PORT" "$NEXT" &
server_pid=$!

# Wine 8 reports Windows 7 by default and Node refuses to start there. This first call makes the
# prefix: over 240 s once on a host given one core beside the journeys, so its ceiling is generous.
timeout "$(paced 300)" wine reg add 'HKCU\Software\Wine' /v Version /t REG_SZ /d win10 /f >/dev/null 2>&1 ||
  fail "could not create the wine prefix"
mkdir -p "$TMP/install" "$TMP/data"
cp "$EXE" "$TMP/install/flaglight-companion-win-x64.exe"
INSTALLED_W=$(wine winepath -w "$TMP/install/flaglight-companion-win-x64.exe" | tr -d '\r')
DATA_W=$(wine winepath -w "$TMP/data" | tr -d '\r')

# Node under wine dies with EBADF when stdout is a pipe: always a file.
timeout "$(paced 180)" wine "$INSTALLED_W" run --server "http://127.0.0.1:$SERVER_PORT" --port "$PORT" --no-browser \
  --data-dir "$DATA_W" >"$TMP/run.txt" 2>&1 &
old=$!
ok=
for _ in $(seq "$(paced 240)"); do
  if curl -fsS -m 1 "http://127.0.0.1:$PORT/api/status" >"$TMP/status.json" 2>/dev/null &&
    grep -q "\"version\":\"$NEXT\"" "$TMP/status.json"; then
    ok=1
    break
  fi
  sleep 0.5
done
[ -n "$ok" ] || fail "$NEXT never answered on port $PORT: $(tail -c 800 "$TMP/run.txt")"
echo "windows update smoke: $NEXT answers on port $PORT after $(($(date +%s) - started)) s"

# The old process is gone (wine's launcher ends with it), the new file is in place, the old one aside.
for _ in $(seq "$(paced 20)"); do kill -0 "$old" 2>/dev/null || break; sleep 0.5; done
kill -0 "$old" 2>/dev/null && fail "the old version ($VERSION) still runs after $NEXT answered"
sha() { sha256sum "$1" | cut -d' ' -f1; }
[ "$(sha "$TMP/install/flaglight-companion-win-x64.exe")" = "$(sha "$TMP/next/flaglight-companion-win-x64.exe")" ] ||
  fail "the installed .exe is not $NEXT"
[ "$(sha "$TMP/install/flaglight-companion-win-x64.exe.previous")" = "$(sha "$EXE")" ] ||
  fail "the .previous file is not $VERSION"
[ ! -e "$TMP/install/flaglight-companion-win-x64.exe.download" ] || fail "the download was left beside the .exe"
grep -q '"platform":"win32"' "$TMP/status.json" || fail "/api/status is not win32: $(head -c 300 "$TMP/status.json")"
echo "windows update smoke: ok ($VERSION renamed aside, $NEXT in place and running, $VERSION gone) in $(($(date +%s) - started)) s"
