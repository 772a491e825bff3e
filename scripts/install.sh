#!/bin/sh
# Build phasegate and install it into Claude Code as a plugin.
#
#   scripts/install.sh            build, stage, register with `claude`
#   PHASEGATE_HOME=<dir>          where the installed plugin lives
#                                 (default: ${XDG_DATA_HOME:-~/.local/share}/phasegate)
#
# The plugin is staged as a small local marketplace (plugin files plus the
# release binaries in bin/), so Claude Code never copies this checkout's
# target/ or node_modules/, and the plugin keeps working after `cargo clean`.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
home_dir=${PHASEGATE_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/phasegate}

echo "phasegate: building release binaries (first build takes a few minutes)"
# The same build, flags included, as the release packages (scripts/package.sh).
host=$(rustc -vV | sed -n 's/^host: //p')
built=$(sh "$root/scripts/package.sh" build "$host")

new="$home_dir.new.$$"
rm -rf "$new"
mkdir -p "$new/.claude-plugin" "$new/phasegate/bin"
for part in .claude-plugin/plugin.json hooks monitors commands agents skills schemas README.md LICENSE; do
  mkdir -p "$new/phasegate/$(dirname "$part")"
  cp -R "$root/$part" "$new/phasegate/$part"
done
cp "$built/workflow-state" "$built/phasegate-hook" "$new/phasegate/bin/"
chmod 755 "$new/phasegate/bin/"*
# The staged marketplace lists the same plugin under the same names as the
# repository's own .claude-plugin/marketplace.json, but from ./phasegate (the
# repository's entry installs the released npm package).
cat >"$new/.claude-plugin/marketplace.json" <<'EOF'
{
  "name": "phasegate",
  "owner": { "name": "phasegate contributors" },
  "description": "phasegate built from a source checkout (scripts/install.sh).",
  "plugins": [
    {
      "name": "phasegate",
      "source": "./phasegate",
      "description": "Phased feature workflow with reviewer loops and exact state, enforced by Rust binaries."
    }
  ]
}
EOF

mkdir -p "$(dirname "$home_dir")"
if [ -d "$home_dir" ]; then
  mv "$home_dir" "$home_dir.old.$$"
fi
mv "$new" "$home_dir"
rm -rf "$home_dir.old.$$"
echo "phasegate: staged in $home_dir"

if ! command -v claude >/dev/null 2>&1; then
  echo "phasegate: 'claude' is not on PATH. Install Claude Code, then run:"
  echo "  claude plugin marketplace add $home_dir"
  echo "  claude plugin install phasegate@phasegate"
  exit 0
fi
claude plugin marketplace add "$home_dir"
claude plugin install phasegate@phasegate
# Some plugin caches have lost execute bits; restore them where Claude Code keeps the plugin.
claude plugin list --json 2>/dev/null | sed -n 's/.*"\(installPath\|readFromFolder\)": *"\([^"]*\)".*/\2/p' | while read -r dir; do
  case "$dir" in *phasegate*) [ -d "$dir/bin" ] && chmod 755 "$dir/bin/"* 2>/dev/null || true ;; esac
done
echo "phasegate: installed. Start a new Claude Code session in your project; try /phasegate:status."
