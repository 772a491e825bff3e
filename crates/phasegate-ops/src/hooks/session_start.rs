//! SessionStart: tell the model which features are active, where each one
//! stands, the next command, concerns left open, and whether this session
//! runs outside the feature's worktree. Completed and abandoned features
//! stay silent; nothing to say means no output. The cost does not grow with
//! the number of finished features: the index of active features says which
//! to read.

use std::fmt::Write;
use std::path::Path;

use phasegate_core::meta::{Meta, PhaseState, Workflow};
use phasegate_core::next_step;
use phasegate_core::pipeline::PipelineRun;
use phasegate_core::{Phase, Status};
use phasegate_store::{Listed, Project, WorktreeStatus};

use super::{HookInput, one_line};
use crate::env::Env;

/// How many active features are described in full; the rest are counted.
const MAX_LISTED: usize = 5;
/// The most context the hook adds (Claude Code previews anything over 10,000).
const MAX_CONTEXT: usize = 8_000;

/// The context to add, if any. With `workflow_state` (the CLI's path), a
/// background Slack poller is started while a suspended item waits on a
/// question in Slack (it returns at once; the hook never waits on Slack).
pub fn context(input: &HookInput, env: &Env, note: Option<String>, workflow_state: Option<&Path>) -> String {
    let mut lines: Vec<String> = note.into_iter().map(|n| format!("phasegate: {n}")).collect();
    let dir = input.dir(env);
    let project = match Project::discover(&dir) {
        Ok(p) => p,
        Err(e) => {
            lines.push(format!("phasegate: {}", one_line(&e.to_string())));
            return lines.join("\n");
        }
    };
    let listed = match project.list_active() {
        Ok(l) => l,
        Err(e) => {
            lines.push(format!("phasegate: {}", one_line(&e.to_string())));
            return lines.join("\n");
        }
    };
    let mut active: Vec<(&Listed, &Meta)> = Vec::new();
    for l in &listed {
        match &l.meta {
            Ok(meta) if meta.status == Status::Active => active.push((l, meta)),
            Ok(_) => {}
            // Regression: the reason was cut to its first line ("does not
            // match schemas/meta.schema.json:"), losing the reason itself.
            Err(e) => lines.push(format!(
                "phasegate: {} is unreadable: {}; run `workflow-state status` for details",
                l.feature.name(),
                clip(&one_line(&e.to_string()), 600)
            )),
        }
    }
    if active.is_empty() {
        return lines.join("\n");
    }
    let here =
        active.iter().position(|(_, m)| matches!(project.worktree_status(m, &dir), WorktreeStatus::Inside { .. }));
    let mut head = format!("phasegate: {} active feature{}", active.len(), if active.len() == 1 { "" } else { "s" });
    if let Some(i) = here {
        let _ = write!(head, "; this session is in the worktree of {}", active[i].0.feature.name());
    }
    lines.insert(0, head);
    for (i, (l, meta)) in active.iter().enumerate().take(MAX_LISTED) {
        lines.push(feature_line(l, meta, input.session(env).as_deref()));
        if (here.is_none() || here == Some(i))
            && let Some(w) = worktree_warning(&project, meta, &dir)
        {
            lines.push(format!("  {w}"));
        }
    }
    if active.len() > MAX_LISTED {
        lines.push(format!("- … and {} more: `workflow-state status`", active.len() - MAX_LISTED));
    }
    lines.extend(suspension_lines(&project, workflow_state));
    clip(&lines.join("\n"), MAX_CONTEXT)
}

/// Suspended features and answers that arrived, and the background Slack
/// poller started when a question waits on Slack (two folder reads: the
/// markers and the question queue; nothing when neither exists).
fn suspension_lines(project: &Project, workflow_state: Option<&Path>) -> Vec<String> {
    let (markers, bad) = match project.markers() {
        Ok(m) => m,
        Err(e) => return vec![format!("phasegate: {}", one_line(&e.to_string()))],
    };
    let mut out = Vec::new();
    let waiting: Vec<_> = markers.iter().filter(|m| m.question.answer.is_none()).collect();
    if let Some(exe) = workflow_state
        && let Err(why) = crate::poll::wake_watcher(project, exe)
    {
        out.push(format!("phasegate: the background Slack poller did not start: {}", one_line(&why)));
    }
    if !waiting.is_empty() {
        let names: Vec<String> =
            waiting.iter().take(MAX_LISTED).map(|m| format!("{} ({})", m.question.slug, m.question.id)).collect();
        out.push(format!(
            "phasegate: suspended, waiting for an answer: {}; skip them (`workflow-state backlog`), answers: /phasegate:answer",
            names.join(", ")
        ));
    }
    for m in markers.iter().filter(|m| m.question.answer.is_some()).take(MAX_LISTED) {
        out.push(format!(
            "phasegate: the answer to {} arrived; {} can go on (its next step takes the answer in)",
            m.question.id, m.question.slug
        ));
    }
    for b in bad.iter().take(2) {
        out.push(format!("phasegate: {}", clip(&one_line(&b.error.to_string()), 400)));
    }
    out
}

fn feature_line(l: &Listed, meta: &Meta, session: Option<&str>) -> String {
    match meta.workflow {
        Workflow::Pipeline => return pipeline_line(l, session),
        Workflow::Phased => {}
    }
    let max = meta.mode.max_iterations();
    let state = match meta.current_phase {
        None => "no phase started yet".to_owned(),
        Some(p) => phase_text(meta, p, max),
    };
    let next = next_step::next(meta).command.unwrap_or_else(|| "none".into());
    let concerns: usize = meta.open_concerns_before(Phase::Finish).iter().map(|c| c.concerns.len()).sum();
    let concerns = if concerns > 0 {
        format!("; {concerns} reviewer concern(s) left open at a cap (`workflow-state status`)")
    } else {
        String::new()
    };
    format!("- {} (mode {}): {state}{concerns}. Next: {next}", l.feature.name(), meta.mode)
}

fn pipeline_line(l: &Listed, session: Option<&str>) -> String {
    let name = l.feature.name();
    let run = match l.feature.read_owned_task::<PipelineRun>() {
        Ok(Some(run)) => run,
        Ok(None) => return format!("- {name} (pipeline): no state yet. Next: /phasegate:pipeline"),
        Err(e) => {
            return format!(
                "- {name} (pipeline): state unreadable ({}). Run `workflow-state pipeline status`",
                clip(&one_line(&e.to_string()), 400)
            );
        }
    };
    let owner = match (&run.owner, session) {
        (Some(o), Some(s)) if o.session_id == s => ", run by this session",
        (Some(_), _) => ", run by another session (claim it with /phasegate:pipeline)",
        (None, _) => "",
    };
    let detail = match (&run.paused, &run.failed) {
        (Some(p), _) => format!(" (paused: {})", p.reason),
        (None, Some(f)) => format!(" (failed in {})", f.from),
        (None, None) => String::new(),
    };
    format!("- {name} (pipeline): state {}{detail}{owner}. Next: /phasegate:pipeline", run.state)
}

fn phase_text(meta: &Meta, p: Phase, max: u32) -> String {
    let iterations = meta.record(p).map_or(0, |r| r.iterations);
    match meta.phase_state(p) {
        PhaseState::Partial => {
            format!("phase {p} is PARTIAL (started, not completed; {iterations} of {max} reviewer iterations used)")
        }
        PhaseState::Completed => format!("phase {p} completed"),
        PhaseState::NotStarted => format!("phase {p} not started"),
    }
}

fn worktree_warning(project: &Project, meta: &Meta, dir: &Path) -> Option<String> {
    match project.worktree_status(meta, dir) {
        WorktreeStatus::NoWorktree | WorktreeStatus::Inside { .. } => None,
        WorktreeStatus::Outside { worktree } => Some(format!(
            "WARNING: this session runs in {} but the feature's worktree is {}; cd there before changing code.",
            dir.display(),
            worktree.display()
        )),
        WorktreeStatus::Missing { worktree } => {
            Some(format!("WARNING: the feature's worktree {} does not exist.", worktree.display()))
        }
    }
}

/// One line when the install itself is wrong, None when it is sound (the
/// common case costs a read of plugin.json and of 20 bytes of a binary):
/// the plugin at `plugin_root` and these binaries disagree on the version,
/// or `workflow_state` (the CLI the Markdown runs, beside the hook) is
/// missing, not executable, or built for another system or processor.
pub fn install_problem(plugin_root: Option<&Path>, workflow_state: &Path) -> Option<String> {
    let reinstall =
        "reinstall the plugin (/plugin uninstall phasegate@phasegate, then /plugin install phasegate@phasegate)";
    if let Some(why) = plugin_root.and_then(crate::env::version_mismatch) {
        return Some(why);
    }
    let mut head = [0u8; 20];
    let read = std::fs::File::open(workflow_state).and_then(|mut f| {
        use std::io::Read;
        let meta = f.metadata()?;
        f.read_exact(&mut head)?;
        Ok(meta)
    });
    let meta = match read {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Some(format!("workflow-state is missing ({}); {reinstall}", workflow_state.display()));
        }
        Err(e) => {
            return Some(format!("workflow-state cannot be read ({}: {e}); {reinstall}", workflow_state.display()));
        }
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o111 == 0 {
            return Some(format!(
                "workflow-state is not executable ({}); run: chmod 755 {}",
                workflow_state.display(),
                workflow_state.display()
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    native_mismatch(&head).map(|built| {
        format!(
            "workflow-state ({}) is built for {built}, not for this {}-{}; {reinstall}",
            workflow_state.display(),
            std::env::consts::OS,
            std::env::consts::ARCH
        )
    })
}

/// What an executable's first bytes say it was built for, when that is not
/// this system and processor (ELF, Mach-O, PE headers); None when it fits.
fn native_mismatch(head: &[u8; 20]) -> Option<String> {
    let (os, arch) = (std::env::consts::OS, std::env::consts::ARCH);
    let found = if head.starts_with(b"\x7fELF") {
        let machine = u16::from_le_bytes([head[18], head[19]]);
        (
            "linux",
            match machine {
                62 => "x86_64",
                183 => "aarch64",
                _ => "another processor",
            },
        )
    } else if head.starts_with(&[0xcf, 0xfa, 0xed, 0xfe]) {
        let cpu = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        (
            "macos",
            match cpu {
                0x0100_0007 => "x86_64",
                0x0100_000c => "aarch64",
                _ => "another processor",
            },
        )
    } else if head.starts_with(&[0xca, 0xfe, 0xba, 0xbe]) {
        ("macos", arch) // a universal binary carries several processors
    } else if head.starts_with(b"MZ") {
        ("windows", arch) // the processor sits further in; the system is what matters
    } else {
        return Some("no known system (it is not an executable: a script or a damaged file)".into());
    };
    let same_os = found.0 == os || (found.0 == "linux" && matches!(os, "android" | "freebsd"));
    (!same_os || found.1 != arch).then(|| format!("{}-{}", found.0, found.1))
}

/// At most `max` bytes, cut at a character, marked when cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

#[cfg(test)]
mod install_tests {
    use super::*;

    fn header(bytes: &[u8]) -> [u8; 20] {
        let mut h = [0u8; 20];
        h[..bytes.len()].copy_from_slice(bytes);
        h
    }

    /// The header of this very test binary fits this machine.
    #[test]
    fn this_executable_fits() {
        let exe = std::env::current_exe().unwrap();
        let mut h = [0u8; 20];
        std::io::Read::read_exact(&mut std::fs::File::open(exe).unwrap(), &mut h).unwrap();
        assert_eq!(native_mismatch(&h), None);
    }

    #[test]
    fn other_machines_and_scripts_are_named() {
        let mut elf_arm = header(b"\x7fELF");
        elf_arm[18] = 183;
        let mut elf_x86 = header(b"\x7fELF");
        elf_x86[18] = 62;
        let other = if std::env::consts::ARCH == "x86_64" { elf_arm } else { elf_x86 };
        assert!(native_mismatch(&other).is_some());
        assert!(native_mismatch(&header(b"#!/bin/sh\n")).unwrap().contains("not an executable"));
        if std::env::consts::OS != "windows" {
            assert_eq!(native_mismatch(&header(b"MZ")).unwrap(), format!("windows-{}", std::env::consts::ARCH));
        }
    }

    #[test]
    fn a_sound_install_says_nothing_and_a_broken_one_says_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("workflow-state");
        let missing = install_problem(None, &ws).unwrap();
        assert!(missing.contains("missing") && missing.contains("/plugin install"), "{missing}");
        std::fs::copy(std::env::current_exe().unwrap(), &ws).unwrap();
        assert_eq!(install_problem(None, &ws), None);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&ws, std::fs::Permissions::from_mode(0o644)).unwrap();
            assert!(install_problem(None, &ws).unwrap().contains("chmod 755"));
            std::fs::set_permissions(&ws, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        std::fs::create_dir_all(dir.path().join(".claude-plugin")).unwrap();
        std::fs::write(
            dir.path().join(".claude-plugin/plugin.json"),
            r#"{"name":"phasegate","version":"0.0.0-other"}"#,
        )
        .unwrap();
        let mixed = install_problem(Some(dir.path()), &ws).unwrap();
        assert!(mixed.contains("0.0.0-other"), "{mixed}");
    }
}
