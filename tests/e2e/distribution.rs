//! The README's quick start as users get it (docs/distribution.md): the
//! x86_64 Linux packages built by the release workflow's own script
//! (`scripts/package.sh`), served by an npm registry on 127.0.0.1, installed
//! through the real `claude plugin marketplace add` and `claude plugin
//! install` with a fresh HOME and no cargo or rustc on PATH. Then a session
//! runs SessionStart and a phase command on the installed binaries, every
//! checksum is checked, and a newer version is published and taken by
//! `claude plugin update`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use phasegate_testkit::npm::{digest, integrity};
use phasegate_testkit::{ClaudeCode, MockApi, NpmRegistry, Scenario, ToolUse, Turn};
use serde_json::Value;

use crate::support::{Fixture, plugin_root, session_context};

const TARGET: &str = "x86_64-unknown-linux-gnu";
const PLATFORM: &str = "@phasegate/plugin-linux-x64-gnu";
/// The hook command every platform shares (docs/distribution.md).
const HOOK_COMMAND: &str = "${CLAUDE_PLUGIN_ROOT}/node_modules/.bin/phasegate-native/../../../bin/phasegate-hook";

/// target/dist-e2e: the platform package and the plugin package, built once
/// per test run by the release script (cargo's own cache keeps a rebuild
/// quick; the first build in a clean clone is a release build).
fn dist() -> &'static Path {
    static DIST: OnceLock<PathBuf> = OnceLock::new();
    DIST.get_or_init(|| {
        let out = plugin_root().join("target/dist-e2e");
        let _ = std::fs::remove_dir_all(&out);
        for args in [&["platform", TARGET][..], &["plugin"][..]] {
            let run =
                Command::new("sh").arg(plugin_root().join("scripts/package.sh")).args(args).arg(&out).output().unwrap();
            assert!(run.status.success(), "scripts/package.sh {args:?} failed:\n{}", log(&run));
        }
        out
    })
}

fn log(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn version() -> String {
    let out = Command::new("sh").arg(plugin_root().join("scripts/package.sh")).arg("version").output().unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// A PATH of the system's programs without a Rust toolchain: what a user
/// without one has. The system's folders may hold one (Debian's `rustc-web`
/// puts `cargo` in /usr/bin, as the Windows build installs it), so the PATH
/// is one folder of links to every program of the system's folders but
/// cargo's, rustc's and rustup's; checked to hold none of them.
fn path_without_rust() -> String {
    static FARM: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    let farm = FARM.get_or_init(|| {
        let farm = tempfile::tempdir().unwrap();
        for dir in ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"] {
            let Ok(entries) = std::fs::read_dir(dir) else { continue };
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let rust = name.starts_with("cargo") || name.starts_with("rust");
                let link = farm.path().join(&name);
                if !rust && !link.exists() && std::fs::symlink_metadata(&link).is_err() {
                    let _ = std::os::unix::fs::symlink(e.path(), &link);
                }
            }
        }
        farm
    });
    let path = farm.path().display().to_string();
    for tool in ["cargo", "rustc", "rustup"] {
        let found =
            Command::new("/bin/sh").args(["-c", &format!("command -v {tool}")]).env("PATH", &path).output().unwrap();
        assert!(!found.status.success(), "{tool} is on the toolchain-free PATH {path}: {}", log(&found));
    }
    for tool in ["npm", "node", "git"] {
        let found =
            Command::new("/bin/sh").args(["-c", &format!("command -v {tool}")]).env("PATH", &path).output().unwrap();
        assert!(found.status.success(), "the test needs {tool} in {path} (a user needs npm for npm plugins)");
    }
    path
}

/// A user's machine: a fresh HOME whose npm registry is the local one.
struct User {
    home: PathBuf,
    path: String,
}

impl User {
    fn new(f: &Fixture, registry: &NpmRegistry) -> User {
        std::fs::write(
            f.home.join(".npmrc"),
            format!("registry={}\naudit=false\nfund=false\nupdate-notifier=false\n", registry.url()),
        )
        .unwrap();
        User { home: f.home.clone(), path: path_without_rust() }
    }

    /// `claude plugin …`; panics unless it exits 0.
    fn plugin(&self, args: &[&str]) -> String {
        let out = Command::new(phasegate_testkit::locate_binary())
            .arg("plugin")
            .args(args)
            .env_clear()
            .env("HOME", &self.home)
            .env("PATH", &self.path)
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .current_dir(&self.home)
            .output()
            .unwrap();
        assert!(out.status.success(), "claude plugin {args:?} failed:\n{}", log(&out));
        log(&out)
    }

    /// The installed phasegate's record in `claude plugin list --json`.
    fn installed(&self) -> Value {
        let list: Value = serde_json::from_str(&self.plugin(&["list", "--json"])).unwrap();
        list.as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == "phasegate@phasegate")
            .expect("phasegate is installed")
            .clone()
    }

    fn claude(&self, f: &Fixture) -> ClaudeCode {
        ClaudeCode::new().home(&self.home).cwd(&f.repo).env("PATH", &self.path).allowed_tools("Bash")
    }
}

fn sha256(path: &Path) -> String {
    digest("sha256sum", &std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// Every binary the install holds matches SHA256SUMS (shipped in the plugin
/// package), and the platform package on disk is the one the lockfile pins.
fn check_checksums(root: &Path, dist: &Path) {
    let sums = std::fs::read_to_string(root.join("SHA256SUMS")).unwrap();
    let mut checked = 0;
    for line in sums.lines() {
        let (want, rel) = line.split_once("  ").expect("SHA256SUMS line: <sha256>  <path>");
        let path = root.join(rel);
        if rel.starts_with("node_modules/") || path.exists() {
            assert_eq!(sha256(&path), want, "{rel} does not match SHA256SUMS");
            checked += 1;
        }
    }
    for bin in ["workflow-state", "phasegate-hook"] {
        assert!(sums.contains(&format!("node_modules/{PLATFORM}/bin/{bin}\n")), "SHA256SUMS lacks {bin}:\n{sums}");
    }
    assert!(checked >= 2, "no binary checked:\n{sums}");
    let lock: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("npm-shrinkwrap.json")).unwrap()).unwrap();
    let entry = &lock["packages"][format!("node_modules/{PLATFORM}")];
    let version = entry["version"].as_str().unwrap();
    let tgz = dist.join(format!("phasegate-plugin-linux-x64-gnu-{version}.tgz"));
    assert_eq!(
        entry["integrity"],
        integrity(&std::fs::read(&tgz).unwrap()),
        "the lockfile does not pin {}",
        tgz.display()
    );
    let installed: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join(format!("node_modules/{PLATFORM}/package.json"))).unwrap(),
    )
    .unwrap();
    assert_eq!(installed["version"], version);
}

#[test]
fn users_install_and_update_through_claude_code_without_a_toolchain() {
    let dist = dist();
    let v = version();
    let registry = NpmRegistry::start();
    for tgz in [format!("phasegate-plugin-linux-x64-gnu-{v}.tgz"), format!("phasegate-plugin-{v}.tgz")] {
        registry.publish(&dist.join(tgz), true);
    }
    let f = Fixture::repo();
    let user = User::new(&f, &registry);
    user.plugin(&["validate", "--strict", &dist.join("plugin").display().to_string()]);

    // Step 1 and 2 of the README, with the repository's own marketplace.json.
    let marketplace = f.home.join("marketplace");
    std::fs::create_dir_all(marketplace.join(".claude-plugin")).unwrap();
    std::fs::copy(
        plugin_root().join(".claude-plugin/marketplace.json"),
        marketplace.join(".claude-plugin/marketplace.json"),
    )
    .unwrap();
    user.plugin(&["marketplace", "add", &marketplace.display().to_string()]);
    user.plugin(&["install", "phasegate@phasegate"]);
    let entry = user.installed();
    assert_eq!(entry["enabled"], true, "{entry}");
    assert_eq!(entry["version"], v.as_str(), "{entry}");
    let root = PathBuf::from(entry["installPath"].as_str().expect("installPath"));

    // What Claude Code put there: the plugin package, and npm's install of
    // the one platform package (the link to its anchor included).
    // Every hook: exec form (no shell), the one command for every platform.
    let hooks: Value = serde_json::from_str(&std::fs::read_to_string(root.join("hooks/hooks.json")).unwrap()).unwrap();
    let mut commands = 0;
    for (event, matchers) in hooks["hooks"].as_object().unwrap() {
        for hook in matchers.as_array().unwrap().iter().flat_map(|m| m["hooks"].as_array().unwrap()) {
            assert_eq!(hook["command"], HOOK_COMMAND, "{event}: {hook}");
            assert!(hook["args"].is_array(), "{event} is not in exec form: {hook}");
            commands += 1;
        }
    }
    assert_eq!(commands, 8, "{hooks}");
    let native = root.join("node_modules/.bin/phasegate-native");
    assert!(std::fs::symlink_metadata(&native).unwrap().file_type().is_symlink());
    assert_eq!(
        native.join("../../../bin/phasegate-hook").canonicalize().unwrap(),
        root.join(format!("node_modules/{PLATFORM}/bin/phasegate-hook")).canonicalize().unwrap()
    );
    assert!(!root.join("bin/phasegate-hook").exists(), "a Linux install has no hook in the plugin's bin/");
    check_checksums(&root, dist);
    let fetched = registry.requests();
    assert!(fetched.iter().any(|r| r.ends_with(&format!("/-/plugin-linux-x64-gnu-{v}.tgz"))), "{fetched:?}");

    // A session: SessionStart reports the feature (and nothing about the
    // install: it is sound); /phasegate:specify expands through the Bash
    // tool's workflow-state, and the model's `phase start` runs it; its
    // --version finds the installed plugin with no CLAUDE_PLUGIN_ROOT (the
    // Bash tool has none) from where npm put the binary.
    f.ws(&["feature", "new", "installed"]);
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![
            ToolUse::bash("workflow-state phase start specify --feature 001-installed"),
            ToolUse::bash("workflow-state --version"),
        ])
        .expect_user_text_contains("specify: not started"),
        Turn::text("ok")
            .expect_tool_result_contains("\"start\":\"started\"")
            .expect_tool_result_contains(format!("workflow-state {v}\nplugin: phasegate {v} ({}", root.display())),
    ]));
    let out = user.claude(&f).prompt("/phasegate:specify").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let context = session_context(&api).expect("the installed SessionStart hook said nothing");
    assert!(context.contains("- 001-installed (mode standard)"), "{context}");
    assert!(!context.contains("version"), "a sound install reports nothing about itself: {context}");
    assert_eq!(f.meta("001-installed")["currentPhase"], "specify");

    // A newer version, published the way a release publishes it; `claude
    // plugin update` takes it, and the new version's hooks run. (Its binaries
    // are the same build, so its SessionStart says the versions disagree:
    // the very line a mixed install gets.)
    let newer = next_version(&v);
    let newer_dist = republish(dist, &v, &newer);
    for tgz in [format!("phasegate-plugin-linux-x64-gnu-{newer}.tgz"), format!("phasegate-plugin-{newer}.tgz")] {
        registry.publish(&newer_dist.path().join(tgz), true);
    }
    let said = user.plugin(&["update", "phasegate@phasegate"]);
    let entry = user.installed();
    assert_eq!(entry["version"], newer.as_str(), "{said}\n{entry}");
    let new_root = PathBuf::from(entry["installPath"].as_str().unwrap());
    check_checksums(&new_root, newer_dist.path());
    let api = MockApi::start(Scenario::new().main(vec![Turn::text("ok")]));
    let out = user.claude(&f).prompt("hi").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    let context = session_context(&api).expect("the updated SessionStart hook said nothing");
    assert!(context.contains(&format!("the plugin is version {newer} but its binaries are version {v}")), "{context}");
}

fn next_version(v: &str) -> String {
    let (major_minor, patch) = v.rsplit_once('.').unwrap();
    let patch: u32 = patch.split('-').next().unwrap().parse().unwrap();
    format!("{major_minor}.{}", patch + 1)
}

/// The packages of `dist` again under version `newer` (same binaries), with
/// the plugin's lockfile written by the release script's own lockfile.js.
fn republish(dist: &Path, v: &str, newer: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path();
    let copy = Command::new("cp")
        .arg("-R")
        .arg(dist.join("linux-x64-gnu"))
        .arg(dist.join("plugin"))
        .arg(out)
        .status()
        .unwrap();
    assert!(copy.success());
    let bump = |file: PathBuf| {
        let text = std::fs::read_to_string(&file).unwrap();
        let mut json: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["version"], v, "{}", file.display());
        json["version"] = newer.into();
        std::fs::write(&file, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    };
    bump(out.join("linux-x64-gnu/package.json"));
    bump(out.join("plugin/.claude-plugin/plugin.json"));
    let pack = |dir: PathBuf| {
        let run = Command::new("npm")
            .args(["pack", "--silent", "--pack-destination"])
            .arg(out)
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(run.status.success(), "npm pack in {}: {}", dir.display(), log(&run));
    };
    pack(out.join("linux-x64-gnu"));
    let lock = Command::new("node")
        .arg(plugin_root().join("scripts/dist/lockfile.js"))
        .arg(out.join("plugin"))
        .arg(out)
        .args(["@phasegate/plugin", newer, "@phasegate"])
        .output()
        .unwrap();
    assert!(lock.status.success(), "{}", log(&lock));
    pack(out.join("plugin"));
    tmp
}

/// The lockfile's sha512 is enforced, not only written: a platform tarball
/// that differs from the one the plugin package pins (same name and version,
/// other bytes, as a tampered mirror would serve) is not installed. npm
/// skips a failed optional package and Claude Code reports the install as a
/// success, so this is also the "binary missing" case: no hook binary
/// exists, yet a session runs, a Write is not blocked, and the Bash tool's
/// workflow-state says in one line what to do.
#[test]
fn a_platform_tarball_other_than_the_pinned_one_is_not_installed_and_blocks_nothing() {
    let dist = dist();
    let v = version();
    let tmp = tempfile::tempdir().unwrap();
    let copy = Command::new("cp").arg("-R").arg(dist.join("linux-x64-gnu")).arg(tmp.path()).status().unwrap();
    assert!(copy.success());
    let stage = tmp.path().join("linux-x64-gnu");
    std::fs::write(stage.join("anchor/three/deep/README.md"), "not the published bytes\n").unwrap();
    let pack = Command::new("npm")
        .args(["pack", "--silent", "--pack-destination"])
        .arg(tmp.path())
        .current_dir(&stage)
        .output()
        .unwrap();
    assert!(pack.status.success(), "{}", log(&pack));
    let registry = NpmRegistry::start();
    let tampered = registry.publish(&tmp.path().join(format!("phasegate-plugin-linux-x64-gnu-{v}.tgz")), true);
    let pinned = integrity(&std::fs::read(dist.join(format!("phasegate-plugin-linux-x64-gnu-{v}.tgz"))).unwrap());
    assert_ne!(tampered["dist"]["integrity"], pinned.as_str());
    registry.publish(&dist.join(format!("phasegate-plugin-{v}.tgz")), true);

    let f = Fixture::repo();
    let user = User::new(&f, &registry);
    let marketplace = f.home.join("marketplace");
    std::fs::create_dir_all(marketplace.join(".claude-plugin")).unwrap();
    std::fs::copy(
        plugin_root().join(".claude-plugin/marketplace.json"),
        marketplace.join(".claude-plugin/marketplace.json"),
    )
    .unwrap();
    user.plugin(&["marketplace", "add", &marketplace.display().to_string()]);
    user.plugin(&["install", "phasegate@phasegate"]);
    let root = PathBuf::from(user.installed()["installPath"].as_str().unwrap());
    let fetched = registry.requests();
    assert!(fetched.iter().any(|r| r.ends_with(&format!("/-/plugin-linux-x64-gnu-{v}.tgz"))), "{fetched:?}");
    assert!(!root.join(format!("node_modules/{PLATFORM}")).exists(), "the tampered package was installed");
    let found = Command::new("find").arg(&root).args(["-name", "phasegate-hook*"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&found.stdout).trim(), "", "a hook binary was installed");

    let target = f.repo.join("notes.txt");
    let api = MockApi::start(Scenario::new().main(vec![
        Turn::tools(vec![ToolUse::write(target.display().to_string(), "written\n")]),
        Turn::tools(vec![ToolUse::bash("workflow-state status")]),
        Turn::text("ok").expect_tool_result_contains(
            "phasegate's binary for this platform (Linux x86_64) is not installed. In Claude Code run: /plugin uninstall phasegate@phasegate, then /plugin install phasegate@phasegate",
        ),
    ]));
    let out = user.claude(&f).allowed_tools("Bash,Write").prompt("hi").run(&api);
    assert!(out.success(), "{}", out.report());
    api.assert_finished();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "written\n", "the Write was blocked");
}
