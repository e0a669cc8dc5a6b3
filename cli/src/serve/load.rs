//! Loading what `serve` serves: flags and `mcp-wit.toml` → an engine, the
//! components under their grants and limits, the session's and the
//! transport's options.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use mcp_wit::runtime::limits::{DEFAULT_MAX_MEMORY, DEFAULT_TIMEOUT};
use mcp_wit::transport::stdio;
use mcp_wit::{EngineOptions, InstanceMode, Limits, LoadedRouter, MemoryBudget, MountError, Routers, SessionOptions};

use super::args::ServeArgs;
use crate::config_file::ConfigFile;
use crate::demo;
use crate::progress::CompileProgress;
use crate::registry::{Component, RegistryArgs, VerifySettings};
use crate::sandbox_args::{Origin, SandboxArgs, sandbox_policy};
use crate::settings::{MetricsSetting, ServeSettings};

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
    /// What modern clients may cache of its results.
    cache_hint: mcp_wit::CacheHint,
    /// After how long idle a session's instance is released.
    instance_idle_timeout: Option<std::time::Duration>,
    sandbox: Option<SandboxArgs>,
    /// Whose signature its section requires, over the flags.
    verify: Option<VerifySettings>,
    section: String,
}

/// What `serve` serves: the routers and how sessions run them, the
/// transport's settings, and what it was asked.
pub struct Loaded {
    pub routers: Routers,
    /// What the components were compiled for: a reload loads on it again.
    pub engine: SizedEngine,
    /// The files a reload reads: the configuration file, if any, and each
    /// served component's.
    pub sources: Vec<PathBuf>,
    pub session_options: SessionOptions,
    /// `None`: stdio.
    pub http_options: Option<mcp_wit::HttpOptions>,
    pub max_message_size: usize,
    pub settings: ServeSettings,
    /// The `--secret` values of what is served, when it is recorded or its
    /// arguments logged.
    pub secrets: Vec<String>,
}

/// `values` (a component's `--secret`s), masked in every log line from now
/// on (whatever quotes them); returned when `recording` (the recording or
/// the logged arguments must mask them too).
fn logged_secrets(values: Vec<String>, recording: bool) -> Vec<String> {
    mcp_wit::redact::mask_in_logs(&values);
    if recording { values } else { Vec::new() }
}

/// How a component as named (a file, or a registry reference) becomes a
/// file to load: [`RegistryArgs::resolve_checked`], or
/// [`RegistryArgs::resolve_file`] in the serving executable, which links no
/// registry client (a function named only where it is chosen is linked only
/// where it is).
pub type Resolve = fn(&RegistryArgs, &Path, Option<&Path>, Option<&VerifySettings>) -> anyhow::Result<Component>;

/// Loads what `args` (and the file they name) say to serve, their
/// components resolved with `resolve`.
pub fn load(args: &ServeArgs, resolve: Resolve) -> anyhow::Result<Loaded> {
    load_on(args, None, resolve)
}

/// An engine, the memory cap its pool was sized for, and the memory budget
/// of all its instances (kept across reloads: the old instances still hold
/// theirs until they go).
#[derive(Clone)]
pub struct SizedEngine {
    pub(super) engine: mcp_wit::Engine,
    max_memory: usize,
    pub(super) budget: Arc<MemoryBudget>,
}

/// How long an HTTP session's own instance waits for its next call by
/// default: many clients come and go, and an idle one's instance holds its
/// peak memory.
pub const DEFAULT_HTTP_INSTANCE_IDLE: std::time::Duration = std::time::Duration::from_secs(300);

/// As [`load`], on `engine` if given (a reload), else on a new one.
pub(super) fn load_on(args: &ServeArgs, engine: Option<SizedEngine>, resolve: Resolve) -> anyhow::Result<Loaded> {
    let file = args.file.as_deref().map(ConfigFile::read).transpose()?.unwrap_or_default();
    let file_path = args.file.clone().unwrap_or_else(|| PathBuf::from("mcp-wit.toml"));
    let fp = file_path.as_path();
    let layers = LimitLayers {
        flag_timeout: args.settings.limits.timeout,
        flag_memory: args.settings.limits.max_memory,
        file_timeout: file.settings.limits.timeout,
        file_memory: file.settings.limits.max_memory,
    };
    // Flags, then the file; the defaults are applied where each is used.
    let settings = args.settings.clone().over(file.settings.clone());
    // HTTP flags without an address would be silently ignored on stdio. (The
    // file's `[http]` may be kept for `--http` runs: its settings wait there.)
    if settings.http.listen.is_none()
        && let Some(flag) = args.settings.http.orphan()
    {
        anyhow::bail!(
            "{flag} is an HTTP setting: serve over HTTP with --http ADDR (or `listen` under [http] in mcp-wit.toml)"
        );
    }
    if settings.http.listen.is_none()
        && let Some(flag) = args.settings.auth.given()
    {
        anyhow::bail!(
            "{flag} is an authorization setting, and authorization is for HTTP: serve over HTTP with --http ADDR \
             (stdio is not authenticated: whoever starts the server is its client)"
        );
    }
    let max_message_size = settings.max_message_size.unwrap_or(stdio::DEFAULT_MAX_MESSAGE_SIZE);
    let auth = settings.auth.options().map_err(anyhow::Error::msg)?;
    let tasks = settings.tasks.options().map_err(anyhow::Error::msg)?;
    let mut http_options = settings
        .http
        .options(max_message_size)
        .map_err(anyhow::Error::msg)?
        .map(|o| mcp_wit::HttpOptions { tasks, ..o.auth(auth) });

    let plans = plan_components(args, &file, &layers);
    let cli_names: HashMap<PathBuf, String> = parse_names(&args.names, &args.components)?;

    // Pool slots for every instance that can be alive at once (one per
    // session and component, plus transient ones: start-up checks, a fault's
    // replacement), up to a cap; beyond the pool, instances are allocated
    // on demand. Slots are as large as the largest memory cap. Over stdio,
    // unless a pool is asked for, every instance is allocated on demand: its
    // one client's instances are made once and kept, and setting a pool up
    // was a fifth of a cached start's CPU (bench/results/2026-12-03-stdio-on-demand).
    let pooling = http_options.is_some() || settings.pool_instances.is_some();
    let components = plans.len().max(1);
    let sessions = match &http_options {
        None => 1,
        Some(options) if options.stateless => options.max_connections,
        Some(options) => options.max_sessions,
    };
    let needed = u32::try_from((sessions + 8) * components + 8).unwrap_or(u32::MAX);
    let pool_instances = settings.pool_instances.unwrap_or(needed.min(mcp_wit::DEFAULT_POOL_CAP)).max(1);
    let largest = plans.iter().map(|p| p.limits.max_memory).max().unwrap_or(layers.limits(None, None).max_memory);
    let engine = match engine {
        Some(sized) if largest > sized.max_memory => anyhow::bail!(
            "a memory cap of {largest} bytes is more than the engine was set up for ({}): restart the server to \
             raise it",
            sized.max_memory
        ),
        Some(sized) => sized,
        None => SizedEngine {
            engine: EngineOptions {
                max_memory: largest,
                pool_instances,
                pooling,
                // Fiber stacks in the pool, when there is one (over stdio
                // too, when asked for): stdio calls guests on its own thread,
                // but a command server's `run` lives on a fiber for its
                // instance's life. Without stacks in the pool, each such
                // instance was refused there and made on a second engine,
                // the component serialized and loaded again for it.
                async_calls: true,
                // A budget named by the user holds exactly: freed memory
                // goes back at once, not in batches.
                batch_decommits: settings.max_total_memory.is_none(),
                // A first start (an empty cache) keeps no client waiting
                // for the optimising compiler (a build without one
                // compiles nothing).
                baseline_first: true,
            }
            .build()?,
            max_memory: largest,
            budget: match settings.max_total_memory {
                Some(limit) => MemoryBudget::new(limit),
                None => MemoryBudget::for_this_machine(),
            },
        },
    };
    tracing::debug!(budget = engine.budget.limit(), "the memory budget of all instances");
    let idle_default = http_options.as_ref().map(|_| DEFAULT_HTTP_INSTANCE_IDLE);
    let cache = settings.limits.cache();

    let instance_mode = settings.instances.map(Into::into).unwrap_or_default();
    if instance_mode == InstanceMode::PerCaller && http_options.as_ref().is_none_or(|o| o.auth.is_none()) {
        anyhow::bail!(
            "--instances per-caller keeps one instance per authenticated principal, and {}: set up authorization \
             (--auth-issuer and its keys) or pick per-session (state per session) or shared (one for all)",
            match &http_options {
                None => "stdio is not authenticated (its one client already has one instance per component)",
                Some(_) => "this server does not authenticate its callers",
            }
        );
    }
    let reuse = mcp_wit::InstanceReuse {
        max_uses: settings.max_instance_reuse_count.unwrap_or(1),
        // As many as can be in use at once wait for reuse.
        max_kept: sessions,
    };
    if reuse.max_uses > 1 && matches!(instance_mode, InstanceMode::PerCaller | InstanceMode::Shared) {
        anyhow::bail!(
            "--max-instance-reuse-count hands a session's instance to the next one; with --instances {} instances \
             already outlive sessions: drop one of the two",
            if instance_mode == InstanceMode::Shared { "shared" } else { "per-caller" }
        );
    }
    let max_callers = match &http_options {
        Some(options) => options.max_sessions,
        None => 1,
    };
    let cache_hint = settings.cache_hint();
    let mut mounted = Vec::new();
    // What a recording must never hold: the secrets of what is served.
    // Logged arguments are masked as the recording is.
    let recording = settings.record.is_some() || settings.telemetry.log_arguments == Some(true);
    let mut secrets = Vec::new();
    let mut described = Vec::new();
    // Pulled components are kept beside the compiled ones.
    let store_dir = settings.limits.cache_dir.clone();
    let mut sources = Vec::new();
    let registry = args.registry.clone().over(file.registry.clone());
    registry.check_credentials_scope(plans.iter().map(|plan| plan.path.as_path()))?;
    for plan in &plans {
        let source = resolve(&registry, &plan.path, store_dir.as_deref(), plan.verify.as_ref())?;
        sources.push(source.path.clone());
        let label = source.label.clone();
        let mut grants = vec![(Origin::File { path: fp, section: "" }, &file.sandbox)];
        if let Some(own) = &plan.sandbox {
            grants.push((Origin::File { path: fp, section: &plan.section }, own));
        }
        grants.push((Origin::Flags, &args.sandbox));
        let granted = sandbox_policy(label, &grants)?;
        let limits = granted.capped(plan.limits);
        secrets.extend(logged_secrets(granted.secrets, recording));
        let component = {
            let _progress = CompileProgress::unless_cached(&source.path, &engine.engine, cache.as_ref());
            LoadedRouter::load(&engine.engine, &source.path, granted.policy, cache.as_ref())
        }
        .with_context(|| match &source.pinned {
            Some(pinned) => format!("cannot serve {} ({pinned})", plan.path.display()),
            None => format!("cannot serve {}", plan.path.display()),
        })?
        .with_limits(limits)
        .with_instance_mode(instance_mode)
        .with_instance_reuse(reuse)
        .with_max_callers(max_callers)
        .with_cache_hint(plan.cache_hint)
        .with_instance_idle_timeout(plan.instance_idle_timeout.or(idle_default))
        .with_memory_budget(engine.budget.clone());
        let checked = settings.validation.check(&component, cache.as_ref())?;
        if !checked.authorization.is_empty() {
            described.push((component.label().to_string(), checked.authorization));
        }
        let given = cli_names.get(&plan.path).or(plan.prefix.as_ref()).cloned();
        // Over stdio the one session makes its instance at once: it may have
        // the check's (over HTTP it would wait, unfit, for an async call).
        let spare = http_options.is_none().then_some(checked.instance);
        mounted.push(Mounting { given, component, router_name: checked.router_name, spare });
    }
    let mut mounted = named(prefixed(mounted)?);
    if mounted.is_empty() {
        tracing::info!("no component given: serving the built-in demo router (`{}`)", demo::NAME);
        let grants = [(Origin::File { path: fp, section: "" }, &file.sandbox), (Origin::Flags, &args.sandbox)];
        let granted = sandbox_policy(demo::NAME.into(), &grants)?;
        secrets.extend(logged_secrets(granted.secrets, recording));
        let demo = LoadedRouter::from_bytes(&engine.engine, demo::COMPONENT, granted.policy)?
            .with_limits(layers.limits(None, None))
            .with_instance_mode(instance_mode)
            .with_instance_reuse(reuse)
            .with_max_callers(max_callers)
            .with_cache_hint(cache_hint)
            .with_instance_idle_timeout(settings.instance_idle_timeout.or(idle_default))
            .with_memory_budget(engine.budget.clone());
        mounted.push((String::new(), demo));
    }
    let mut seen = HashMap::new();
    for ((prefix, _), plan) in mounted.iter().zip(&plans) {
        if prefix.is_empty() {
            continue;
        }
        if let Some(first) = seen.insert(prefix.clone(), &plan.path) {
            // Say it where the component was named: its section of the file,
            // or the command line.
            let advice = match plan.section.strip_suffix(": ") {
                Some(section) => format!("add `name = \"PREFIX\"` to {section}"),
                None => format!("give one another prefix with --name {}=PREFIX", plan.path.display()),
            };
            anyhow::bail!(
                "{} and {} would both be served under the prefix `{prefix}`; {advice}",
                first.display(),
                plan.path.display(),
            );
        }
    }
    if let Some(options) = &mut http_options {
        match &mut options.auth {
            Some(auth) => auth.described.extend(described),
            None => described.iter().for_each(|(label, described)| warn_unprotected(label, described)),
        }
    }
    let routers = Routers::new(mounted).map_err(with_name_advice)?;
    routers.check_collisions().map_err(|e| match e {
        mcp_wit::CollisionCheckError::Mount(e) => with_name_advice(e),
        other => anyhow::Error::new(other),
    })?;
    let state_key = match &settings.state_key_file {
        Some(path) => {
            let bytes = mcp_wit_registry::read_regular_file(path, mcp_wit_registry::MAX_KEY_FILE)
                .with_context(|| format!("cannot read the state key file {}", path.display()))?;
            mcp_wit::StateKey::from_bytes(&bytes)
                .map_err(|e| anyhow::anyhow!("the state key file {}: {e}", path.display()))?
        }
        None => mcp_wit::StateKey::default(),
    };
    let defaults = SessionOptions::default();
    let session_options = SessionOptions {
        page_size: settings.page_size,
        max_output: settings.limits.max_output.unwrap_or(defaults.max_output),
        state_key,
        // Every retry reaches this process (replicas behind one address
        // share `--state-key-file`).
        state_key_sharing: defaults.state_key_sharing,
        state_ttl: settings.state_ttl.unwrap_or(defaults.state_ttl),
        // Set by the HTTP server from its authorization settings.
        list_filter: None,
        validate_input: settings.validation.validate_input(),
        validation_budget: settings.validation.validation_budget(),
        // The HTTP server gives its own pool; stdio checks on its one thread.
        offload: None,
        observer: Some(observer(&settings, http_options.as_ref().map(|o| o.addr), &secrets)),
        // Set by the HTTP server from its task settings.
        serve_tasks: false,
    };
    // A pulled component's file never changes (it is named by its digest):
    // watching it is harmless, and a reload resolves its tag again.
    let sources = args.file.iter().cloned().chain(sources).collect();
    Ok(Loaded { routers, engine, sources, session_options, http_options, max_message_size, settings, secrets })
}

/// What watches every request: the request log, the metrics (installed
/// here unless off), spans when traces are exported.
fn observer(
    settings: &ServeSettings,
    http: Option<std::net::SocketAddr>,
    secrets: &[String],
) -> Arc<dyn mcp_wit::Observer> {
    let metrics = settings.telemetry.metrics_for(http) != MetricsSetting::Off;
    if metrics {
        mcp_wit::telemetry::Metrics::install();
    }
    mcp_wit::telemetry::Telemetry::new(mcp_wit::telemetry::TelemetryOptions {
        metrics,
        traces: crate::telemetry::traces_exported(),
        log_requests: settings.telemetry.log_requests.unwrap_or(true),
        request_lines: crate::logging::request_lines(),
        log_arguments: settings.telemetry.log_arguments.unwrap_or(false),
        secrets: secrets.to_vec(),
    })
}

/// The components to serve: those on the command line, else the file's.
fn plan_components(args: &ServeArgs, file: &ConfigFile, layers: &LimitLayers) -> Vec<Planned> {
    if !args.components.is_empty() {
        return args
            .components
            .iter()
            .map(|path| Planned {
                path: path.clone(),
                prefix: None,
                limits: layers.limits(None, None),
                cache_hint: args.settings.clone().over(file.settings.clone()).cache_hint(),
                instance_idle_timeout: args.settings.instance_idle_timeout.or(file.settings.instance_idle_timeout),
                sandbox: None,
                verify: None,
                section: String::new(),
            })
            .collect();
    }
    file.components
        .iter()
        .enumerate()
        .map(|(i, section)| {
            let name = format!("[[component]] #{} ({})", i + 1, section.path.display());
            Planned {
                path: section.path.clone(),
                prefix: section.name.clone(),
                limits: layers.limits(section.timeout, section.max_memory),
                // Flags, then the component's section, then the file's.
                cache_hint: ServeSettings {
                    cache_ttl: args.settings.cache_ttl.or(section.cache_ttl).or(file.settings.cache_ttl),
                    cache_scope: args.settings.cache_scope.or(section.cache_scope).or(file.settings.cache_scope),
                    ..ServeSettings::default()
                }
                .cache_hint(),
                instance_idle_timeout: args
                    .settings
                    .instance_idle_timeout
                    .or(section.instance_idle_timeout)
                    .or(file.settings.instance_idle_timeout),
                sandbox: Some(section.sandbox.clone()),
                verify: section.verify.clone(),
                section: format!("{name}: "),
            }
        })
        .collect()
}

/// Warns that `label`'s router describes OAuth (`described`) that an HTTP
/// server without authorization does not ask for. (Over stdio there is
/// nothing to say: a stdio server is never authenticated.)
fn warn_unprotected(label: &str, described: &[mcp_wit::auth::DescribedResource]) {
    let issuers: Vec<&str> = described.iter().flat_map(|d| &d.issuers).map(String::as_str).collect();
    let issuers = if issuers.is_empty() { "none named".to_string() } else { issuers.join(", ") };
    tracing::warn!(
        component = label,
        "the router expects OAuth (authorization server: {issuers}), but this server serves it without \
         authorization: --auth-issuer turns it on"
    );
}

/// A mount error with the flag that fixes it.
fn with_name_advice(error: MountError) -> anyhow::Error {
    let advice = match &error {
        MountError::BadPrefix { .. } => "; set one with --name FILE=PREFIX",
        MountError::Collision { .. } => "; give one of them another prefix with --name FILE=PREFIX",
        MountError::Empty => "",
    };
    anyhow::anyhow!("{error}{advice}")
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

/// A component on its way to being mounted: the prefix given it, if any,
/// and its router's own `name()` as its start-up check asked it (`None`:
/// not a router).
struct Mounting {
    given: Option<String>,
    component: LoadedRouter,
    router_name: Option<Result<String, mcp_wit::GuestFault>>,
    /// The check's instance, for the first session.
    spare: Option<mcp_wit::RouterInstance>,
}

/// Each component's prefix: the one given, else none for one served alone
/// and for a typed component whose tools no other typed component shares
/// (Wassette's names), else its name ([`default_prefix`]).
fn prefixed(mounted: Vec<Mounting>) -> anyhow::Result<Vec<(String, Mounting)>> {
    let single = mounted.len() == 1;
    let mut offered: HashMap<String, usize> = HashMap::new();
    for m in mounted.iter().filter(|m| m.given.is_none()) {
        for name in m.component.fixed_tool_names().iter().flat_map(|names| names.iter()) {
            *offered.entry(name.clone()).or_default() += 1;
        }
    }
    let bare = |component: &LoadedRouter| {
        component.fixed_tool_names().is_some_and(|names| names.iter().all(|name| offered[name] == 1))
    };
    mounted
        .into_iter()
        .map(|mut m| {
            let prefix = match m.given.take() {
                Some(prefix) => prefix,
                None if single || bare(&m.component) => String::new(),
                None => default_prefix(&m)?,
            };
            Ok((prefix, m))
        })
        .collect()
}

/// Each component labelled, in logs, metrics and traces, by the name its
/// clients know it by: its prefix when it has one (the parts of a composed
/// `serverInfo.name`), else its router's own name (`serverInfo.name`), else
/// (a typed component, a plugin, a server of its own) its file's stem.
fn named(mounted: Vec<(String, Mounting)>) -> Vec<(String, LoadedRouter)> {
    mounted
        .into_iter()
        .map(|(prefix, Mounting { component, router_name, spare, .. })| {
            let name = match prefix.is_empty() {
                false => Some(prefix.clone()),
                // One that cannot say is known by its file until a client
                // asks (and hears why).
                true => router_name.and_then(Result::ok),
            };
            match name {
                Some(name) if !name.is_empty() && name != component.label() => (prefix, component.with_label(name)),
                _ => {
                    // The check's instance writes its guest output under the
                    // label it was made with: kept only if that stays.
                    if let Some(spare) = spare {
                        component.keep_spare(spare);
                    }
                    (prefix, component)
                }
            }
        })
        .collect()
}

/// A component's prefix when none is given: its router name, made safe
/// (letters, digits and `-`): the one its start-up check asked, else (not a
/// router) asked of an instance made for it.
fn default_prefix(m: &Mounting) -> anyhow::Result<String> {
    let component = &m.component;
    let name = match &m.router_name {
        Some(asked) => asked.clone(),
        None => component.instantiate().and_then(|mut instance| instance.name()),
    }
    .map_err(|fault| anyhow::anyhow!("cannot ask `{}` for its name: {}", component.label(), fault.message))?;
    let prefix: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '-' }).collect();
    anyhow::ensure!(!prefix.is_empty(), "`{}` has an empty name(); give it a prefix with --name", component.label());
    Ok(prefix)
}
