//! Whether the install itself is sound: the plugin and its binaries agree
//! on the version, and `workflow-state` beside the hook is there,
//! executable and built for this machine. SessionStart says so in one line
//! when not; the common case costs a read of plugin.json and of 20 bytes of
//! a binary.

use crate::env;
use std::path::Path;

/// One line when the install itself is wrong, None when it is sound (the
/// common case costs a read of plugin.json and of 20 bytes of a binary):
/// the plugin at `plugin_root` and these binaries disagree on the version,
/// or `workflow_state` (the CLI the Markdown runs, beside the hook) is
/// missing, not executable, or built for another system or processor.
pub fn install_problem(plugin_root: Option<&Path>, workflow_state: &Path) -> Option<String> {
    let reinstall =
        "reinstall the plugin (/plugin uninstall phasegate@phasegate, then /plugin install phasegate@phasegate)";
    if let Some(why) = plugin_root.and_then(env::version_mismatch) {
        return Some(why);
    }
    let read = phasegate_store::files::head(workflow_state, 20);
    let (meta, head) = match read {
        Ok(read) => read,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Some(format!("the CLI {} is missing; {reinstall}", workflow_state.display()));
        }
        Err(e) => {
            return Some(format!("the CLI {} cannot be read ({e}); {reinstall}", workflow_state.display()));
        }
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o111 == 0 {
            return Some(format!(
                "the CLI {} is not executable; run: chmod 755 {}",
                workflow_state.display(),
                workflow_state.display()
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    native_mismatch(&head).map(|built| {
        format!(
            "{} ({}) is built for {built}, not for this {}-{}; {reinstall}",
            phasegate_core::words::BINARY,
            workflow_state.display(),
            std::env::consts::OS,
            std::env::consts::ARCH
        )
    })
}

/// What an executable's first bytes say it was built for, when that is not
/// this system and processor (ELF, Mach-O, PE headers); None when it fits.
fn native_mismatch(head: &[u8]) -> Option<String> {
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

#[cfg(test)]
mod tests {
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
