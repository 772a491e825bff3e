//! [`NpmRegistry`]: an npm registry on 127.0.0.1, for tests that install a
//! package the way users do (Claude Code's npm plugin source runs the real
//! `npm`, and `npm ci` fetches the plugin's dependencies).
//!
//! It speaks the part of the registry protocol that installing needs:
//! `GET /<name>` (a scoped name as `@scope%2fname` or `@scope/name`) answers
//! the packument — every published version's `package.json` with
//! `dist.tarball`, `dist.integrity` (sha512) and `dist.shasum`, and the
//! `latest` dist-tag — and `GET /<name>/-/<file>.tgz` the tarball. Tests
//! publish with [`NpmRegistry::publish`] (a tarball as `npm pack` writes it)
//! and read [`NpmRegistry::requests`] to see what was fetched. Anything
//! else, publishing over HTTP included, is a 404: the tests publish from
//! the file system.
//! Digests come from coreutils' `sha512sum` and `sha1sum`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use serde_json::{Value, json};
use tiny_http::{Header, Response, Server};

const POLL: Duration = Duration::from_millis(50);

#[derive(Default)]
struct State {
    /// name -> version -> (package.json with dist, tarball bytes)
    packages: BTreeMap<String, BTreeMap<String, (Value, Vec<u8>)>>,
    latest: BTreeMap<String, String>,
    requests: Vec<String>,
}

/// A running registry; stopped when dropped.
pub struct NpmRegistry {
    base: String,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl NpmRegistry {
    /// Starts on a free port of 127.0.0.1.
    pub fn start() -> NpmRegistry {
        let server = Server::http("127.0.0.1:0").unwrap_or_else(|e| panic!("phasegate-testkit: npm registry: {e}"));
        let port = server.server_addr().to_ip().expect("an IP address").port();
        let base = format!("http://127.0.0.1:{port}/");
        let state = Arc::new(Mutex::new(State::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (state, stop) = (state.clone(), stop.clone());
            thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    match server.recv_timeout(POLL) {
                        Ok(Some(request)) => serve(request, &state),
                        Ok(None) => {}
                        Err(_) => break,
                    }
                }
            })
        };
        NpmRegistry { base, state, stop, thread: Some(thread) }
    }

    /// `http://127.0.0.1:<port>/`, for `registry=` in an `.npmrc`.
    pub fn url(&self) -> &str {
        &self.base
    }

    /// Publishes a tarball written by `npm pack`; its `package/package.json`
    /// names the package and version. With `latest`, the `latest` dist-tag
    /// moves to it. Returns the package.json as published (with `dist`).
    pub fn publish(&self, tgz: &Path, latest: bool) -> Value {
        let bytes = std::fs::read(tgz).unwrap_or_else(|e| panic!("{}: {e}", tgz.display()));
        let manifest = package_json_of(tgz);
        let name = manifest["name"].as_str().expect("name").to_owned();
        let version = manifest["version"].as_str().expect("version").to_owned();
        let file = format!("{}-{version}.tgz", name.rsplit('/').next().unwrap_or(&name));
        let mut doc = manifest.clone();
        doc["dist"] = json!({
            "tarball": format!("{}{name}/-/{file}", self.base),
            "integrity": integrity(&bytes),
            "shasum": digest("sha1sum", &bytes),
        });
        let mut state = self.state.lock().unwrap();
        state.packages.entry(name.clone()).or_default().insert(version.clone(), (doc.clone(), bytes));
        if latest || !state.latest.contains_key(&name) {
            state.latest.insert(name, version);
        }
        doc
    }

    /// The paths requested so far, in order.
    pub fn requests(&self) -> Vec<String> {
        self.state.lock().unwrap().requests.clone()
    }
}

impl Drop for NpmRegistry {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// `sha512-<base64>`, as npm writes `integrity`.
pub fn integrity(bytes: &[u8]) -> String {
    let hex = digest("sha512sum", bytes);
    let raw: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
    format!("sha512-{}", base64(&raw))
}

/// The hex digest of `bytes` by a coreutils `*sum` program.
pub fn digest(program: &str, bytes: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new(program)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("phasegate-testkit: cannot run {program}: {e}"));
    child.stdin.take().unwrap().write_all(bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{program} failed");
    String::from_utf8_lossy(&out.stdout).split_whitespace().next().unwrap_or_default().to_owned()
}

fn base64(bytes: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(T[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `package/package.json` of an npm tarball (read with `tar`).
fn package_json_of(tgz: &Path) -> Value {
    let out = Command::new("tar")
        .args(["-xzOf"])
        .arg(tgz)
        .arg("package/package.json")
        .output()
        .unwrap_or_else(|e| panic!("phasegate-testkit: cannot run tar: {e}"));
    assert!(out.status.success(), "tar -xzOf {} package/package.json failed", tgz.display());
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{}: package.json: {e}", tgz.display()))
}

fn serve(request: tiny_http::Request, state: &Mutex<State>) {
    let raw = request.url().to_owned();
    let path =
        raw.split('?').next().unwrap_or_default().trim_start_matches('/').replace("%2f", "/").replace("%2F", "/");
    let mut s = state.lock().unwrap();
    s.requests.push(format!("{} /{path}", request.method()));
    let reply = if let Some((name, file)) = path.split_once("/-/") {
        s.packages
            .get(name)
            .and_then(|versions| {
                versions.values().find(|(doc, _)| {
                    doc["dist"]["tarball"].as_str().is_some_and(|t| t.ends_with(&format!("/-/{file}")))
                })
            })
            .map(|(_, bytes)| (200, "application/octet-stream", bytes.clone()))
    } else {
        s.packages.get(&path).map(|versions| {
            let doc = json!({
                "name": path,
                "dist-tags": {"latest": s.latest.get(&path)},
                "versions": versions.iter().map(|(v, (doc, _))| (v.clone(), doc.clone())).collect::<serde_json::Map<_, _>>(),
            });
            (200, "application/json", doc.to_string().into_bytes())
        })
    };
    drop(s);
    let (status, kind, bytes) = reply.unwrap_or((404, "application/json", br#"{"error":"not_found"}"#.to_vec()));
    let response = Response::from_data(bytes)
        .with_status_code(status)
        .with_header(Header::from_bytes("Content-Type", kind).expect("a valid header"));
    let _ = request.respond(response);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_known_values() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }
}
