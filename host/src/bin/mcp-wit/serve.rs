//! `mcp-wit serve`: flags and `mcp-wit.toml` → loaded components → a transport.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use clap::ArgMatches;
use clap::parser::ValueSource;
use serde::Deserialize;

use mcp_wit::protocol::Routers;
use mcp_wit::protocol::session::InstanceMode;
use mcp_wit::runtime::cache::CompileCache;
use mcp_wit::runtime::engine::EngineOptions;
use mcp_wit::runtime::limits::{DEFAULT_MAX_MEMORY, DEFAULT_TIMEOUT, Limits};
use mcp_wit::sandbox::requirements;
use mcp_wit::transport::http::{self, HttpArgs};
use mcp_wit::transport::stdio::{self, StdioOptions};
use mcp_wit::{LoadedComponent, Session, SessionOptions};

use crate::config_file::{ConfigFile, HttpSection};
use crate::progress::CompileProgress;
use crate::sandbox_args::{Origin, SandboxArgs, sandbox_policy};

/// The demo router served when `serve` is given no component.
static DEMO_COMPONENT: &[u8] = include_bytes!(env!("MCP_WIT_DEMO_COMPONENT"));

/// Default largest result a guest may return.
const DEFAULT_MAX_OUTPUT: usize = 16 << 20;

#[derive(clap::Args)]
pub struct ServeArgs {
    /// The components (`.wasm` or `.cwasm`) exporting
    /// `wasix:mcp/router@25.3.26`; the built-in demo when omitted. Several
    /// are served as one server, each under a prefix.
    components: Vec<PathBuf>,
    /// Read components, grants, limits and transport from this file
    /// (see the README, "mcp-wit.toml"); flags given here override it.
    #[arg(short = 'f', long = "file", value_name = "mcp-wit.toml")]
    file: Option<PathBuf>,
    /// The prefix of a component when several are served (`FILE=PREFIX`,
    /// repeatable); default: the router's own `name()`.
    #[arg(long = "name", value_name = "FILE=PREFIX")]
    names: Vec<String>,
    /// Longest accepted JSON-RPC message, in bytes [default: 4MiB].
    #[arg(long, value_parser = parse_size)]
    max_message_size: Option<usize>,
    /// Page size for tools/resources/prompts lists (default: one page).
    #[arg(long)]
    page_size: Option<usize>,
    #[command(flatten)]
    sandbox: SandboxArgs,
    /// Wall-clock budget of one guest call (e.g. `30s`, `500ms`); on expiry
    /// the caller gets -32603 and the instance is replaced [default: 30s].
    #[arg(long, value_parser = parse_duration)]
    timeout: Option<Duration>,
    /// Memory cap of one guest instance (e.g. `256MiB`); growing past it
    /// traps [default: 256MiB].
    #[arg(long, value_parser = parse_size)]
    max_memory: Option<usize>,
    /// Largest result a guest may return (e.g. `16MiB`); a larger one is
    /// replaced by -32603 [default: 16MiB].
    #[arg(long, value_parser = parse_size)]
    max_output: Option<usize>,
    /// How guest instances map onto sessions [default: per-session].
    #[arg(long, value_enum)]
    instances: Option<InstancesArg>,
    /// Where compiled components are cached (default: the user cache
    /// directory, e.g. ~/.cache/mcp-wit).
    #[arg(long, env = "MCP_WIT_CACHE_DIR")]
    cache_dir: Option<PathBuf>,
    /// Compile without reading or writing the cache.
    #[arg(long)]
    no_cache: bool,
    #[command(flatten)]
    http: Box<HttpArgs>,
}

/// How guest instances map onto sessions.
#[derive(Debug, Clone, Copy, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InstancesArg {
    /// One instance per session; guest state lives across its calls.
    PerSession,
    /// A fresh instance for every request; nothing survives a call.
    PerRequest,
    /// One instance for all sessions; calls are serialised.
    Shared,
}

impl From<InstancesArg> for InstanceMode {
    fn from(arg: InstancesArg) -> Self {
        match arg {
            InstancesArg::PerSession => InstanceMode::PerSession,
            InstancesArg::PerRequest => InstanceMode::PerRequest,
            InstancesArg::Shared => InstanceMode::Shared,
        }
    }
}

/// Parses `30s`, `1.5s`, `500ms`, `2m`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    humantime::parse_duration(text).map_err(|e| format!("`{text}` is not a duration like 30s or 500ms ({e})"))
}

/// Parses `1048576`, `512KiB`, `256MiB`, `1GiB` (also `K`, `M`, `G`, `KB`, `MB`, `GB` as powers of 1024).
pub fn parse_size(text: &str) -> Result<usize, String> {
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return Err(format!("`{text}`: unknown unit (use KiB, MiB or GiB)")),
    };
    let n: usize = number.parse().map_err(|_| format!("`{text}` is not a size like 256MiB"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("`{text}` is too large"))
}

/// A setting from the file, parsed, with the file named in the error.
fn from_file<T>(
    file: &Path,
    key: &str,
    value: Option<&String>,
    parse: fn(&str) -> Result<T, String>,
) -> anyhow::Result<Option<T>> {
    value.map(|text| parse(text).map_err(|e| anyhow::anyhow!("{}: {key}: {e}", file.display()))).transpose()
}

/// The per-component limits as given on the command line and at the top of
/// the file; a component's own section goes between the two.
struct LimitLayers {
    flag_timeout: Option<Duration>,
    flag_memory: Option<usize>,
    file_timeout: Option<Duration>,
    file_memory: Option<usize>,
}

impl LimitLayers {
    /// A flag beats the component's section, which beats the file's top
    /// level, which beats the default.
    fn limits(&self, own_timeout: Option<Duration>, own_memory: Option<usize>) -> Limits {
        Limits {
            timeout: self.flag_timeout.or(own_timeout).or(self.file_timeout).unwrap_or(DEFAULT_TIMEOUT),
            max_memory: self.flag_memory.or(own_memory).or(self.file_memory).unwrap_or(DEFAULT_MAX_MEMORY),
        }
    }
}

/// One component to serve, with where its settings came from.
struct Planned {
    path: PathBuf,
    prefix: Option<String>,
    limits: Limits,
    sandbox: Option<SandboxArgs>,
    section: String,
}

pub fn serve(mut args: ServeArgs, matches: &ArgMatches) -> anyhow::Result<()> {
    let file = args.file.as_deref().map(ConfigFile::read).transpose()?.unwrap_or_default();
    let file_path = args.file.clone().unwrap_or_else(|| PathBuf::from("mcp-wit.toml"));
    let fp = file_path.as_path();
    if let Some(section) = &file.http {
        merge_http(&mut args.http, section, matches, fp)?;
    }
    // HTTP settings without an address would be silently ignored on stdio.
    // (Checked here, not by clap: the address may come from the file.)
    if args.http.http.is_none() {
        // Every flag `HttpArgs` defines, as clap knows them, but the address.
        let http_flags = <HttpArgs as clap::Args>::augment_args(clap::Command::new("http"));
        let given = http_flags
            .get_arguments()
            .filter(|arg| arg.get_id() != "http")
            .find(|arg| matches.value_source(arg.get_id().as_str()) == Some(ValueSource::CommandLine));
        if let Some(arg) = given {
            anyhow::bail!(
                "--{} is an HTTP setting: serve over HTTP with --http ADDR (or `listen` under [http] in mcp-wit.toml)",
                arg.get_long().unwrap_or_default()
            );
        }
    }

    // Flags, then the file, then the defaults.
    let layers = LimitLayers {
        flag_timeout: args.timeout,
        flag_memory: args.max_memory,
        file_timeout: from_file(fp, "timeout", file.timeout.as_ref(), parse_duration)?,
        file_memory: from_file(fp, "max-memory", file.max_memory.as_ref(), parse_size)?,
    };
    let max_output = args.max_output.or(from_file(fp, "max-output", file.max_output.as_ref(), parse_size)?);
    let max_message_size =
        args.max_message_size.or(from_file(fp, "max-message-size", file.max_message_size.as_ref(), parse_size)?);
    let instances = args.instances.or(file.instances).unwrap_or(InstancesArg::PerSession);
    let page_size = args.page_size.or(file.page_size);
    let cache_dir = args.cache_dir.clone().or(file.cache_dir.as_ref().map(PathBuf::from));
    let no_cache = args.no_cache || file.no_cache.unwrap_or(false);
    let max_message_size = max_message_size.unwrap_or(stdio::DEFAULT_MAX_MESSAGE_SIZE);

    let plans = plan_components(&args, &file, fp, &layers)?;
    let cli_names: HashMap<PathBuf, String> = parse_names(&args.names, &args.components)?;

    // Pool slots for every instance that can be alive at once: one per
    // session and component, plus transient ones (start-up checks, a fault's
    // replacement). Slots are as large as the largest memory cap.
    let components = plans.len().max(1);
    let sessions = match (args.http.http.is_some(), args.http.stateless) {
        (false, _) => 1,
        (true, false) => args.http.max_sessions,
        (true, true) => args.http.max_connections,
    };
    let max_instances = u32::try_from((sessions + 8) * components + 8).unwrap_or(u32::MAX);
    let largest = plans.iter().map(|p| p.limits.max_memory).max().unwrap_or(layers.limits(None, None).max_memory);
    // Only HTTP calls guests async; stdio calls them on its own thread.
    let async_calls = args.http.http.is_some();
    let engine_options = EngineOptions { max_memory: largest, max_instances, async_calls, ..EngineOptions::default() };
    let engine = mcp_wit::runtime::engine::build_engine_with(&engine_options)?;
    let cache = match (&cache_dir, no_cache) {
        (_, true) => None,
        (Some(dir), false) => Some(CompileCache::new(dir)),
        (None, false) => CompileCache::default_dir().map(CompileCache::new),
    };

    let mut mounted = Vec::new();
    for plan in &plans {
        let label = plan.path.file_stem().map_or_else(|| "guest".into(), |s| s.to_string_lossy().into_owned());
        let mut grants = vec![(Origin::File { path: fp, section: "" }, &file.sandbox)];
        if let Some(own) = &plan.sandbox {
            grants.push((Origin::File { path: fp, section: &plan.section }, own));
        }
        grants.push((Origin::Flags, &args.sandbox));
        let policy = sandbox_policy(label, &grants)?;
        let component = {
            let _progress = CompileProgress::start(&plan.path);
            LoadedComponent::load(&engine, &plan.path, policy, cache.as_ref())
        }
        .with_context(|| format!("cannot serve {}", plan.path.display()))?
        .with_limits(plan.limits);
        report_requirements(&component)?;
        let prefix = match cli_names.get(&plan.path).or(plan.prefix.as_ref()) {
            Some(prefix) => prefix.clone(),
            None if plans.len() > 1 => default_prefix(&component)?,
            None => String::new(),
        };
        mounted.push((prefix, component));
    }
    if mounted.is_empty() {
        tracing::info!("no component given: serving the built-in demo router (`hello`)");
        let grants = [(Origin::File { path: fp, section: "" }, &file.sandbox), (Origin::Flags, &args.sandbox)];
        let policy = sandbox_policy("hello".into(), &grants)?;
        let demo = LoadedComponent::from_bytes(&engine, DEMO_COMPONENT, policy)?.with_limits(layers.limits(None, None));
        mounted.push((String::new(), demo));
    }
    let mut seen = HashMap::new();
    for ((prefix, _), plan) in mounted.iter().zip(&plans) {
        if let Some(first) = seen.insert(prefix.clone(), &plan.path) {
            anyhow::bail!(
                "{} and {} would both be served under the prefix `{prefix}`; give one another prefix with --name {}=PREFIX",
                first.display(),
                plan.path.display(),
                plan.path.display()
            );
        }
    }
    let routers = Routers::new(mounted)?;
    routers.check_collisions().map_err(|e| anyhow::anyhow!("{e}"))?;
    let session_options =
        SessionOptions { page_size, max_output: max_output.unwrap_or(DEFAULT_MAX_OUTPUT), instances: instances.into() };
    if let Some(options) = args.http.options(max_message_size)? {
        return http::serve_http(routers, session_options, options).context("HTTP transport failed");
    }
    let mut session = Session::new(routers, session_options);
    let options = StdioOptions { max_message_size };
    stdio::serve_stdio(&mut session, &options).context("stdio transport failed")
}

/// The components to serve: those on the command line, else the file's.
fn plan_components(
    args: &ServeArgs,
    file: &ConfigFile,
    file_path: &Path,
    layers: &LimitLayers,
) -> anyhow::Result<Vec<Planned>> {
    if !args.components.is_empty() {
        return Ok(args
            .components
            .iter()
            .map(|path| Planned {
                path: path.clone(),
                prefix: None,
                limits: layers.limits(None, None),
                sandbox: None,
                section: String::new(),
            })
            .collect());
    }
    file.components
        .iter()
        .enumerate()
        .map(|(i, section)| {
            let name = format!("[[component]] #{} ({})", i + 1, section.path.display());
            let key = |k: &str| format!("{name} {k}");
            Ok(Planned {
                path: section.path.clone(),
                prefix: section.name.clone(),
                limits: layers.limits(
                    from_file(file_path, &key("timeout"), section.timeout.as_ref(), parse_duration)?,
                    from_file(file_path, &key("max-memory"), section.max_memory.as_ref(), parse_size)?,
                ),
                sandbox: Some(section.sandbox.clone()),
                section: format!("{name}: "),
            })
        })
        .collect()
}

/// Fills the HTTP settings the command line left at their defaults from the
/// file's `[http]`.
fn merge_http(http: &mut HttpArgs, file: &HttpSection, matches: &ArgMatches, path: &Path) -> anyhow::Result<()> {
    let unset =
        |id: &str| !matches!(matches.value_source(id), Some(ValueSource::CommandLine | ValueSource::EnvVariable));
    let duration = |key: &str, text: &String| {
        parse_duration(text).map_err(|e| anyhow::anyhow!("{}: [http] {key}: {e}", path.display()))
    };
    if unset("http") && file.listen.is_some() {
        http.http = file.listen.clone();
    }
    if unset("json_response") {
        http.json_response |= file.json_response.unwrap_or(false);
    }
    if unset("stateless") {
        http.stateless |= file.stateless.unwrap_or(false);
    }
    // Lists add up, like the grants.
    http.allow_origins.extend(file.allow_origin.iter().cloned());
    http.allow_hosts.extend(file.allow_host.iter().cloned());
    if let (true, Some(n)) = (unset("max_sessions"), file.max_sessions) {
        http.max_sessions = n;
    }
    if let (true, Some(n)) = (unset("max_connections"), file.max_connections) {
        http.max_connections = n;
    }
    for (id, key, value, slot) in [
        ("session_timeout", "session-timeout", &file.session_timeout, &mut http.session_timeout),
        ("header_timeout", "header-timeout", &file.header_timeout, &mut http.header_timeout),
        ("body_timeout", "body-timeout", &file.body_timeout, &mut http.body_timeout),
        ("shutdown_timeout", "shutdown-timeout", &file.shutdown_timeout, &mut http.shutdown_timeout),
    ] {
        if let (true, Some(text)) = (unset(id), value) {
            *slot = duration(key, text)?;
        }
    }
    Ok(())
}

/// Warns (naming tool and key) about each config or secret a tool needs that
/// was not supplied; the other tools are served regardless.
fn report_requirements(component: &LoadedComponent) -> anyhow::Result<()> {
    let declared = requirements::declared(component)
        .map_err(|fault| anyhow::anyhow!("cannot list the tools of `{}`: {}", component.label(), fault.message))?;
    let supplied: Vec<&str> = component.policy().env().iter().map(|(k, _)| k.as_str()).collect();
    for missing in requirements::missing(&declared, &supplied) {
        if missing.required {
            tracing::warn!(component = component.label(), "missing: {missing}");
        } else {
            tracing::debug!(component = component.label(), "not supplied: {missing}");
        }
    }
    Ok(())
}

/// `--name FILE=PREFIX` flags by the component path they name.
fn parse_names(names: &[String], components: &[PathBuf]) -> anyhow::Result<HashMap<PathBuf, String>> {
    let mut prefixes = HashMap::new();
    for spec in names {
        let (file, prefix) = spec.split_once('=').with_context(|| format!("--name {spec}: expected FILE=PREFIX"))?;
        let path = PathBuf::from(file);
        anyhow::ensure!(
            components.contains(&path),
            "--name {spec}: `{file}` is not one of the components given ({})",
            components.iter().map(|c| c.display().to_string()).collect::<Vec<_>>().join(", ")
        );
        prefixes.insert(path, prefix.to_string());
    }
    Ok(prefixes)
}

/// A component's prefix when none is given: its router name, made safe
/// (letters, digits and `-`).
fn default_prefix(component: &LoadedComponent) -> anyhow::Result<String> {
    let name = component
        .instantiate()
        .and_then(|mut instance| instance.name())
        .map_err(|fault| anyhow::anyhow!("cannot ask `{}` for its name: {}", component.label(), fault.message))?;
    let prefix: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '-' }).collect();
    anyhow::ensure!(!prefix.is_empty(), "`{}` has an empty name(); give it a prefix with --name", component.label());
    Ok(prefix)
}
