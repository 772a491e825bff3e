// Writes the plugin package's package.json and npm-shrinkwrap.json (npm never
// publishes a package-lock.json; Claude Code reads either): one optional
// dependency per platform package found in <out>, each pinned to its exact
// version and the sha512 of its tarball, with the os/cpu/libc that let npm
// install only the one that fits. Called by scripts/package.sh plugin.
//
//   node lockfile.js <stage> <out> <main-name> <version> <scope>
"use strict";
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");

const [stage, out, mainName, version, scope] = process.argv.slice(2);
const deps = {};
const packages = {};
for (const suffix of fs.readdirSync(out).sort()) {
  const manifest = path.join(out, suffix, "package.json");
  if (suffix === "plugin" || !fs.existsSync(manifest)) continue;
  const pkg = JSON.parse(fs.readFileSync(manifest, "utf8"));
  if (pkg.version !== version) throw new Error(`${manifest} is version ${pkg.version}, not ${version}`);
  const base = pkg.name.slice(scope.length + 1);
  const tgz = path.join(out, `${scope.slice(1)}-${base}-${version}.tgz`);
  const bytes = fs.readFileSync(tgz);
  deps[pkg.name] = version;
  const entry = {
    version,
    resolved: `https://registry.npmjs.org/${pkg.name}/-/${base}-${version}.tgz`,
    integrity: "sha512-" + crypto.createHash("sha512").update(bytes).digest("base64"),
    cpu: pkg.cpu,
    license: pkg.license,
    optional: true,
    os: pkg.os,
    bin: pkg.bin,
  };
  if (pkg.libc) entry.libc = pkg.libc;
  packages[`node_modules/${pkg.name}`] = entry;
}
if (Object.keys(deps).length === 0) throw new Error(`no platform package in ${out}`);
const main = {
  name: mainName,
  version,
  description: "phasegate, a Claude Code plugin: install it inside Claude Code with /plugin marketplace add phasegate/phasegate, then /plugin install phasegate@phasegate",
  license: "MIT",
  repository: { type: "git", url: "https://github.com/phasegate/phasegate" },
  keywords: ["claude-code", "claude-code-plugin", "workflow", "review"],
  files: [".claude-plugin/", "agents/", "bin/", "commands/", "hooks/", "schemas/", "skills/", "SHA256SUMS", "npm-shrinkwrap.json"],
  optionalDependencies: deps,
};
const lock = {
  name: mainName,
  version,
  lockfileVersion: 3,
  requires: true,
  packages: { "": { name: mainName, version, license: "MIT", optionalDependencies: deps }, ...packages },
};
fs.writeFileSync(path.join(stage, "package.json"), JSON.stringify(main, null, 2) + "\n");
fs.writeFileSync(path.join(stage, "npm-shrinkwrap.json"), JSON.stringify(lock, null, 2) + "\n");
