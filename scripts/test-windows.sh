#!/bin/sh
# Build the Windows binaries (x86_64-pc-windows-gnu) on Linux and run the
# tests of their Windows code paths under Wine (tests/windows): the hook
# protocol of every event, the state guard, leases across sessions and
# spellings of a path, feature creation, paths with drive letters and
# backslashes, CRLF files, locks and process checks, through the real
# workflow-state.exe and phasegate-hook.exe.
#
#   sh scripts/test-windows.sh               build, test, and on success
#                                            record the sources' digest
#   sh scripts/test-windows.sh --if-changed  the same, only when the
#                                            Windows-relevant sources differ
#                                            from the recorded digest (CI)
#   sh scripts/test-windows.sh --digest      print the sources' digest
#
# Any further arguments go to the test binary (a test name to filter).
#
# How (see docs/distribution.md): Debian's rustc-web (1.96) with its
# standard library's sources rebuilds std for the target
# (RUSTC_BOOTSTRAP=1, -Zbuild-std), mingw-w64 links it statically, and
# Wine 8.0 runs it. Wine lacks bcryptprimitives.dll, which Rust's std
# imports ProcessPrng from: scripts/windows/bcryptprimitives.c stands in
# for it in the Wine prefix. Installs what it needs with apt-get (as root,
# or through sudo). Works from a fresh clone with a fresh HOME: the Wine
# prefix and the build live under the target folder
# (PHASEGATE_WINDOWS_TARGET, default target/windows).
#
# PHASEGATE_CARGO_LOCK, when set, names a file every cargo build here
# takes with flock first (a machine shared by several builders).
#
# The digest of the Windows-relevant sources (scripts/windows/sources lists
# them) is kept in scripts/windows-tested.sha256: written when every test
# passes, and committed with the change. CI runs this script with
# --if-changed after scripts/test.sh, so a change to those sources is
# tested on Windows once, by whoever changes them, and again in CI until
# its digest is committed.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

mode=run
case "${1:-}" in
  --if-changed) mode=if-changed; shift ;;
  --digest) mode=digest; shift ;;
esac

digest_file=scripts/windows-tested.sha256

# The Windows-relevant sources: the files scripts/windows/sources names
# (git pathspecs), and every Rust source that says cfg(windows),
# cfg(unix) or names a target OS, so new platform code joins by itself.
digest() {
  {
    grep -v '^[[:space:]]*\(#\|$\)' scripts/windows/sources | tr '\n' '\0' | xargs -r -0 git ls-files --
    git ls-files -- 'crates/*.rs' | xargs -r grep -l -E 'cfg\((not\()?(windows|unix)|target_os|cfg!\((windows|unix)' || true
  } | LC_ALL=C sort -u | while IFS= read -r f; do
    [ -f "$f" ] && printf '%s  %s\n' "$(sha256sum < "$f" | cut -d' ' -f1)" "$f"
  done | sha256sum | cut -d' ' -f1
}

now=$(digest)
if [ "$mode" = digest ]; then
  echo "$now"
  exit 0
fi
if [ "$mode" = if-changed ]; then
  was=$(cat "$digest_file" 2>/dev/null || true)
  if [ "$now" = "$was" ]; then
    echo "phasegate: the Windows sources are as last tested under Wine ($digest_file); not run again"
    exit 0
  fi
  echo "phasegate: the Windows sources changed since their last run under Wine; running scripts/test-windows.sh"
fi

start=$(date +%s)
say() { echo "phasegate windows: $* ($(($(date +%s) - start)) s)"; }

# What it needs, from Debian's packages.
packages="rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine64"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  command -v apt-get >/dev/null 2>&1 || { echo "phasegate: the Windows tests need Debian's$missing (apt-get)" >&2; exit 1; }
  say "installing$missing"
  sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086
  $sudo_cmd apt-get install -y -qq $missing >/dev/null 2>&1 || {
    $sudo_cmd apt-get update -qq >/dev/null
    $sudo_cmd apt-get install -y -qq $missing >/dev/null
  }
fi

wine=/usr/lib/wine/wine64
wineserver=/usr/lib/wine/wineserver
target=${PHASEGATE_WINDOWS_TARGET:-$root/target/windows}
mkdir -p "$target"
target=$(cd "$target" && pwd)
triple=x86_64-pc-windows-gnu

locked() {
  if [ -n "${PHASEGATE_CARGO_LOCK:-}" ]; then
    flock "$PHASEGATE_CARGO_LOCK" nice -n 5 "$@"
  else
    "$@"
  fi
}

# The binaries, with the crash points the tests use (as tests/it's are).
# Debian's cargo and rustc (rustup's come first on PATH); Cargo's home is
# the caller's, so crates already fetched are not fetched again.
say "building workflow-state.exe and phasegate-hook.exe ($triple, debug)"
locked env RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc \
  CARGO_TARGET_DIR="$target" \
  CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc \
  RUSTFLAGS=-Ctarget-feature=+crt-static LIBZ_SYS_STATIC=1 \
  /usr/bin/cargo build --locked -Zbuild-std=std,panic_abort --target "$triple" \
  --bins -p phasegate -p phasegate-store --features phasegate-store/failpoints
bin=$target/$triple/debug

# The helpers: the stand-in bcryptprimitives.dll and pid.exe.
helpers=$target/helpers
mkdir -p "$helpers"
x86_64-w64-mingw32-gcc -shared -O2 -s -static-libgcc -o "$helpers/bcryptprimitives.dll" \
  scripts/windows/bcryptprimitives.c scripts/windows/bcryptprimitives.def -ladvapi32
x86_64-w64-mingw32-gcc -O2 -s -static-libgcc -o "$helpers/pid.exe" scripts/windows/pid.c

# The Wine prefix, made once; no Mono or Gecko (nothing here needs them,
# and their installers would ask), no menu entries written to HOME.
export WINEPREFIX="$target/wine-prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  say "making the Wine prefix"
  "$wine" wineboot --init >/dev/null 2>&1 || true
  "$wineserver" -w
fi
cp "$helpers/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"

# One Wine server for the whole run (each start of one costs a second).
# The first program it runs starts Wine's own services (services.exe,
# winedevice.exe, …), which live on with the server and keep the file
# descriptors that program had: run it with nothing a test waits on, or a
# test's pipe would stay open for the whole run.
"$wineserver" -p
trap '"$wineserver" -k >/dev/null 2>&1 || true' EXIT INT TERM
version=$target/version.txt
"$wine" "$bin/workflow-state.exe" --version >"$version" 2>&1 </dev/null \
  || { echo "phasegate: workflow-state.exe does not run under Wine (exit $?): $(cat "$version")" >&2; exit 1; }
say "under Wine: $(head -n 1 "$version")"

# The tests: built with the workspace's toolchain (the target is
# `test = false`: only named, as here, is it built and run).
say "building tests/windows"
exe=$(locked cargo test --locked --test windows --no-run --message-format=json \
  | grep '"kind":\["test"\]' | grep '"name":"windows"' \
  | grep -o '"executable":"[^"]*"' | tail -n 1 | sed 's/"executable":"\(.*\)"/\1/')
[ -x "$exe" ] || { echo "phasegate: the tests/windows binary was not built" >&2; exit 1; }
say "running tests/windows under Wine"
# They take under a minute; a run still going after 15 hangs (a process
# holding a test's pipe): it is ended and fails, rather than CI's whole time.
status=0
PHASEGATE_WINDOWS_BIN=$bin PHASEGATE_WINDOWS_HELPERS=$helpers PHASEGATE_WINE=$wine \
  timeout 900 "$exe" "$@" || status=$?
if [ "$status" -ne 0 ]; then
  [ "$status" -eq 124 ] && echo "phasegate: tests/windows still ran after 15 minutes and was stopped" >&2
  exit "$status"
fi

if [ $# -eq 0 ]; then
  echo "$now" > "$digest_file"
  say "passed; $digest_file records the sources tested"
else
  say "passed (filtered: $digest_file left as it was)"
fi
