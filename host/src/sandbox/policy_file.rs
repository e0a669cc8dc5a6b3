//! Wassette's policy file (`policy.yaml`), read as it is and mapped onto
//! this host's grants, so that a component moved from Wassette keeps the
//! permissions its author wrote for it.
//!
//! The format is Wassette's (its `policy` crate, `types.rs` and
//! `parser.rs`): `version` "1.x", and under `permissions` the `storage`,
//! `network`, `environment` and `resources` a component may use. Anything
//! in it this host cannot grant exactly is an error at load, never a
//! silently wider sandbox:
//! - storage: `fs://` URIs of absolute paths, `read` or `read` + `write`
//!   (`write` alone would also let the guest read: refused);
//! - network: a `host` is an HTTP destination on any port, or, written
//!   `https://HOST/`, HTTPS only; a `cidr` (raw sockets, which this host
//!   never grants) is refused;
//! - `deny` entries are accepted where nothing allowed covers them (all is
//!   denied unless allowed); one that carves a hole in an allow is refused;
//! - environment: each `key` from the host's environment (a key the host
//!   does not have is left out, as Wassette leaves it);
//! - resources: the memory limit, as a cap on the component's memory;
//!   `cpu` and `io` limits, and `runtime` and `ipc` sections, are refused.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::DirGrant;
use super::outgoing_http::HttpGrant;

/// The largest policy file read.
const MAX_POLICY_FILE: u64 = 1 << 20;

/// What a policy file grants, in this host's terms.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct PolicyGrants {
    /// Directories, each at its own path in the guest.
    pub dirs: Vec<DirGrant>,
    /// HTTP destinations.
    pub http: Vec<HttpGrant>,
    /// Environment variables, with the host's values.
    pub env: Vec<(String, String)>,
    /// Keys granted that the host's environment does not have (left out).
    pub env_missing: Vec<String>,
    /// The most memory the component may have, in bytes.
    pub max_memory: Option<u64>,
}

/// Why a policy file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PolicyFileError {
    /// It cannot be read.
    #[error("cannot read the policy file {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// It is not a policy file.
    #[error("{}: not a Wassette policy file: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parser's complaint.
        message: String,
    },
    /// It grants what this host cannot grant exactly.
    #[error("{}: {message}", path.display())]
    Unsupported {
        /// The file.
        path: PathBuf,
        /// What, and what to write instead.
        message: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PolicyFile {
    version: String,
    #[serde(default)]
    #[expect(dead_code, reason = "read for the format's sake: nothing is granted by it")]
    description: Option<String>,
    #[serde(default, rename = "$schema")]
    #[expect(dead_code, reason = "as above")]
    schema: Option<String>,
    #[serde(default)]
    permissions: Permissions,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Permissions {
    #[serde(default)]
    storage: Option<Rules<Storage>>,
    #[serde(default)]
    network: Option<Rules<Network>>,
    #[serde(default)]
    environment: Option<Rules<Environment>>,
    #[serde(default)]
    resources: Option<Resources>,
    #[serde(default)]
    runtime: Option<serde_json::Value>,
    #[serde(default)]
    ipc: Option<serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Rules<T> {
    #[serde(default = "Vec::new")]
    allow: Vec<T>,
    #[serde(default = "Vec::new")]
    deny: Vec<T>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Storage {
    uri: String,
    access: Vec<Access>,
}

#[derive(Deserialize, PartialEq, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Access {
    Read,
    Write,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Network {
    Host { host: String },
    Cidr { cidr: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Environment {
    key: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Resources {
    #[serde(default)]
    limits: Option<Limits>,
    /// Legacy: CPU percent.
    #[serde(default)]
    cpu: Option<f64>,
    /// Legacy: megabytes.
    #[serde(default)]
    memory: Option<u64>,
    #[serde(default)]
    io: Option<serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Limits {
    #[serde(default)]
    cpu: Option<serde_json::Value>,
    #[serde(default)]
    memory: Option<Quantity>,
}

/// `512Mi`, `1Gi`, `500M` or a number of bytes.
#[derive(Deserialize)]
#[serde(untagged)]
enum Quantity {
    Bytes(u64),
    Text(String),
}

/// Reads the policy file at `path`; `env` gives the host's variables.
pub fn read(path: &Path, env: impl Fn(&str) -> Option<String>) -> Result<PolicyGrants, PolicyFileError> {
    let bytes =
        crate::runtime::read_regular_file(path, MAX_POLICY_FILE, "a policy file is YAML", "a policy file may have")
            .map_err(|error| PolicyFileError::Read { path: path.to_owned(), error })?;
    let text = String::from_utf8(bytes)
        .map_err(|_| PolicyFileError::Parse { path: path.to_owned(), message: "it is not UTF-8 text".into() })?;
    parse(&text, env).map_err(|(unsupported, message)| match unsupported {
        true => PolicyFileError::Unsupported { path: path.to_owned(), message },
        false => PolicyFileError::Parse { path: path.to_owned(), message },
    })
}

/// The grants of the policy `text`; an error says whether the text is not
/// a policy (`false`) or grants what cannot be granted (`true`), and what.
fn parse(text: &str, env: impl Fn(&str) -> Option<String>) -> Result<PolicyGrants, (bool, String)> {
    let file: PolicyFile = serde_saphyr::from_str(text).map_err(|e| (false, e.to_string()))?;
    if !file.version.starts_with("1.") && file.version != "1" {
        return Err((false, format!("version \"{}\" is not one this host reads (1.x)", file.version)));
    }
    let unsupported = |message: String| (true, message);
    let permissions = file.permissions;
    let mut grants = PolicyGrants::default();
    if let Some(storage) = permissions.storage {
        for rule in &storage.allow {
            grants.dirs.push(dir_grant(rule).map_err(unsupported)?);
        }
        for rule in &storage.deny {
            let path = fs_path(&rule.uri).map_err(unsupported)?;
            if let Some(allowed) = grants.dirs.iter().find(|dir| Path::new(&path).starts_with(&dir.host)) {
                return Err(unsupported(format!(
                    "storage deny `{}` lies within the allowed `fs://{}`: this host cannot deny part of a granted \
                     directory; grant narrower directories instead",
                    rule.uri,
                    allowed.host.display()
                )));
            }
        }
    }
    if let Some(network) = permissions.network {
        for rule in &network.allow {
            match rule {
                Network::Host { host } => grants.http.push(http_grant(host).map_err(unsupported)?),
                Network::Cidr { cidr } => {
                    return Err(unsupported(format!(
                        "network allow cidr `{cidr}` grants raw sockets, which this host never gives a guest; \
                         allow HTTP hosts instead"
                    )));
                }
            }
        }
        for rule in &network.deny {
            if let Network::Host { host } = rule {
                let bare = host.trim_start_matches("https://").trim_start_matches("http://").trim_end_matches('/');
                let name = bare.strip_prefix("*.").unwrap_or(bare);
                if grants
                    .http
                    .iter()
                    .any(|grant| grant.allows(true, name, None, 443) || grant.allows(false, name, None, 80))
                {
                    return Err(unsupported(format!(
                        "network deny `{host}` is covered by an allowed host: this host cannot make exceptions to a \
                         grant; allow narrower hosts instead"
                    )));
                }
            }
        }
    }
    if let Some(environment) = permissions.environment {
        // (A denied key needs nothing: only allowed keys are ever seen.)
        for Environment { key } in environment.allow {
            if key.is_empty() || key.contains('*') || key.contains('=') {
                return Err(unsupported(format!("environment key `{key}` is not a variable name")));
            }
            match env(&key) {
                Some(value) => grants.env.push((key, value)),
                None => grants.env_missing.push(key),
            }
        }
    }
    if let Some(resources) = permissions.resources {
        if resources.cpu.is_some() || resources.limits.as_ref().is_some_and(|l| l.cpu.is_some()) {
            return Err(unsupported(
                "resources cpu: this host cannot cap a component's CPU share (it bounds each call's time with \
                 --timeout); remove the cpu limit"
                    .into(),
            ));
        }
        if resources.io.is_some() {
            return Err(unsupported("resources io: this host cannot cap a component's I/O; remove it".into()));
        }
        grants.max_memory = match (resources.limits.and_then(|l| l.memory), resources.memory) {
            (Some(quantity), _) => Some(bytes_of(&quantity).map_err(unsupported)?),
            (None, Some(megabytes)) => Some(megabytes.saturating_mul(1 << 20)),
            (None, None) => None,
        };
    }
    for (section, value) in [("runtime", &permissions.runtime), ("ipc", &permissions.ipc)] {
        if value.as_ref().is_some_and(|v| !v.is_null() && v != &serde_json::json!({})) {
            return Err(unsupported(format!(
                "the {section} section grants what this host has no way to give; remove it"
            )));
        }
    }
    Ok(grants)
}

/// The absolute path of an `fs://` URI (`fs:///data` is `/data`).
fn fs_path(uri: &str) -> Result<String, String> {
    let path = uri.strip_prefix("fs://").ok_or_else(|| format!("storage uri `{uri}` is not an fs:// URI"))?;
    if !path.starts_with('/') {
        return Err(format!(
            "storage uri `{uri}` is a relative path; write the absolute one (fs:///home/me/data), as this host has \
             no component directory to resolve it against"
        ));
    }
    if path.contains('*') {
        return Err(format!("storage uri `{uri}` has a wildcard; grant directories by their paths"));
    }
    Ok(path.to_string())
}

fn dir_grant(rule: &Storage) -> Result<DirGrant, String> {
    let path = fs_path(&rule.uri)?;
    let read = rule.access.contains(&Access::Read);
    let write = rule.access.contains(&Access::Write);
    let read_only = match (read, write) {
        (true, false) => true,
        (true, true) => false,
        (false, true) => {
            return Err(format!(
                "storage `{}` grants write without read, which this host cannot grant apart (writing also lets the \
                 guest read); write access: [read, write]",
                rule.uri
            ));
        }
        (false, false) => return Err(format!("storage `{}` grants no access", rule.uri)),
    };
    Ok(DirGrant { host: PathBuf::from(&path), guest: path, read_only })
}

/// An HTTP grant for a policy's `host`: any port, as Wassette ignores
/// ports; HTTPS only when written with that scheme.
fn http_grant(host: &str) -> Result<HttpGrant, String> {
    let (scheme, bare) = match host.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest.trim_end_matches('/')),
        None => (None, host),
    };
    let spec = match scheme {
        None => format!("{bare}:*"),
        Some("https") => format!("https://{bare}:*"),
        Some(other) => {
            return Err(format!(
                "network host `{host}`: this host pins HTTPS only (https://HOST/); for {other} write the bare host, \
                 which allows every scheme"
            ));
        }
    };
    spec.parse().map_err(|e| format!("network host `{host}`: {e}"))
}

/// Bytes in a Kubernetes-style quantity.
fn bytes_of(quantity: &Quantity) -> Result<u64, String> {
    let text = match quantity {
        Quantity::Bytes(bytes) => return Ok(*bytes),
        Quantity::Text(text) => text.trim(),
    };
    let units: [(&str, u64); 8] = [
        ("Ki", 1 << 10),
        ("Mi", 1 << 20),
        ("Gi", 1 << 30),
        ("Ti", 1 << 40),
        ("k", 1_000),
        ("M", 1_000_000),
        ("G", 1_000_000_000),
        ("T", 1_000_000_000_000),
    ];
    let (number, unit) =
        units.iter().find_map(|(suffix, unit)| text.strip_suffix(suffix).map(|n| (n, *unit))).unwrap_or((text, 1));
    let number: f64 =
        number.trim().parse().map_err(|_| format!("resources memory `{text}` is not a quantity (512Mi, 1Gi)"))?;
    if !(number.is_finite() && number > 0.0) {
        return Err(format!("resources memory `{text}` is not a positive quantity"));
    }
    Ok((number * unit as f64) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grants(text: &str) -> Result<PolicyGrants, (bool, String)> {
        parse(text, |key| (key == "API_KEY").then(|| "k3y".to_string()))
    }

    #[test]
    fn wassette_examples_map_onto_grants() {
        let g = grants(
            r#"
version: "1.0"
description: "Permission policy for filesystem access"
permissions:
  storage:
    allow:
      - uri: "fs:///srv/data"
        access: ["read"]
      - uri: "fs:///srv/out"
        access: ["read", "write"]
  network:
    allow:
      - host: "api.example.com"
      - host: "https://feeds.example.com/"
  environment:
    allow:
      - key: "API_KEY"
      - key: "NOT_SET"
  resources:
    limits:
      memory: "64Mi"
"#,
        )
        .unwrap();
        assert_eq!(g.dirs[0], DirGrant { host: "/srv/data".into(), guest: "/srv/data".into(), read_only: true });
        assert!(!g.dirs[1].read_only);
        assert_eq!(
            g.http.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["api.example.com:*", "https://feeds.example.com:*"]
        );
        assert_eq!(g.env, [("API_KEY".to_string(), "k3y".to_string())]);
        assert_eq!(g.env_missing, ["NOT_SET"]);
        assert_eq!(g.max_memory, Some(64 << 20));
        assert_eq!(grants("version: \"1.0\"\npermissions: {}\n").unwrap(), PolicyGrants::default());
    }

    #[test]
    fn what_cannot_be_granted_exactly_is_refused() {
        let refused = |permissions: &str| {
            let text = format!("version: \"1.0\"\npermissions:\n{permissions}");
            match grants(&text) {
                Err((true, message)) => message,
                other => panic!("{permissions}: {other:?}"),
            }
        };
        assert!(
            refused("  storage:\n    allow:\n      - uri: \"fs:///x\"\n        access: [\"write\"]\n")
                .contains("[read, write]")
        );
        assert!(
            refused("  storage:\n    allow:\n      - uri: \"fs://work/agent\"\n        access: [\"read\"]\n")
                .contains("relative")
        );
        assert!(
            refused("  storage:\n    allow:\n      - uri: \"fs:///a/**\"\n        access: [\"read\"]\n")
                .contains("wildcard")
        );
        assert!(refused(
            "  storage:\n    allow:\n      - uri: \"fs:///a\"\n        access: [\"read\"]\n    deny:\n      - uri: \"fs:///a/secret\"\n        access: [\"read\"]\n"
        )
        .contains("cannot deny part"));
        assert!(refused("  network:\n    allow:\n      - cidr: \"10.0.0.0/8\"\n").contains("raw sockets"));
        assert!(
            refused("  network:\n    allow:\n      - host: \"x.com\"\n    deny:\n      - host: \"x.com\"\n")
                .contains("exceptions")
        );
        assert!(refused("  resources:\n    limits:\n      cpu: \"500m\"\n").contains("cpu"));
        assert!(refused("  ipc:\n    allow:\n      - uri: \"pipe://x\"\n").contains("ipc"));
    }

    #[test]
    fn a_deny_outside_every_allow_is_already_so() {
        let g = grants(
            "version: \"1.0\"\npermissions:\n  storage:\n    allow:\n      - uri: \"fs:///a\"\n        access: [\"read\"]\n    deny:\n      - uri: \"fs:///b\"\n        access: [\"read\"]\n",
        );
        assert_eq!(g.unwrap().dirs.len(), 1);
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        assert!(!grants("version: \"2.0\"\n").unwrap_err().0);
        assert!(!grants("permissions: [").unwrap_err().0);
        assert!(!grants("version: \"1.0\"\npermisions: {}\n").unwrap_err().0);
        assert_eq!(bytes_of(&Quantity::Text("1Gi".into())), Ok(1 << 30));
        assert_eq!(bytes_of(&Quantity::Text("500M".into())), Ok(500_000_000));
        assert!(bytes_of(&Quantity::Text("lots".into())).is_err());
    }
}
