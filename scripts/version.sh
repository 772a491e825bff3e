#!/bin/sh
# phasegate's version, from its one source: `version` under [workspace.package]
# in Cargo.toml. Every crate inherits it; .claude-plugin/plugin.json carries a
# copy (stamped here, checked by tests/it/version.rs); scripts/package.sh
# writes it into every npm package it builds.
#
#   scripts/version.sh            print the version
#   scripts/version.sh 1.2.3      set it: Cargo.toml, Cargo.lock, plugin.json
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
current=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' "$root/Cargo.toml")
if [ $# -eq 0 ]; then
  echo "$current"
  exit 0
fi
new=$1
if ! printf '%s\n' "$new" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'; then
  echo "version.sh: '$new' is not a version like 1.2.3 or 1.2.3-rc.1" >&2
  exit 2
fi
replace() { # file, sed program: edit through a temp file (BSD and GNU sed alike)
  sed "$2" "$1" >"$1.tmp.$$" && mv "$1.tmp.$$" "$1"
}
replace "$root/Cargo.toml" "/^\[workspace.package\]/,/^\[/s/^version *= *\".*\"/version = \"$new\"/"
replace "$root/.claude-plugin/plugin.json" "s/^\(  \"version\": *\)\"[^\"]*\"/\1\"$new\"/"
cargo update --workspace --offline --manifest-path "$root/Cargo.toml" >/dev/null 2>&1 ||
  cargo metadata --format-version 1 --offline --manifest-path "$root/Cargo.toml" >/dev/null
echo "phasegate: version $current -> $new (Cargo.toml, Cargo.lock, .claude-plugin/plugin.json)"
