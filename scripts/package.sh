#!/bin/sh
# Build phasegate's release packages: what .github/workflows/release.yml runs,
# and what the end-to-end test runs for x86_64 Linux. See docs/distribution.md.
#
#   scripts/package.sh platform <rust-target> [out]   build the two binaries for one
#       target and stage them in <out>/<suffix>/; for every target but Windows also
#       the npm package @phasegate/plugin-<suffix> and its tarball <out>/*.tgz
#   scripts/package.sh plugin [out]   the plugin package @phasegate/plugin: the
#       plugin's files, the Windows binaries (when <out>/win32-x64 exists), a
#       package-lock.json that pins every platform package in <out> by its
#       sha512, and SHA256SUMS of every binary; packed to <out>/*.tgz
#   scripts/package.sh build [<rust-target>]   only build the two binaries with the
#       target's release flags (default: this machine); prints their folder
#   scripts/package.sh version        print the version (Cargo.toml, the one source)
#
# <out> defaults to target/dist. PHASEGATE_DIST_TARGET_DIR sets cargo's target
# directory (default: target). The version of every package is the workspace
# version; plugin.json must already carry it (scripts/version.sh stamps it).
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
scope=@phasegate
main_name=$scope/plugin

version() {
  sed -n '/^\[workspace.package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' "$root/Cargo.toml"
}

# The platforms: rust target -> npm suffix, os, cpu, libc, rustflags of
# phasegate-hook, rustflags of workflow-state ("-": none). Linux glibc: the hook
# fully static and non-PIE (no loader, nothing to relocate: it starts faster
# than a dynamic `fn main() {}`); workflow-state non-PIE against the dynamic
# glibc, because it resolves Slack's address and a static glibc's getaddrinfo
# needs the NSS modules of the very glibc it was built with. musl and Windows:
# both static. See docs/distribution.md and docs/benchmarks.md.
glibc_hook="-Ctarget-feature=+crt-static -Crelocation-model=static"
platform_of() {
  case $1 in
    x86_64-unknown-linux-gnu) echo "linux-x64-gnu linux x64 glibc" ;;
    aarch64-unknown-linux-gnu) echo "linux-arm64-gnu linux arm64 glibc" ;;
    x86_64-unknown-linux-musl) echo "linux-x64-musl linux x64 musl" ;;
    aarch64-unknown-linux-musl) echo "linux-arm64-musl linux arm64 musl" ;;
    x86_64-apple-darwin) echo "darwin-x64 darwin x64 -" ;;
    aarch64-apple-darwin) echo "darwin-arm64 darwin arm64 -" ;;
    x86_64-pc-windows-msvc) echo "win32-x64 win32 x64 -" ;;
    *) echo "package.sh: unknown target $1" >&2; return 2 ;;
  esac
}
flags_of() { # target, binary
  case $1 in
    *-linux-gnu) if [ "$2" = phasegate-hook ]; then echo "$glibc_hook"; else echo "-Crelocation-model=static"; fi ;;
    *-linux-musl | *-windows-msvc) echo "-Ctarget-feature=+crt-static" ;;
    *) echo "" ;;
  esac
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1; else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

check_plugin_version() {
  v=$(version)
  pv=$(node -e 'process.stdout.write(require(process.argv[1]).version)' "$root/.claude-plugin/plugin.json")
  if [ "$pv" != "$v" ]; then
    echo "package.sh: .claude-plugin/plugin.json says $pv but Cargo.toml says $v; run scripts/version.sh $v" >&2
    exit 1
  fi
}

# Builds both binaries for a target with their shipped flags into
# <target-dir>/dist-bin/<target>/ and prints that folder. scripts/install.sh
# builds through here too, so a source install runs the very binaries a
# release ships.
cmd_build() {
  target=$1
  # What cargo sets for a crate (this script may run inside `cargo test`):
  # build scripts watch some of these (ring: CARGO_MANIFEST_DIR), so left
  # set they would rebuild everything whenever the caller differs.
  for v in $(env | sed -n 's/^\(CARGO_\(MANIFEST\|PKG\|CRATE\|PRIMARY\|TARGET_TMPDIR\|RUSTC_CURRENT\)[A-Za-z0-9_]*\)=.*/\1/p'); do
    unset "$v"
  done
  target_dir=${PHASEGATE_DIST_TARGET_DIR:-$root/target}
  dest=$target_dir/dist-bin/$target
  mkdir -p "$dest"
  ext=
  case $target in *windows*) ext=.exe ;; esac
  for b in workflow-state phasegate-hook; do
    flags=$(flags_of "$target" "$b")
    # One target folder per set of flags: cargo rebuilds everything when
    # RUSTFLAGS change, so two sets in one folder would rebuild on every run.
    case $flags in
      "$glibc_hook") dir=$target_dir/static ;;
      *) dir=$target_dir ;;
    esac
    # Always --target, even for the host: RUSTFLAGS then reach only the
    # target's code, not build scripts and proc-macros (they cannot be static).
    # LIBZ_SYS_STATIC: libgit2's zlib is compiled in, so no binary needs the
    # system's libz.so.1.
    echo "package.sh: building $b for $target (RUSTFLAGS=$flags)" >&2
    LIBZ_SYS_STATIC=1 RUSTFLAGS="${RUSTFLAGS:-} $flags" cargo build --release --locked --manifest-path "$root/Cargo.toml" \
      --target-dir "$dir" --target "$target" --bin "$b" >&2
    cp "$dir/$target/release/$b$ext" "$dest/$b$ext"
  done
  echo "$dest"
}

cmd_platform() {
  target=$1
  out=$2
  spec=$(platform_of "$target") || exit 2
  # shellcheck disable=SC2086
  set -- $spec
  suffix=$1 os=$2 cpu=$3 libc=$4
  ext=
  [ "$os" = win32 ] && ext=.exe
  v=$(version)
  check_plugin_version
  bin_dir=$(cmd_build "$target")

  stage=$out/$suffix
  rm -rf "$stage"
  mkdir -p "$stage/bin"
  for b in workflow-state phasegate-hook; do
    cp "$bin_dir/$b$ext" "$stage/bin/$b$ext"
    chmod 755 "$stage/bin/$b$ext"
  done
  (cd "$stage" && for f in bin/*; do printf '%s  %s\n' "$(sha256 "$f")" "$f"; done) >"$stage/SHA256SUMS"
  if [ "$os" = win32 ]; then
    echo "$stage"
    return
  fi
  # The anchor: npm links node_modules/.bin/phasegate-native to this folder, three
  # levels below the package root, as node_modules/.bin/phasegate-native is three
  # levels below the plugin's root. See docs/distribution.md, "One hook command".
  mkdir -p "$stage/anchor/three/deep"
  cat >"$stage/anchor/three/deep/README.md" <<'EOF'
This folder is an anchor. npm links `node_modules/.bin/phasegate-native` to it,
so the plugin's hook command `node_modules/.bin/phasegate-native/../../../bin/phasegate-hook`
reaches this package's `bin/phasegate-hook` on Linux and macOS (a link is
followed before `..`), and the plugin's own `bin/phasegate-hook.exe` on Windows
(where `..` is applied to the text). See docs/distribution.md.
EOF
  node - "$stage/package.json" "$scope/plugin-$suffix" "$v" "$os" "$cpu" "$libc" <<'EOF'
const [file, name, version, os, cpu, libc] = process.argv.slice(2);
const pkg = {
  name, version,
  description: `phasegate's native binaries (workflow-state, phasegate-hook) for ${os}-${cpu}${libc === "-" ? "" : " " + libc}; installed by the @phasegate/plugin Claude Code plugin`,
  license: "MIT",
  repository: { type: "git", url: "https://github.com/phasegate/phasegate" },
  os: [os], cpu: [cpu], ...(libc === "-" ? {} : { libc: [libc] }),
  bin: { "phasegate-native": "anchor/three/deep", "phasegate-hook": "bin/phasegate-hook", "workflow-state": "bin/workflow-state" },
  files: ["bin/", "anchor/", "SHA256SUMS"],
  preferUnplugged: true,
};
require("fs").writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
EOF
  (cd "$stage" && npm pack --silent --pack-destination "$out" >/dev/null)
  echo "$stage"
}

cmd_plugin() {
  out=$1
  v=$(version)
  check_plugin_version
  stage=$out/plugin
  rm -rf "$stage"
  mkdir -p "$stage/bin" "$stage/hooks"
  for part in .claude-plugin/plugin.json monitors commands agents skills schemas README.md LICENSE; do
    mkdir -p "$stage/$(dirname "$part")"
    cp -R "$root/$part" "$stage/$part"
  done
  # One command for every platform (docs/distribution.md, "One hook command").
  sed 's#"${CLAUDE_PLUGIN_ROOT}/bin/phasegate-hook"#"${CLAUDE_PLUGIN_ROOT}/node_modules/.bin/phasegate-native/../../../bin/phasegate-hook"#' \
    "$root/hooks/hooks.json" >"$stage/hooks/hooks.json"
  if ! grep -q 'phasegate-native/../../../bin/phasegate-hook' "$stage/hooks/hooks.json"; then
    echo "package.sh: hooks/hooks.json no longer names \${CLAUDE_PLUGIN_ROOT}/bin/phasegate-hook" >&2
    exit 1
  fi
  cp "$root/scripts/dist/workflow-state" "$stage/bin/workflow-state"
  chmod 755 "$stage/bin/workflow-state"
  : >"$stage/SHA256SUMS"
  if [ -d "$out/win32-x64" ]; then
    cp "$out/win32-x64/bin/"*.exe "$stage/bin/"
    sed 's#  bin/#  bin/#' "$out/win32-x64/SHA256SUMS" >>"$stage/SHA256SUMS"
  fi
  for dir in "$out"/*/; do
    suffix=$(basename "$dir")
    case $suffix in plugin | win32-x64) continue ;; esac
    [ -f "$dir/package.json" ] || continue
    sed "s#  bin/#  node_modules/$scope/plugin-$suffix/bin/#" "$dir/SHA256SUMS" >>"$stage/SHA256SUMS"
  done
  node "$root/scripts/dist/lockfile.js" "$stage" "$out" "$main_name" "$v" "$scope"
  (cd "$stage" && npm pack --silent --pack-destination "$out" >/dev/null)
  echo "$stage"
}

case ${1:-} in
  version) version ;;
  build) cmd_build "${2:-$(rustc -vV | sed -n 's/^host: //p')}" ;;
  platform) [ $# -ge 2 ] || { echo "usage: package.sh platform <rust-target> [out]" >&2; exit 2; }
    out=${3:-$root/target/dist}; mkdir -p "$out"; cmd_platform "$2" "$(cd "$out" && pwd)" ;;
  plugin) out=${2:-$root/target/dist}; mkdir -p "$out"; cmd_plugin "$(cd "$out" && pwd)" ;;
  *) sed -n '2,20p' "$0" >&2; exit 2 ;;
esac
