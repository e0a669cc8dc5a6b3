//! The sandbox grants, as flags and as `mcp-wit.toml` keys, and the policy
//! they make.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::ValueEnum;
use serde::Deserialize;

use mcp_wit::SandboxPolicy;
use mcp_wit::sandbox::DirGrant;
use mcp_wit::sandbox::guest_output::OutputTarget;
use mcp_wit::sandbox::outgoing_http::HttpGrant;

/// What a guest may reach (nothing unless granted).
///
/// The same grants appear in `mcp-wit.toml`, at the top level (for every
/// component) and in each `[[component]]`, under the keys named below.
#[derive(clap::Args, Debug, Default, Clone, Deserialize)]
#[command(next_help_heading = "Sandbox")]
#[serde(default, rename_all = "kebab-case")]
pub struct SandboxArgs {
    /// Where the guest's stdout and stderr go [default: stderr].
    #[arg(long, value_enum)]
    pub guest_output: Option<GuestOutputArg>,
    /// Grant an environment variable: `KEY=VALUE`, or `KEY` to pass the
    /// host's value. Repeatable. The guest sees no other variable.
    #[arg(long = "env", value_name = "KEY[=VALUE]")]
    pub env: Vec<String>,
    /// Supply a configuration value a tool declares (`tool-meta.config`);
    /// the guest reads it as an environment variable. Repeatable.
    // In a file also as a table (`config = { KEY = "VALUE" }`), as Extism
    // manifests write it.
    #[arg(long = "config", value_name = "KEY=VALUE")]
    #[serde(deserialize_with = "list_or_table")]
    pub config: Vec<String>,
    /// Supply a secret a tool declares (`tool-meta.secrets`): `KEY` takes the
    /// host's variable `KEY`, `KEY=@FILE` reads a file. The guest reads it as
    /// an environment variable; it is never logged. Repeatable.
    #[arg(long = "secret", value_name = "KEY[=@FILE]")]
    #[serde(alias = "secret")]
    pub secrets: Vec<String>,
    /// Grant a host directory: `HOST[:GUEST][:ro|:rw]`. Repeatable. The guest sees
    /// no other file. Without a mode the grant is read-write, with a warning
    /// saying so.
    #[arg(long = "dir", value_name = "HOST[:GUEST][:ro|:rw]", value_parser = check::<DirGrant>)]
    #[serde(alias = "dir")]
    pub dirs: Vec<String>,
    /// Allow outgoing HTTP(S) requests (`wasi:http`) to `HOST[:PORT]`:
    /// `api.example.com` (ports 80/443), `localhost:8080`, `*.example.com`,
    /// `HOST:*` (any port), `https://HOST` (HTTPS only). Repeatable. Every
    /// other destination is refused.
    #[arg(long = "allow-http", value_name = "HOST[:PORT]", value_parser = check::<HttpGrant>)]
    pub allow_http: Vec<String>,
    /// Grant what a Wassette policy file (`policy.yaml`) grants: its
    /// directories, HTTP hosts, environment keys and memory limit. What it
    /// grants that this host cannot grant exactly is an error.
    #[arg(long = "policy", value_name = "FILE")]
    pub policy: Option<PathBuf>,
}

/// `["KEY=VALUE", …]`, or `{ KEY = "VALUE", … }` read as that list.
fn list_or_table<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum ListOrTable {
        List(Vec<String>),
        Table(std::collections::BTreeMap<String, String>),
    }
    Ok(match ListOrTable::deserialize(deserializer)? {
        ListOrTable::List(list) => list,
        ListOrTable::Table(table) => table.into_iter().map(|(key, value)| format!("{key}={value}")).collect(),
    })
}

/// Checks a flag's syntax when it is parsed, keeping its text: the same text
/// may come from a file, where it is checked when the policy is built.
fn check<T: std::str::FromStr<Err = String>>(text: &str) -> Result<String, String> {
    text.parse::<T>().map(|_| text.to_string())
}

/// Where a guest's output goes.
#[derive(Debug, Clone, Copy, ValueEnum, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GuestOutputArg {
    /// The host's stderr, each line prefixed with the component's name.
    Stderr,
    /// Dropped.
    Discard,
}

/// Where a set of grants was written, to name it in errors and to resolve
/// relative paths.
#[derive(Debug, Clone, Copy)]
pub enum Origin<'a> {
    /// Command-line flags; paths are relative to the working directory.
    Flags,
    /// A section of a config file; paths are relative to its directory.
    File { path: &'a Path, section: &'a str },
}

impl Origin<'_> {
    /// How the user wrote the grant `spec` of kind `flag` (`env`, `dir`, …).
    fn name(&self, flag: &str, spec: &str) -> String {
        match self {
            Origin::Flags => format!("--{flag} {spec}"),
            Origin::File { path, section } => {
                let key = match flag {
                    "secret" => "secrets",
                    "dir" => "dirs",
                    other => other,
                };
                format!("{}: {section}{key} entry \"{spec}\"", path.display())
            }
        }
    }

    fn resolve(&self, path: &str) -> PathBuf {
        match self {
            Origin::File { path: file, .. } if Path::new(path).is_relative() => {
                file.parent().unwrap_or(Path::new(".")).join(path)
            }
            _ => PathBuf::from(path),
        }
    }
}

/// What a component is granted: its policy, the values of its
/// `--secret`s as read for it (what logs and recordings mask), and the
/// memory cap its policy file sets, if any.
pub struct Granted {
    pub policy: SandboxPolicy,
    pub secrets: Vec<String>,
    pub max_memory: Option<u64>,
}

impl Granted {
    /// `limits` under the policy file's memory limit, which lowers the
    /// component's and never raises it.
    pub fn capped(&self, limits: mcp_wit::Limits) -> mcp_wit::Limits {
        let cap = self.max_memory.map_or(usize::MAX, |cap| usize::try_from(cap).unwrap_or(usize::MAX));
        mcp_wit::Limits { max_memory: limits.max_memory.min(cap), ..limits }
    }
}

/// What the component `label` is granted by layers of grants (all grants
/// add up; the guest output of the last layer that sets it wins; the
/// smallest memory cap of their policy files).
pub fn sandbox_policy(label: String, layers: &[(Origin<'_>, &SandboxArgs)]) -> anyhow::Result<Granted> {
    let output = layers.iter().rev().find_map(|(_, args)| args.guest_output).unwrap_or(GuestOutputArg::Stderr);
    let output = match output {
        GuestOutputArg::Stderr => OutputTarget::Stderr,
        GuestOutputArg::Discard => OutputTarget::Discard,
    };
    let mut policy = SandboxPolicy::builder(label.clone()).guest_output(output);
    let mut secrets = Vec::new();
    let mut max_memory: Option<u64> = None;
    for (origin, args) in layers {
        policy = add_grants(policy, &mut secrets, *origin, args)?;
        if let Some(file) = &args.policy {
            let (granted, memory) = add_policy_file(policy, &label, &origin.resolve(&file.to_string_lossy()))?;
            policy = granted;
            max_memory = match (max_memory, memory) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
    }
    Ok(Granted { policy: policy.build(), secrets, max_memory })
}

/// Adds what the Wassette policy file at `path` grants; says which
/// granted environment keys the host does not have.
fn add_policy_file(
    mut policy: mcp_wit::sandbox::SandboxPolicyBuilder,
    label: &str,
    path: &Path,
) -> anyhow::Result<(mcp_wit::sandbox::SandboxPolicyBuilder, Option<u64>)> {
    let grants = mcp_wit::sandbox::policy_file::read(path, |key| std::env::var(key).ok())?;
    for dir in grants.dirs {
        anyhow::ensure!(
            dir.host.is_dir(),
            "{}: storage fs://{}: no such directory on this host (create it, or fix the policy)",
            path.display(),
            dir.host.display()
        );
        policy = policy.dir(dir);
    }
    for grant in grants.http {
        policy = policy.allow_http(grant);
    }
    for (key, value) in grants.env {
        policy = policy.env(key, value);
    }
    for key in grants.env_missing {
        tracing::warn!(component = %label, "{}: environment key {key} is granted but not set here: left out", path.display());
    }
    Ok((policy, grants.max_memory))
}

/// The largest secret file read (a token, a key: a few KiB).
const MAX_SECRET_FILE: u64 = 64 << 10;

/// The key and value of the secret `spec` names: `KEY` (the host's variable)
/// or `KEY=@FILE`. The spec never holds the value itself.
fn secret(origin: Origin<'_>, spec: &str) -> anyhow::Result<(String, String)> {
    let (key, value) = match spec.split_once("=@") {
        Some((key, file)) => {
            let file = origin.resolve(file);
            let cannot_read = || format!("{}: cannot read the file {}", origin.name("secret", key), file.display());
            let bytes = mcp_wit_registry::read_regular_file(&file, MAX_SECRET_FILE).with_context(cannot_read)?;
            let value = String::from_utf8(bytes).with_context(|| format!("{}: not UTF-8 text", cannot_read()))?;
            (key, value.trim_end_matches(['\n', '\r']).to_string())
        }
        None => {
            let value = std::env::var(spec).with_context(|| {
                format!(
                    "{}: the host has no variable {spec}; set it, or give the secret as {spec}=@FILE",
                    origin.name("secret", spec)
                )
            })?;
            (spec, value)
        }
    };
    anyhow::ensure!(!key.is_empty(), "{}: the key is empty", origin.name("secret", spec));
    Ok((key.to_string(), value))
}

fn add_grants(
    mut policy: mcp_wit::sandbox::SandboxPolicyBuilder,
    secrets: &mut Vec<String>,
    origin: Origin<'_>,
    args: &SandboxArgs,
) -> anyhow::Result<mcp_wit::sandbox::SandboxPolicyBuilder> {
    for spec in &args.env {
        let name = origin.name("env", spec);
        let (key, value) = match spec.split_once('=') {
            Some((key, value)) => (key.to_string(), value.to_string()),
            None => {
                let value = std::env::var(spec)
                    .with_context(|| format!("{name}: the host has no such variable; give it as {spec}=VALUE"))?;
                (spec.clone(), value)
            }
        };
        anyhow::ensure!(!key.is_empty(), "{name}: the variable name is empty");
        policy = policy.env(key, value);
    }
    for spec in &args.config {
        let name = origin.name("config", spec);
        let (key, value) = spec.split_once('=').with_context(|| format!("{name}: expected KEY=VALUE"))?;
        anyhow::ensure!(!key.is_empty(), "{name}: the key is empty");
        policy = policy.env(key, value);
    }
    for spec in &args.secrets {
        let (key, value) = secret(origin, spec)?;
        secrets.push(value.clone());
        policy = policy.secret(key, value);
    }
    for spec in &args.dirs {
        let name = origin.name("dir", spec);
        let mut grant: DirGrant = spec.parse().map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        if !(spec.ends_with(":ro") || spec.ends_with(":rw")) {
            tracing::warn!(
                "{name} grants read-write: without a mode the guest may change and delete what is there; add \
                 `:ro` to grant reading only, or `:rw` to say read-write (and quiet this warning)"
            );
        }
        grant.host = origin.resolve(&grant.host.to_string_lossy());
        anyhow::ensure!(
            grant.host.is_dir(),
            "{name}: no such directory on the host: {} (create it, or fix the path)",
            grant.host.display()
        );
        policy = policy.dir(grant);
    }
    for spec in &args.allow_http {
        let grant: HttpGrant = spec.parse().map_err(|e| anyhow::anyhow!("{}: {e}", origin.name("allow-http", spec)))?;
        policy = policy.allow_http(grant);
    }
    Ok(policy)
}
