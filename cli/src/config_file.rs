//! `mcp-wit.toml`: what `serve` runs, written down once.
//!
//! ```toml
//! timeout = "10s"              # any serve setting, as its flag without `--`
//! allow-http = ["api.example.com"]   # grants here apply to every component
//!
//! [http]                       # omit for stdio
//! listen = "127.0.0.1:8080"
//!
//! [[component]]
//! path = "weather.wasm"        # relative to this file
//! name = "weather"             # the prefix when several are served
//! max-memory = "64MiB"         # this component only
//! secrets = ["API_KEY"]        # its own grants, added to the ones above
//!
//! [[component]]
//! path = "fetch-plugin.wasm"   # an Extism plugin: the manifest fields its users know
//! allowed_hosts = ["api.example.com"]      # as allow-http "api.example.com:*" (any port, as Extism's)
//! allowed_paths = { "/srv/data" = "/data", "ro:/etc/app" = "/app" }   # as dir
//! memory = { max_pages = 1024 }            # as max-memory (64 KiB pages)
//! config = { REGION = "eu" }               # as config = ["REGION=eu"]
//!
//! [[component]]
//! path = "oci://ghcr.io/example/notes:1.2"   # from a registry (`mcp-wit pull` keeps it)
//! verify = { key = "cosign.pub" }            # served only if signed by it
//! ```
//!
//! Precedence: a flag given on the command line, then the component's
//! section, then the file's top level, then the default. Grants and lists
//! add up. Components named on the command line replace the file's list.
//! Durations and sizes are read as the flags read them: with their unit
//! (`"45s"`, `"64MiB"`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_wit_registry::ComponentSource;
use std::time::Duration;

use anyhow::Context;
use serde::Deserialize;

use crate::logging::LogFormat;
use crate::registry::RegistryArgs;
use crate::sandbox_args::SandboxArgs;
use crate::settings::{CacheScopeArg, LimitSettings, ServeSettings};
use crate::units;

/// The whole file.
#[derive(Debug, Default, Deserialize)]
pub struct ConfigFile {
    /// The settings, as the `serve` flags name them (`[http]` for the HTTP ones).
    #[serde(flatten)]
    pub settings: ServeSettings,
    /// The limits and the cache, moved into `settings` once read.
    #[serde(flatten)]
    limits: LimitSettings,
    /// The components, in order.
    #[serde(default, rename = "component")]
    pub components: Vec<ComponentSection>,
    /// Grants for every component.
    #[serde(flatten)]
    pub sandbox: SandboxArgs,
    /// How components named by reference are fetched and checked.
    #[serde(flatten)]
    pub registry: RegistryArgs,
    /// How log lines are written (`--log-format`): read before the rest,
    /// as the flag is ([`ConfigFile::logging`]).
    #[serde(default, rename = "log-format")]
    pub log_format: Option<LogFormat>,
    /// More log output (`-v` counted: 1 debug, 2 trace).
    #[serde(default)]
    pub verbose: Option<u8>,
    /// Whatever else the file says: an error, so a typo is not ignored.
    #[serde(flatten)]
    unknown: BTreeMap<String, toml::Value>,
}

/// One `[[component]]`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ComponentSection {
    /// The `.wasm` or `.cwasm`, relative to the file, or a registry
    /// reference (`oci://…`).
    pub path: PathBuf,
    /// Its prefix when several are served (`--name`).
    pub name: Option<String>,
    /// Its per-call deadline.
    #[serde(default, deserialize_with = "units::duration")]
    pub timeout: Option<Duration>,
    /// Its memory cap.
    #[serde(default, deserialize_with = "units::size")]
    pub max_memory: Option<usize>,
    /// How long 2026-07-28 clients may reuse its lists and reads (`ttlMs`).
    #[serde(default, deserialize_with = "units::duration")]
    pub cache_ttl: Option<Duration>,
    /// Who may reuse them (`cacheScope`).
    pub cache_scope: Option<CacheScopeArg>,
    /// How long a session's instance of it may stay idle before it is
    /// released (its guest state lost).
    #[serde(default, deserialize_with = "units::duration")]
    pub instance_idle_timeout: Option<Duration>,
    /// Whose signature it needs (`{ key = "cosign.pub" }`, or `{ identity
    /// = …, issuer = …, trust-root = … }`), over the command line's; under
    /// --require-signatures, besides the command line's.
    pub verify: Option<crate::registry::VerifySettings>,
    /// Its own grants, added to the file's and the command line's.
    #[serde(flatten)]
    pub sandbox: SandboxArgs,
    /// The Extism manifest's fields, folded into the ones above when read.
    #[serde(flatten)]
    extism: ExtismManifest,
    #[serde(flatten)]
    unknown: BTreeMap<String, toml::Value>,
}

/// The fields of an Extism manifest that users of Extism plugins know, as
/// Extism spells them.
#[derive(Debug, Default, Deserialize)]
struct ExtismManifest {
    /// Hosts outgoing HTTP may reach (`allow-http`).
    #[serde(default)]
    allowed_hosts: Vec<String>,
    /// Host directory (`ro:` first: read-only) → where the guest sees it (`dir`).
    #[serde(default)]
    allowed_paths: BTreeMap<String, String>,
    /// `max_pages`: the memory cap in 64 KiB pages (`max-memory`).
    #[serde(default)]
    memory: Option<ExtismMemory>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExtismMemory {
    max_pages: u32,
}

impl ComponentSection {
    /// Folds the Extism manifest fields into the section's own.
    fn fold_extism(&mut self) -> anyhow::Result<()> {
        let manifest = std::mem::take(&mut self.extism);
        // Extism matches the host alone, on any port.
        let any_port = |host: String| {
            let has_port = if host.starts_with('[') { !host.ends_with(']') } else { host.contains(':') };
            if has_port { host } else { format!("{host}:*") }
        };
        self.sandbox.allow_http.extend(manifest.allowed_hosts.into_iter().map(any_port));
        for (host, guest) in manifest.allowed_paths {
            self.sandbox.dirs.push(match host.strip_prefix("ro:") {
                Some(host) => format!("{host}:{guest}:ro"),
                None => format!("{host}:{guest}"),
            });
        }
        if let Some(memory) = manifest.memory {
            anyhow::ensure!(
                self.max_memory.is_none(),
                "give `max-memory` or `memory.max_pages`, not both (they say the same)"
            );
            self.max_memory = Some(memory.max_pages as usize * 64 * 1024);
        }
        Ok(())
    }
}

/// The largest config file read: hundreds of components fit in far less.
const MAX_CONFIG_FILE: u64 = 4 << 20;

impl ConfigFile {
    /// Reads and checks `path`; relative paths in it are made relative to
    /// its directory.
    pub fn read(path: &Path) -> anyhow::Result<Self> {
        let bytes = mcp_wit_registry::read_regular_file(path, MAX_CONFIG_FILE)
            .with_context(|| format!("cannot read the config file {} (check the path)", path.display()))?;
        let text = String::from_utf8(bytes)
            .map_err(|e| anyhow::anyhow!("the config file {} is not UTF-8 text: {e}", path.display()))?;
        Self::parse(&text, path)
    }

    pub(crate) fn parse(text: &str, path: &Path) -> anyhow::Result<Self> {
        // TOML itself first: its errors carry their line.
        let table: toml::Table =
            toml::from_str(text).with_context(|| format!("{} is not a valid mcp-wit.toml", path.display()))?;
        anyhow::ensure!(
            !table.is_empty(),
            "{} is empty: name what to serve (`[[component]]` with `path = \"router.wasm\"`), or leave out \
             `-f` to serve the built-in demo router",
            path.display()
        );
        let mut file: ConfigFile = match toml::from_str(text) {
            Ok(file) => file,
            // The settings are read flattened, which loses where a value
            // was: each key is tried alone to find the one refused.
            Err(error) => match locate_refusal(text, &table) {
                Some((line, key, why)) => anyhow::bail!("{}, line {line}: `{key}`: {why}", path.display()),
                None => return Err(error).with_context(|| format!("{} is not a valid mcp-wit.toml", path.display())),
            },
        };
        reject_unknown(path, "", &file.unknown, text)?;
        file.settings.limits = std::mem::take(&mut file.limits);
        if let Some(listen) = &file.settings.http.listen {
            crate::settings::parse_addr(listen).map_err(|why| {
                let line = line_of(text, Some("http"), "listen").unwrap_or(1);
                anyhow::anyhow!("{}, line {line}: `[http] listen = {listen:?}`: {why}", path.display())
            })?;
        }
        for (i, component) in file.components.iter_mut().enumerate() {
            let section = format!("[[component]] #{}: ", i + 1);
            reject_unknown(path, &section, &component.unknown, text)?;
            component.fold_extism().with_context(|| format!("{}: {section}", path.display()))?;
            let beside = path.parent().unwrap_or(Path::new(".")).join(&component.path);
            // A registry reference stays as written; a file is found beside
            // this one.
            let reference = !beside.exists()
                && matches!(
                    ComponentSource::parse(&component.path.to_string_lossy()),
                    Ok(ComponentSource::Registry(_))
                );
            if component.path.is_relative() && !reference {
                component.path = beside;
            }
            if let Some(verify) = &mut component.verify {
                beside_the_file(path, [&mut verify.key, &mut verify.trust_root].into_iter().flatten());
            }
        }
        let verify = &mut file.registry.verify;
        let files =
            [&mut file.settings.limits.cache_dir, &mut verify.key, &mut verify.trust_root].into_iter().flatten();
        beside_the_file(path, files.chain(&mut file.registry.registry_ca));
        Ok(file)
    }

    /// How `mcp-wit serve -f FILE` logs: what the file says of it, read on
    /// its own before logging starts (a file that cannot be read says
    /// nothing here; reading it again for the rest reports why).
    pub fn logging(path: &Path) -> Logging {
        ConfigFile::read(path).map(|file| file.logging_said()).unwrap_or_default()
    }

    /// What this file says of logging and traces.
    pub fn logging_said(&self) -> Logging {
        let otlp_endpoint = self.settings.telemetry.otlp_endpoint.clone();
        Logging { format: self.log_format, verbose: self.verbose, otlp_endpoint }
    }
}

/// What `mcp-wit.toml` says of logging and traces, which start before the
/// rest of it is read.
#[derive(Debug, Default)]
pub struct Logging {
    /// `log-format`.
    pub format: Option<LogFormat>,
    /// `verbose`.
    pub verbose: Option<u8>,
    /// `otlp-endpoint` under `[telemetry]`.
    pub otlp_endpoint: Option<String>,
}

/// Makes each relative path in `paths` relative to the file at `path`'s
/// directory, as every path a file names is.
fn beside_the_file<'a>(path: &Path, paths: impl IntoIterator<Item = &'a mut PathBuf>) {
    let dir = path.parent().unwrap_or(Path::new("."));
    for file in paths {
        if file.is_relative() {
            *file = dir.join(&*file);
        }
    }
}

fn reject_unknown(
    path: &Path,
    section: &str,
    unknown: &BTreeMap<String, toml::Value>,
    text: &str,
) -> anyhow::Result<()> {
    let Some(key) = unknown.keys().next() else { return Ok(()) };
    // A component's keys are found after the first `[[component]]`.
    let line = line_of(text, (!section.is_empty()).then_some("[component]"), key)
        .map_or_else(String::new, |line| format!(", line {line}"));
    anyhow::bail!(
        "{}{line}: {section}unknown key `{key}` (the keys are the `serve` flags without `--`; see `mcp-wit serve --help`)",
        path.display()
    )
}

/// The line, key and reason of the first setting the file's structure
/// refuses, each top-level and `[http]` key tried alone.
fn locate_refusal(text: &str, table: &toml::Table) -> Option<(usize, String, String)> {
    let refused = |one: toml::Table| toml::Value::Table(one).try_into::<ConfigFile>().err();
    for (key, value) in table {
        match (key.as_str(), value) {
            ("http", toml::Value::Table(http)) => {
                for (inner, value) in http {
                    let one = toml::Table::from_iter([(
                        "http".to_string(),
                        toml::Value::Table(toml::Table::from_iter([(inner.clone(), value.clone())])),
                    )]);
                    if let Some(why) = refused(one) {
                        let line = line_of(text, Some("http"), inner).unwrap_or(1);
                        return Some((line, format!("[http] {inner}"), why.message().to_string()));
                    }
                }
            }
            ("component", _) => {}
            _ => {
                if let Some(why) = refused(toml::Table::from_iter([(key.clone(), value.clone())])) {
                    return Some((line_of(text, None, key).unwrap_or(1), key.clone(), why.message().to_string()));
                }
            }
        }
    }
    None
}

/// The line (from 1) where `key` is set: at the top of the file (`None`),
/// or in the table `section` (`"http"`; `"[component]"` for the array of
/// tables). A plain scan: keys are found as they are written, bare or quoted.
fn line_of(text: &str, section: Option<&str>, key: &str) -> Option<usize> {
    let mut current: Option<String> = None;
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            // `[http]` is `http`; `[[component]]` is `[component]`.
            let name = line.split(']').next().unwrap_or_default().trim_start_matches('[').trim();
            current = Some(if line.starts_with("[[") { format!("[{name}]") } else { name.into() });
            continue;
        }
        let Some((name, _)) = line.split_once('=') else { continue };
        let name = name.trim().trim_matches('"').trim_matches('\'');
        if name == key && current.as_deref() == section {
            return Some(index + 1);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_wit::InstanceMode;

    #[test]
    fn reads_a_full_file() {
        let text = r#"
            timeout = "10s"
            instances = "per-request"
            max-instance-reuse-count = 8
            env = ["TZ=UTC"]
            guest-output = "discard"
            [http]
            listen = "8080"
            allow-origin = ["https://app.example.com"]
            [[component]]
            path = "weather.wasm"
            name = "weather"
            max-memory = "64MiB"
            allow-http = ["api.weather.gov"]
            [[component]]
            path = "/abs/notes.cwasm"
        "#;
        let file = ConfigFile::parse(text, Path::new("/etc/mcp/mcp-wit.toml")).unwrap();
        assert_eq!(file.settings.limits.timeout, Some(Duration::from_secs(10)));
        assert_eq!(file.settings.instances.map(InstanceMode::from), Some(InstanceMode::PerRequest));
        assert_eq!(file.settings.max_instance_reuse_count, Some(8));
        assert_eq!(file.sandbox.env, ["TZ=UTC"]);
        assert_eq!(file.settings.http.listen.as_deref(), Some("8080"));
        assert_eq!(file.components[0].max_memory, Some(64 << 20));
        assert_eq!(file.components[0].path, Path::new("/etc/mcp/weather.wasm"));
        assert_eq!(file.components[0].sandbox.allow_http, ["api.weather.gov"]);
        assert_eq!(file.components[1].path, Path::new("/abs/notes.cwasm"));
    }

    #[test]
    fn reads_the_extism_manifest_fields_of_a_component() {
        let text = r#"
            [[component]]
            path = "plugin.wasm"
            allow-http = ["a.example.com"]
            allowed_hosts = ["b.example.com", "*.c.example.com"]
            allowed_paths = { "/srv/data" = "/data", "ro:/etc/app" = "/app" }
            memory = { max_pages = 16 }
            config = { REGION = "eu", MODE = "fast" }
        "#;
        let file = ConfigFile::parse(text, Path::new("m.toml")).unwrap();
        let section = &file.components[0];
        assert_eq!(section.sandbox.allow_http, ["a.example.com", "b.example.com:*", "*.c.example.com:*"]);
        assert_eq!(section.sandbox.dirs, ["/srv/data:/data", "/etc/app:/app:ro"]);
        assert_eq!(section.max_memory, Some(16 * 64 * 1024));
        assert_eq!(section.sandbox.config, ["MODE=fast", "REGION=eu"], "a table, as Extism writes it");
        let both = "[[component]]\npath = \"p.wasm\"\nmax-memory = \"1MiB\"\nmemory = { max_pages = 1 }";
        let error = format!("{:#}", ConfigFile::parse(both, Path::new("m.toml")).unwrap_err());
        assert!(error.contains("not both"), "{error}");
    }

    #[test]
    fn the_validation_section_sets_the_tool_checks() {
        let text = "[validation]\nallow-invalid-schemas = true\nno-validate-input = false";
        let file = ConfigFile::parse(text, Path::new("m.toml")).unwrap();
        let checks = file.settings.validation;
        assert_eq!((checks.allow_invalid_schemas, checks.no_validate_input), (Some(true), Some(false)));
        assert!(checks.validate_input());
    }

    #[test]
    fn refuses_unknown_keys_naming_them() {
        let path = Path::new("m.toml");
        let error = ConfigFile::parse("timout = \"1s\"", path).unwrap_err().to_string();
        assert!(error.contains("unknown key `timout`"), "{error}");
        let error = ConfigFile::parse("[[component]]\npath = \"a.wasm\"\nenvv = []", path).unwrap_err().to_string();
        assert!(error.contains("[[component]] #1: unknown key `envv`"), "{error}");
        let error = format!("{:#}", ConfigFile::parse("[http]\nlisten = \"1\"\nport = 2", path).unwrap_err());
        assert!(error.contains("port"), "{error}");
        let error = format!("{:#}", ConfigFile::parse("[[component]]\nname = \"x\"", path).unwrap_err());
        assert!(error.contains("path"), "a component needs a path: {error}");
        let error = format!("{:#}", ConfigFile::parse("timeout = \"soon\"", path).unwrap_err());
        assert!(error.contains("`soon` is not a duration"), "{error}");
    }
}
