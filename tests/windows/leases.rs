//! File leases between sessions on Windows: one file has one lease however
//! it is spelled (drive letter case, separators, relative, another case:
//! Windows disks fold case), sessions racing for it get it once, and
//! SessionEnd releases it.

use serde_json::json;

use crate::wine::Project;

fn reason(out: &crate::wine::Done) -> Option<String> {
    if out.stdout.trim().is_empty() {
        return None;
    }
    let v = out.json();
    let specific = &v["hookSpecificOutput"];
    (specific["permissionDecision"] == "deny")
        .then(|| specific["permissionDecisionReason"].as_str().unwrap().to_owned())
}

#[test]
fn a_second_sessions_edit_is_refused_in_every_spelling_naming_the_holder() {
    let p = Project::new();
    p.write("src/main.rs", "fn main() {}\n");
    p.start("sess-a");
    p.start("sess-b");
    assert_eq!(p.pre_tool_use("sess-a", "Edit", &p.win("src/main.rs")).stdout, "", "the first edit is silent");
    for spelled in [
        p.win("src/main.rs"),
        p.win("SRC/MAIN.RS"),
        p.win("src/main.rs").replace('\\', "/"),
        p.win("src/main.rs").to_lowercase(),
        "SRC\\MAIN.RS".to_owned(),
        "src/main.rs".to_owned(),
        ".\\src\\..\\src\\main.rs".to_owned(),
    ] {
        let out = p.pre_tool_use("sess-b", "Edit", &spelled);
        let why = reason(&out).unwrap_or_else(|| panic!("{spelled}: not refused\n{}", out.report()));
        assert!(why.contains("src/main.rs is leased by session sess-a"), "{spelled}: {why}");
        crate::wine::assert_plain("the refusal", &why);
    }
    // The holder goes on editing in any spelling.
    assert_eq!(p.pre_tool_use("sess-a", "Edit", "SRC\\Main.rs").stdout, "");
    let leases = p.ws(&["lease", "list", "--json"]).ok().json();
    assert_eq!(leases["leases"].as_array().unwrap().len(), 1, "{leases}");
    assert_eq!(
        (leases["leases"][0]["path"].as_str(), leases["leases"][0]["holder"].as_str()),
        (Some("src/main.rs"), Some("sess-a"))
    );
    // SessionEnd releases it at once.
    p.hook(
        "session-end",
        &json!({"session_id": "sess-a", "cwd": p.win(""), "hook_event_name": "SessionEnd", "reason": "exit"}),
    )
    .ok();
    assert_eq!(p.pre_tool_use("sess-b", "Edit", "SRC\\MAIN.RS").stdout, "", "released at once");
}

/// A file still to be made (a Write) is one file in either case too.
#[test]
fn a_new_file_is_leased_once_whatever_its_case() {
    let p = Project::new();
    p.start("sess-a");
    p.start("sess-b");
    assert_eq!(p.pre_tool_use("sess-a", "Write", &p.win("src/new/Module.rs")).stdout, "");
    let out = p.pre_tool_use("sess-b", "Write", &p.win("SRC/NEW/module.RS"));
    let why = reason(&out).unwrap_or_else(|| panic!("not refused\n{}", out.report()));
    assert!(why.contains("leased by session sess-a"), "{why}");
}

/// Eight sessions ask for one free file at the same moment, each spelling
/// it its own way: exactly one gets it, the others are refused naming it.
#[test]
fn eight_sessions_racing_for_one_file_get_one_lease() {
    let p = Project::new();
    p.write("src/hot.rs", "// hot\n");
    let sessions: Vec<String> = (0..8).map(|i| format!("racer-{i}")).collect();
    for s in &sessions {
        p.start(s);
    }
    let spellings = [
        p.win("src/hot.rs"),
        p.win("SRC/HOT.RS"),
        p.win("src/hot.rs").replace('\\', "/"),
        "src\\hot.rs".to_owned(),
        "src/hot.rs".to_owned(),
        "Src\\Hot.rs".to_owned(),
        p.win("src/./hot.rs"),
        p.win("docs/../src/hot.rs"),
    ];
    let outputs: Vec<(String, crate::wine::Done)> = std::thread::scope(|scope| {
        let runs: Vec<_> = sessions
            .iter()
            .zip(&spellings)
            .map(|(s, path)| scope.spawn(|| (s.clone(), p.pre_tool_use(s, "Edit", path))))
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let granted: Vec<&String> = outputs.iter().filter(|(_, out)| reason(out).is_none()).map(|(s, _)| s).collect();
    assert_eq!(granted.len(), 1, "{outputs:?}");
    let winner = granted[0];
    for (s, out) in outputs.iter().filter(|(s, _)| s != winner) {
        let why = reason(out).unwrap();
        assert!(why.contains(&format!("src/hot.rs is leased by session {winner}")), "{s}: {why}");
    }
    let leases = p.ws(&["lease", "list", "--json"]).ok().json();
    assert_eq!(leases["leases"].as_array().unwrap().len(), 1, "{leases}");
    assert_eq!(leases["leases"][0]["holder"].as_str(), Some(winner.as_str()));
    assert_eq!(leases["waits"].as_array().unwrap().len(), 7, "{leases}");
}

/// `lease take` and `lease release` by hand, with Windows paths relative
/// to the current folder.
#[test]
fn leases_taken_and_released_by_hand_with_windows_paths() {
    let p = Project::new();
    p.write("src/a.rs", "a\n");
    p.start("sess-a");
    p.ws_as("sess-a", &["lease", "take", "src\\a.rs"]).ok();
    let leases = p.ws(&["lease", "list", "--json"]).ok().json();
    assert_eq!(leases["leases"][0]["path"], "src/a.rs", "{leases}");
    let out = p.ws_in("src", &["lease", "take", "A.RS"]).env("CLAUDE_CODE_SESSION_ID", "sess-b").output();
    assert_ne!(out.code, Some(0), "{}", out.report());
    p.ws_as("sess-a", &["lease", "release", &p.win("SRC/A.RS")]).ok();
    let leases = p.ws(&["lease", "list", "--json"]).ok().json();
    assert!(leases["leases"].as_array().unwrap().is_empty(), "{leases}");
}
