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
use mcp_wit_registry::{
    ComponentRef, ComponentSource, Credentials, PullPolicy, Pulled, Registry, RegistryOptions, Store, Trust, TrustRoot,
};

use crate::units;

/// The largest `--registry-ca` file read (a system's whole bundle of
/// authorities is some 200 KiB).
const MAX_CA_FILE: u64 = 4 << 20;

/// How components named by reference are fetched (every command that takes
/// a component). `mcp-wit.toml` takes the same keys at its top level, the
/// signature requirement as a component's (`verify = { key = … }`).
#[derive(clap::Args, Clone, Debug, Default, serde::Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct RegistryArgs {
    /// When to ask the registry about a component named by reference
    /// (`oci://REGISTRY/REPO:TAG`, `…@sha256:DIGEST`): `always`; `missing`
    /// (a digest pulled before is used offline, a tag is resolved at
    /// start); `never` (only what was pulled before) [default: missing].
    #[arg(long, value_enum, value_name = "WHEN")]
    pub pull: Option<PullArg>,
    /// Credentials for one registry, instead of the Docker config's
    /// (`docker login`): `REGISTRY=USER:PASSWORD` (or `…=USER:TOKEN`) for
    /// the registry named, or `USER:PASSWORD` for the one registry the
    /// components come from. No other registry gets them.
    #[arg(
        long,
        value_name = "[REGISTRY=]USER:PASSWORD",
        env = "MCP_WIT_REGISTRY_AUTH",
        hide_env_values = true,
        value_parser = Credentials::parse
    )]
    #[serde(deserialize_with = "credentials")]
    pub registry_auth: Option<Credentials>,
    /// A host a registry's token service may be on besides the registry's
    /// own (its `WWW-Authenticate: Bearer realm=…`), for credentials to be
    /// sent there; repeatable. Never over plain HTTP beyond this machine.
    #[arg(long, value_name = "HOST")]
    pub registry_token_host: Vec<String>,
    /// A registry reached over plain HTTP, as references write it
    /// (`127.0.0.1:5000`); repeatable. Loopback hosts only, unless
    /// --insecure-remote.
    #[arg(long, value_name = "HOST:PORT")]
    pub insecure_registry: Vec<String>,
    /// A certificate authority (PEM) to trust for registries' TLS besides
    /// the system's, e.g. a private registry's; repeatable.
    #[arg(long, value_name = "FILE")]
    pub registry_ca: Vec<PathBuf>,
    /// Allow --insecure-registry for hosts that are not this machine
    /// (credentials and components then cross the network unencrypted).
    #[arg(long)]
    pub insecure_remote: bool,
    /// How long one registry operation (a manifest, a blob) may take; reads
    /// are tried twice more on connection errors, timeouts and 5xx
    /// [default: 2m].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub registry_timeout: Option<Duration>,
    #[command(flatten)]
    pub verify: VerifySettings,
    /// Serve only components whose signatures satisfy a --verify-key or
    /// --verify-identity (or their component's `verify` in mcp-wit.toml,
    /// which adds to the flags' then and cannot replace them): an unsigned
    /// component, or a local file, is refused.
    #[arg(long)]
    pub require_signatures: bool,
}

/// Whose signature a component needs (flags, or `verify = { … }` of a
/// component in mcp-wit.toml). Checked on the digest that is served,
/// before it is loaded.
#[derive(clap::Args, Clone, Debug, Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct VerifySettings {
    /// Require a cosign signature by this public key (`cosign.pub`).
    #[arg(id = "verify_key", long = "verify-key", value_name = "FILE")]
    pub key: Option<PathBuf>,
    /// Require a keyless cosign signature by this identity (the
    /// certificate's e-mail or URI, exactly); with --verify-issuer.
    #[arg(id = "verify_identity", long = "verify-identity", value_name = "IDENTITY", requires = "verify_issuer")]
    pub identity: Option<String>,
    /// The OIDC issuer that vouched for --verify-identity, exactly (e.g.
    /// `https://token.actions.githubusercontent.com`).
    #[arg(id = "verify_issuer", long = "verify-issuer", value_name = "URL", requires = "verify_identity")]
    pub issuer: Option<String>,
    /// The Sigstore trust root of keyless signatures (`trusted_root.json`)
    /// [default: the public Sigstore instance's, pinned in mcp-wit].
    #[arg(id = "trust_root", long = "trust-root", value_name = "FILE")]
    pub trust_root: Option<PathBuf>,
}

impl VerifySettings {
    /// What it requires, if anything.
    pub fn trust(&self) -> anyhow::Result<Option<Trust>> {
        match (&self.key, &self.identity, &self.issuer) {
            (Some(_), Some(_), _) => anyhow::bail!("give a key or an identity to verify signatures with, not both"),
            (Some(key), None, _) => Ok(Some(Trust::key(key)?)),
            (None, Some(identity), Some(issuer)) => {
                let root = match &self.trust_root {
                    Some(path) => TrustRoot::from_file(path)?,
                    None => TrustRoot::public(),
                };
                Ok(Some(Trust::Identity { identity: identity.clone(), issuer: issuer.clone(), root }))
            }
            (None, Some(_), None) | (None, None, Some(_)) => {
                anyhow::bail!("a keyless signature is checked by its identity and its issuer: give both")
            }
            (None, None, None) => Ok(None),
        }
    }

    /// Whether it names whose signatures (a key or an identity).
    fn says_whose(&self) -> bool {
        self.key.is_some() || self.identity.is_some()
    }
}

/// `--registry-auth` in a file: the flag's text.
fn credentials<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Credentials>, D::Error> {
    let text = <Option<String> as serde::Deserialize>::deserialize(d)?;
    text.map(|text| Credentials::parse(&text)).transpose().map_err(serde::de::Error::custom)
}

/// `--pull`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
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
    /// These settings where given, `lower`'s elsewhere; lists add up, and a
    /// requirement of signatures holds if either says so. Whose signatures
    /// is taken whole, from the flags when they name a key or an identity.
    pub fn over(self, lower: RegistryArgs) -> RegistryArgs {
        RegistryArgs {
            pull: self.pull.or(lower.pull),
            registry_auth: self.registry_auth.or(lower.registry_auth),
            registry_token_host: [lower.registry_token_host, self.registry_token_host].concat(),
            insecure_registry: [lower.insecure_registry, self.insecure_registry].concat(),
            registry_ca: [lower.registry_ca, self.registry_ca].concat(),
            insecure_remote: self.insecure_remote || lower.insecure_remote,
            registry_timeout: self.registry_timeout.or(lower.registry_timeout),
            verify: match self.verify.says_whose() || self.verify.trust_root.is_some() {
                true => self.verify,
                false => lower.verify,
            },
            require_signatures: self.require_signatures || lower.require_signatures,
        }
    }

    /// The registry client for `reference`, keeping what it pulls under
    /// `cache_dir` (else the compile cache's default directory); the
    /// credentials given are for its registry when they name none.
    fn registry(&self, cache_dir: Option<&Path>, reference: &ComponentRef) -> anyhow::Result<Registry> {
        let dir = cache_dir.map(Path::to_path_buf).or_else(CompileCache::default_dir).context(
            "no directory to keep pulled components in (no home directory): set XDG_CACHE_HOME or pass --cache-dir",
        )?;
        let defaults = RegistryOptions::default();
        let mut extra_roots = Vec::new();
        for path in &self.registry_ca {
            let pem = mcp_wit_registry::read_regular_file(path, MAX_CA_FILE)
                .with_context(|| format!("cannot read --registry-ca {}", path.display()))?;
            anyhow::ensure!(
                pem.windows(27).any(|w| w == b"-----BEGIN CERTIFICATE-----"),
                "--registry-ca {}: not a PEM certificate (-----BEGIN CERTIFICATE-----)",
                path.display()
            );
            extra_roots.push(pem);
        }
        let options = RegistryOptions {
            insecure_registries: self.insecure_registry.clone(),
            insecure_remote: self.insecure_remote,
            credentials: self.registry_auth.as_ref().map(|given| given.bound_to(reference.registry())),
            token_hosts: self.registry_token_host.clone(),
            extra_roots,
            timeout: self.registry_timeout.unwrap_or(defaults.timeout),
            retries: defaults.retries,
            max_size: mcp_wit::runtime::MAX_GUEST_FILE,
        };
        Ok(Registry::new(Store::new(&dir), options)?)
    }

    /// Refuses credentials that name no registry when the components
    /// `given` come from several: which one they are for is not known, and
    /// the others must not get them.
    pub fn check_credentials_scope<'a>(&self, given: impl IntoIterator<Item = &'a Path>) -> anyhow::Result<()> {
        if self.registry_auth.as_ref().is_none_or(|given| given.registry().is_some()) {
            return Ok(());
        }
        let mut registries = std::collections::BTreeSet::new();
        for path in given {
            if let ComponentSource::Registry(reference) = ComponentSource::parse(&path.to_string_lossy())? {
                registries.insert(reference.registry().to_owned());
            }
        }
        if registries.len() > 1 {
            let names: Vec<_> = registries.into_iter().collect();
            anyhow::bail!(
                "--registry-auth (or MCP_WIT_REGISTRY_AUTH) names no registry, and the components come from {}: \
                 say which one it is for, --registry-auth REGISTRY=USER:PASSWORD (the others then use the Docker \
                 config's credentials, or none)",
                names.join(", ")
            );
        }
        Ok(())
    }

    /// Whose signatures a component must carry, every one of them: the
    /// flags' requirement, or its own section's in its place; under
    /// --require-signatures the flags' is a floor, and its own section adds
    /// to it instead (an mcp-wit.toml cannot lower what the command line
    /// requires).
    fn required_trusts(&self, own: Option<&VerifySettings>) -> anyhow::Result<Vec<Trust>> {
        let own = own.filter(|own| own.says_whose());
        let floor = match self.require_signatures {
            true => self.verify.trust()?,
            false => None,
        };
        let Some(floor) = floor else {
            return Ok(own.unwrap_or(&self.verify).trust()?.into_iter().collect());
        };
        let mut trusts = vec![floor];
        trusts.extend(own.map(VerifySettings::trust).transpose()?.flatten());
        Ok(trusts)
    }

    /// `reference` in the store, the registry asked as `--pull` says.
    async fn pull_with(&self, registry: &Registry, reference: &ComponentRef) -> anyhow::Result<Pulled> {
        let policy = self.pull.map(PullPolicy::from).unwrap_or_default();
        registry.pull(reference, policy).await.with_context(|| format!("cannot get {reference}"))
    }

    /// The component `given` names: a file as it is, a reference pulled (as
    /// `--pull` says) into the store under `cache_dir` and its signatures
    /// checked as the flags require. The digest a tag resolved to is logged.
    pub fn resolve(&self, given: &Path, cache_dir: Option<&Path>) -> anyhow::Result<Component> {
        self.resolve_checked(given, cache_dir, None)
    }

    /// [`Self::resolve`], with a component's own signature requirement
    /// (`own`, its mcp-wit.toml section's) over the flags'.
    pub fn resolve_checked(
        &self,
        given: &Path,
        cache_dir: Option<&Path>,
        own: Option<&VerifySettings>,
    ) -> anyhow::Result<Component> {
        let text = given.to_string_lossy();
        let trusts = self.required_trusts(own)?;
        let reference = match ComponentSource::parse(&text)? {
            ComponentSource::File(path) => return local(path, self.require_signatures || !trusts.is_empty()),
            ComponentSource::Registry(reference) => reference,
        };
        if self.require_signatures && trusts.is_empty() {
            anyhow::bail!(
                "{reference}: --require-signatures needs to know whose signatures: add --verify-key FILE or \
                 --verify-identity ID --verify-issuer URL (or `verify` in its mcp-wit.toml section)"
            );
        }
        let registry = self.registry(cache_dir, &reference)?;
        let (pulled, verified) = on_own_runtime(async {
            let pulled = self.pull_with(&registry, &reference).await?;
            // Checked on the digest pulled, before anything loads it.
            let mut verified = Vec::new();
            for trust in &trusts {
                verified.push(registry.verify(&pulled.pinned, trust).await?);
            }
            anyhow::Ok((pulled, verified))
        })?;
        for verified in verified {
            tracing::info!(reference = %pulled.pinned, signatures = verified.signatures, "verified: {}", verified.by);
        }
        // A fetch logs itself (`pulled`); a component from the store says so.
        if !pulled.fetched {
            tracing::info!(reference = %reference, digest = %pulled.digest, "from the local store");
        }
        Ok(Component { path: pulled.path, label: reference.short_name().to_owned(), pinned: Some(pulled.pinned) })
    }

    /// [`Self::resolve_checked`] for files alone: a reference is refused.
    /// What the serving executable resolves with: it links no registry
    /// client, and hands references to `mcp-wit serve` before it loads.
    pub fn resolve_file(
        &self,
        given: &Path,
        _cache_dir: Option<&Path>,
        own: Option<&VerifySettings>,
    ) -> anyhow::Result<Component> {
        match ComponentSource::parse(&given.to_string_lossy())? {
            ComponentSource::File(path) => local(path, self.names_signers(own)),
            ComponentSource::Registry(reference) => {
                anyhow::bail!("{reference}: this executable pulls no components; serve it with `mcp-wit serve`")
            }
        }
    }

    /// Whether a component must carry signatures: under
    /// --require-signatures, or when its section (`own`) or the flags say
    /// whose.
    fn names_signers(&self, own: Option<&VerifySettings>) -> bool {
        self.require_signatures || self.verify.says_whose() || own.is_some_and(VerifySettings::says_whose)
    }
}

/// The local file `path`, refused when signatures are `required`: a file
/// carries none.
fn local(path: PathBuf, required: bool) -> anyhow::Result<Component> {
    if required {
        anyhow::bail!(
            "{}: a local file carries no signature, and signatures are required (--require-signatures, \
             --verify-key or --verify-identity): push it and serve it by reference, or serve it without them",
            path.display()
        );
    }
    let label = path.file_stem().map_or_else(|| "guest".into(), |s| s.to_string_lossy().into_owned());
    Ok(Component { path, label, pinned: None })
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
    let registry = args.registry.registry(args.cache_dir.as_deref(), &reference)?;
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

#[derive(clap::Args)]
pub struct SignArgs {
    /// The component to sign, by reference (a tag is resolved to its digest
    /// first: the signature is over the digest).
    reference: String,
    /// The cosign private key (`mcp-wit keygen`, or `cosign
    /// generate-key-pair`); its password is `COSIGN_PASSWORD`, as for cosign.
    #[arg(long, value_name = "FILE")]
    key: PathBuf,
    #[command(flatten)]
    registry: RegistryArgs,
}

/// `mcp-wit sign`: a cosign signature by a key, pushed to the component's
/// `.sig` tag (as `cosign sign --key` does; earlier signatures stay).
pub fn sign(args: SignArgs) -> anyhow::Result<()> {
    let reference = ComponentRef::parse(&args.reference)?;
    let key = mcp_wit_registry::read_regular_file(&args.key, mcp_wit_registry::MAX_KEY_FILE)
        .with_context(|| format!("cannot read the key {}", args.key.display()))?;
    let password = std::env::var("COSIGN_PASSWORD").unwrap_or_default();
    // The digest the tag names now is what is signed.
    let flags = RegistryArgs { pull: Some(PullArg::Always), ..args.registry };
    let registry = flags.registry(None, &reference)?;
    let (pulled, tag) = on_own_runtime(async {
        let pulled = flags.pull_with(&registry, &reference).await?;
        let tag = registry.sign(&pulled.pinned, &key, password.as_bytes()).await?;
        anyhow::Ok((pulled, tag))
    })?;
    eprintln!("signed {} (signature at {tag})", pulled.pinned);
    println!("{}", pulled.pinned);
    Ok(())
}

#[derive(clap::Args)]
pub struct KeygenArgs {
    /// Where the pair goes: `PREFIX.key` (private, readable by its owner
    /// only) and `PREFIX.pub`, as cosign names them.
    #[arg(long, value_name = "PREFIX", default_value = "cosign")]
    output_key_prefix: PathBuf,
}

/// `mcp-wit keygen`: a key pair for `sign` and `--verify-key`, as `cosign
/// generate-key-pair` makes it (the private key encrypted with
/// `COSIGN_PASSWORD`). Existing files are never replaced.
pub fn keygen(args: KeygenArgs) -> anyhow::Result<()> {
    use std::io::Write;
    let with = |extension: &str| {
        let mut name = args.output_key_prefix.clone().into_os_string();
        name.push(extension);
        PathBuf::from(name)
    };
    let (private, public) = (with(".key"), with(".pub"));
    for path in [&private, &public] {
        anyhow::ensure!(
            !path.exists(),
            "{} exists: move it away, or choose another --output-key-prefix (a key is never replaced)",
            path.display()
        );
    }
    let password = std::env::var("COSIGN_PASSWORD").unwrap_or_default();
    let pair = mcp_wit_registry::generate_key_pair(password.as_bytes())?;
    let create = |path: &Path, mode: u32| {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
        #[cfg(not(unix))]
        let _ = mode;
        options.open(path).with_context(|| format!("cannot write {}", path.display()))
    };
    create(&private, 0o600)?.write_all(pair.private_pem.as_bytes())?;
    create(&public, 0o644)?.write_all(pair.public_pem.as_bytes())?;
    let protected = if password.is_empty() { "no password (COSIGN_PASSWORD was empty)" } else { "COSIGN_PASSWORD" };
    eprintln!(
        "wrote {} (private: sign with it, `mcp-wit sign REF --key {}`; its password is {protected}) and {} (public: \
         `--verify-key {}`)",
        private.display(),
        private.display(),
        public.display(),
        public.display()
    );
    Ok(())
}

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The component, by reference.
    reference: String,
    #[command(flatten)]
    registry: RegistryArgs,
}

/// `mcp-wit verify`: what a component's signatures prove. With
/// --verify-key or --verify-identity, whether they satisfy it (exit 1 if
/// not); without, each signature found.
pub fn verify(args: VerifyArgs) -> anyhow::Result<()> {
    let reference = ComponentRef::parse(&args.reference)?;
    let trust = args.registry.verify.trust()?;
    let registry = args.registry.registry(None, &reference)?;
    if let Some(trust) = trust {
        let (pulled, verified) = on_own_runtime(async {
            let pulled = args.registry.pull_with(&registry, &reference).await?;
            let verified = registry.verify(&pulled.pinned, &trust).await?;
            anyhow::Ok((pulled, verified))
        })?;
        println!("{}: verified: {} ({} signature(s) found)", pulled.pinned, verified.by, verified.signatures);
        return Ok(());
    }
    let root = match &args.registry.verify.trust_root {
        Some(path) => TrustRoot::from_file(path)?,
        None => TrustRoot::public(),
    };
    let (pulled, found) = on_own_runtime(async {
        let pulled = args.registry.pull_with(&registry, &reference).await?;
        let found = registry.signatures(&pulled.pinned, Some(&root)).await?;
        anyhow::Ok((pulled, found))
    })?;
    if found.is_empty() {
        anyhow::bail!("{}: not signed (no cosign signature for its digest)", pulled.pinned);
    }
    println!("{}: {} signature(s)", pulled.pinned, found.len());
    for signature in found {
        let logged = if signature.logged { ", in a transparency log" } else { "" };
        match signature.identity {
            Some((identity, issuer)) => {
                println!("  keyless: {identity} (issuer {}){logged}", issuer.as_deref().unwrap_or("none"))
            }
            None => println!("  by a key{logged} (check which with --verify-key FILE)"),
        }
    }
    println!("nothing was required of them: --verify-key or --verify-identity/--verify-issuer says whose to accept");
    Ok(())
}
