//! Components named by registry reference: the flags every command that
//! takes a component shares ([`RegistryArgs`]), a reference resolved to a
//! file of the store before anything loads it ([`RegistryArgs::resolve`]),
//! and `mcp-wit pull` / `mcp-wit push`.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use anyhow::Context;

use mcp_wit::CompileCache;
use mcp_wit_registry::layout::Annotations;
use mcp_wit_registry::{ComponentRef, ComponentSource, Credentials, PullPolicy, Registry, RegistryOptions, Store};

use crate::units;

/// How components named by reference are fetched (every command that takes
/// a component).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RegistryArgs {
    /// When to ask the registry about a component named by reference
    /// (`oci://REGISTRY/REPO:TAG`, `…@sha256:DIGEST`): `always`; `missing`
    /// (a digest pulled before is used offline, a tag is resolved at
    /// start); `never` (only what was pulled before) [default: missing].
    #[arg(long, value_enum, value_name = "WHEN")]
    pub pull: Option<PullArg>,
    /// Credentials for the registries reached, instead of the Docker
    /// config's (`docker login`): `USER:PASSWORD` or `USER:TOKEN`.
    #[arg(
        long,
        value_name = "USER:PASSWORD",
        env = "MCP_WIT_REGISTRY_AUTH",
        hide_env_values = true,
        value_parser = Credentials::parse
    )]
    pub registry_auth: Option<Credentials>,
    /// A registry reached over plain HTTP, as references write it
    /// (`127.0.0.1:5000`); repeatable. Loopback hosts only, unless
    /// --insecure-remote.
    #[arg(long, value_name = "HOST:PORT")]
    pub insecure_registry: Vec<String>,
    /// Allow --insecure-registry for hosts that are not this machine
    /// (credentials and components then cross the network unencrypted).
    #[arg(long)]
    pub insecure_remote: bool,
    /// How long one registry operation (a manifest, a blob) may take; reads
    /// are tried twice more on connection errors, timeouts and 5xx
    /// [default: 2m].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    pub registry_timeout: Option<Duration>,
}

/// `--pull`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum PullArg {
    Always,
    Missing,
    Never,
}

impl From<PullArg> for PullPolicy {
    fn from(arg: PullArg) -> Self {
        match arg {
            PullArg::Always => PullPolicy::Always,
            PullArg::Missing => PullPolicy::Missing,
            PullArg::Never => PullPolicy::Never,
        }
    }
}

/// A component to load: its file, and the name logs and sandbox use.
#[derive(Debug, Clone)]
pub struct Component {
    /// The file: the one given, or the pulled one in the store.
    pub path: PathBuf,
    /// The file's stem, or the repository's last segment.
    pub label: String,
    /// The reference it was pulled by, pinned to its digest.
    pub pinned: Option<ComponentRef>,
}

impl RegistryArgs {
    /// The registry client, keeping what it pulls under `cache_dir` (else
    /// the compile cache's default directory).
    fn registry(&self, cache_dir: Option<&Path>) -> anyhow::Result<Registry> {
        let dir = cache_dir.map(Path::to_path_buf).or_else(CompileCache::default_dir).context(
            "no directory to keep pulled components in (no home directory): set XDG_CACHE_HOME or pass --cache-dir",
        )?;
        let defaults = RegistryOptions::default();
        let options = RegistryOptions {
            insecure_registries: self.insecure_registry.clone(),
            insecure_remote: self.insecure_remote,
            credentials: self.registry_auth.clone(),
            timeout: self.registry_timeout.unwrap_or(defaults.timeout),
            retries: defaults.retries,
            max_size: mcp_wit::runtime::MAX_GUEST_FILE,
        };
        Ok(Registry::new(Store::new(&dir), options)?)
    }

    /// The component `given` names: a file as it is, a reference pulled (as
    /// `--pull` says) into the store under `cache_dir`. The digest a tag
    /// resolved to is logged.
    pub fn resolve(&self, given: &Path, cache_dir: Option<&Path>) -> anyhow::Result<Component> {
        let text = given.to_string_lossy();
        let reference = match ComponentSource::parse(&text)? {
            ComponentSource::File(path) => {
                let label = path.file_stem().map_or_else(|| "guest".into(), |s| s.to_string_lossy().into_owned());
                return Ok(Component { path, label, pinned: None });
            }
            ComponentSource::Registry(reference) => reference,
        };
        let registry = self.registry(cache_dir)?;
        let policy = self.pull.map(PullPolicy::from).unwrap_or_default();
        let pulled =
            on_own_runtime(registry.pull(&reference, policy)).with_context(|| format!("cannot get {reference}"))?;
        // A fetch logs itself (`pulled`); a component from the store says so.
        if !pulled.fetched {
            tracing::info!(reference = %reference, digest = %pulled.digest, "from the local store");
        }
        Ok(Component { path: pulled.path, label: reference.short_name().to_owned(), pinned: Some(pulled.pinned) })
    }
}

/// Runs `future` on a runtime of its own, on a thread of its own: callers
/// are plain threads, a server's blocking tasks, or none of those.
fn on_own_runtime<T: Send>(future: impl Future<Output = T> + Send) -> T {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime for registry requests");
                runtime.block_on(future)
            })
            .join()
            .expect("the registry thread does not panic")
    })
}

#[derive(clap::Args)]
pub struct PullArgs {
    /// The component: `oci://REGISTRY/REPO:TAG` or `…@sha256:DIGEST`.
    reference: String,
    /// Where the store and the compile cache are [default: the compile
    /// cache's directory].
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    #[command(flatten)]
    registry: RegistryArgs,
}

/// `mcp-wit pull`: fetches a component into the store, compiles it into
/// the compile cache (so the first `serve` starts at once), and prints the
/// reference pinned to its digest.
pub fn pull(args: PullArgs) -> anyhow::Result<()> {
    let reference = ComponentRef::parse(&args.reference)?;
    let registry = RegistryArgs { pull: Some(args.registry.pull.unwrap_or(PullArg::Always)), ..args.registry };
    let component = registry.resolve(Path::new(&format!("oci://{reference}")), args.cache_dir.as_deref())?;
    let pinned = component.pinned.expect("a reference resolves to a pinned one");
    eprintln!("pulled {reference} into {}", component.path.display());
    if let Err(e) = crate::build::compile_into_cache(&component.path, args.cache_dir, "pulled") {
        eprintln!("warning: {e:#}");
    }
    println!("{pinned}");
    Ok(())
}

#[derive(clap::Args)]
pub struct PushArgs {
    /// The component (`.wasm`) or Extism plugin to publish.
    file: PathBuf,
    /// Where: `oci://REGISTRY/REPO:TAG` (or without `oci://`).
    reference: String,
    /// `org.opencontainers.image.title` [default: the file's stem].
    #[arg(long)]
    title: Option<String>,
    /// `org.opencontainers.image.version`.
    #[arg(long)]
    version: Option<String>,
    /// `org.opencontainers.image.source`: where its code is (a URL).
    #[arg(long, value_name = "URL")]
    source: Option<String>,
    /// `org.opencontainers.image.description`.
    #[arg(long)]
    description: Option<String>,
    /// Where the store is [default: the compile cache's directory].
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    #[command(flatten)]
    registry: RegistryArgs,
}

/// `mcp-wit push`: publishes a component in the Wasm OCI layout and prints
/// the reference pinned to its digest. Its creation time is
/// `SOURCE_DATE_EPOCH`, else the file's modification time, so the same
/// file pushed twice is the same artifact.
pub fn push(args: PushArgs) -> anyhow::Result<()> {
    let reference = ComponentRef::parse(&args.reference)?;
    let wasm = mcp_wit::runtime::read_guest_file(&args.file)?;
    let created = creation_time(&args.file)?;
    let annotations = Annotations {
        title: args.title.or_else(|| args.file.file_stem().map(|s| s.to_string_lossy().into_owned())),
        version: args.version,
        source: args.source,
        description: args.description,
    };
    let registry = args.registry.registry(args.cache_dir.as_deref())?;
    let pushed = on_own_runtime(registry.push(&wasm, &reference, Some(created), &annotations))
        .with_context(|| format!("cannot push {} to {reference}", args.file.display()))?;
    eprintln!("pushed {} ({} bytes) to {reference}", args.file.display(), wasm.len());
    println!("{}", pushed.pinned);
    Ok(())
}

/// RFC 3339, from `SOURCE_DATE_EPOCH` (reproducible builds' convention) or
/// the file's modification time.
fn creation_time(file: &Path) -> anyhow::Result<String> {
    let time = match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(seconds) => {
            let seconds: u64 = seconds.trim().parse().context("SOURCE_DATE_EPOCH is not a number of seconds")?;
            SystemTime::UNIX_EPOCH + Duration::from_secs(seconds)
        }
        Err(_) => std::fs::metadata(file)
            .and_then(|m| m.modified())
            .with_context(|| format!("cannot read {}", file.display()))?,
    };
    Ok(humantime::format_rfc3339_seconds(time).to_string())
}
