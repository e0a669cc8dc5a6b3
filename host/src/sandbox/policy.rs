//! [`SandboxPolicy`]: what a component's guests may reach, and the WASI
//! each of its instances gets from it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use wasmtime_wasi::{FsPerms, WasiCtxBuilder};

use super::guest_output::{GuestOutput, OutputTarget};
use super::outgoing_http::HttpGrant;
#[cfg(feature = "outgoing-http")]
use super::outgoing_http::OutgoingHttp;
use super::state::{SandboxState, Wasi};
use crate::redact::Redactor;

/// What a component's guests are allowed to reach.
///
/// Built with [`SandboxPolicy::builder`]; the default grants nothing.
/// Its `Debug` output names variables but never shows their values (they
/// may be secrets).
#[derive(Clone)]
pub struct SandboxPolicy {
    label: Arc<str>,
    output: OutputTarget,
    env: Vec<(String, String)>,
    dirs: Vec<DirGrant>,
    http: Arc<[HttpGrant]>,
    /// Secret values: masked wherever the guest's output goes (the log,
    /// and a panic message quoted to the client).
    redact: Arc<Redactor>,
}

impl std::fmt::Debug for SandboxPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SandboxPolicy")
            .field("label", &self.label)
            .field("output", &self.output)
            .field("env", &self.env.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>())
            .field("dirs", &self.dirs)
            .field("http", &self.http.iter().map(ToString::to_string).collect::<Vec<_>>())
            .field("secrets", &self.redact.secrets().len())
            .finish()
    }
}

/// A host directory made visible to the guest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirGrant {
    /// The directory on the host.
    pub host: PathBuf,
    /// Where the guest sees it (an absolute path such as `/data`).
    pub guest: String,
    /// Whether the guest may only read.
    pub read_only: bool,
}

impl std::str::FromStr for DirGrant {
    type Err = String;

    /// Parses `HOST[:GUEST][:ro|:rw]`: the guest path defaults to the host
    /// path, the mode to `rw`. Nothing else is read as a mode: a grant that
    /// widens by a typo (`:RO`, `:readonly`, `:rw:extra`) is refused, and so
    /// is a guest path that is not absolute (it would be a mode misspelt).
    fn from_str(spec: &str) -> Result<Self, String> {
        const FORM: &str = "expected HOST[:GUEST][:ro|:rw], GUEST an absolute path";
        let parts: Vec<&str> = spec.split(':').collect();
        let mode = |word: &str| match word {
            "ro" => Ok(true),
            "rw" => Ok(false),
            other => Err(format!("`{spec}`: unknown mode `{other}` (the mode is `ro` or `rw`, lower case; {FORM})")),
        };
        let (host, guest, read_only) = match parts[..] {
            [host] => (host, host, false),
            [host, word @ ("ro" | "rw")] => (host, host, mode(word)?),
            [host, guest] if guest.starts_with('/') => (host, guest, false),
            [_, word] => {
                return Err(format!(
                    "`{spec}`: `{word}` is neither a mode (`ro`, `rw`) nor an absolute guest path ({FORM})"
                ));
            }
            [host, guest, word] if guest.starts_with('/') => (host, guest, mode(word)?),
            [_, guest, _] => return Err(format!("`{spec}`: the guest path `{guest}` is not absolute ({FORM})")),
            _ => {
                return Err(format!(
                    "`{spec}`: too many `:` (a guest path cannot hold one, and nothing follows the mode; {FORM})"
                ));
            }
        };
        if host.is_empty() || guest.is_empty() {
            return Err(format!("`{spec}`: the host or guest path is empty ({FORM})"));
        }
        Ok(DirGrant { host: PathBuf::from(host), guest: guest.to_string(), read_only })
    }
}

impl SandboxPolicy {
    /// Starts a policy for the component named `label` (used to prefix its output).
    pub fn builder(label: impl Into<Arc<str>>) -> SandboxPolicyBuilder {
        SandboxPolicyBuilder {
            policy: SandboxPolicy {
                label: label.into(),
                output: OutputTarget::Stderr,
                env: Vec::new(),
                dirs: Vec::new(),
                http: Arc::from([]),
                redact: Arc::default(),
            },
            secrets: Vec::new(),
        }
    }

    /// The label the guest's output lines are prefixed with.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The same policy under another label.
    pub fn with_label(mut self, label: impl Into<Arc<str>>) -> Self {
        self.label = label.into();
        self
    }

    /// The environment variables granted to the guest.
    pub fn env(&self) -> &[(String, String)] {
        &self.env
    }

    /// The directories granted to the guest.
    pub fn dirs(&self) -> &[DirGrant] {
        &self.dirs
    }

    /// The destinations the guest may send HTTP requests to.
    pub fn http(&self) -> &[HttpGrant] {
        &self.http
    }

    /// Creates the per-instance state that the guest's WASI imports act on.
    ///
    /// `max_wait` caps how long one host call on the guest's behalf (an
    /// outgoing HTTP request) may wait: the call's deadline.
    pub fn instance_state(&self, max_wait: Duration) -> std::io::Result<SandboxState> {
        let output = GuestOutput::new(self.label.clone(), self.output, self.redact.clone());
        let wasi = Wasi::P2(self.wasi(&output)?.build());
        Ok(self.state(wasi, output, max_wait))
    }

    /// [`Self::instance_state`] for a command that serves MCP over its
    /// stdin and stdout: the same grants, its stdin and stdout the host's
    /// pipes (its stderr still the guest output).
    pub fn command_state(
        &self,
        max_wait: Duration,
        stdin: impl wasmtime_wasi::cli::StdinStream + 'static,
        stdout: impl wasmtime_wasi::cli::StdoutStream + 'static,
    ) -> std::io::Result<SandboxState> {
        let output = GuestOutput::new(self.label.clone(), self.output, self.redact.clone());
        let mut wasi = self.wasi(&output)?;
        wasi.stdin(stdin).stdout(stdout);
        Ok(self.state(Wasi::P2(wasi.build()), output, max_wait))
    }

    /// [`Self::instance_state`] for an Extism plugin: the same grants, as
    /// WASI preview 1.
    #[cfg(feature = "extism")]
    pub fn plugin_state(&self, max_wait: Duration) -> std::io::Result<SandboxState> {
        let output = GuestOutput::new(self.label.clone(), self.output, self.redact.clone());
        let wasi = Wasi::P1(Box::new(self.wasi(&output)?.build_p1()));
        Ok(self.state(wasi, output, max_wait))
    }

    fn state(&self, wasi: Wasi, output: GuestOutput, max_wait: Duration) -> SandboxState {
        // Only outgoing HTTP has host-side waits of its own to cap.
        #[cfg(not(feature = "outgoing-http"))]
        let _ = max_wait;
        SandboxState::new(
            wasi,
            output,
            #[cfg(feature = "outgoing-http")]
            OutgoingHttp::new(self.label.clone(), self.http.clone(), max_wait),
        )
    }

    /// WASI with the policy's grants: environment, directories, output, no
    /// network.
    fn wasi(&self, output: &GuestOutput) -> std::io::Result<WasiCtxBuilder> {
        let mut wasi = WasiCtxBuilder::new();
        wasi.stdout(output.stream("stdout"))
            .stderr(output.stream("stderr"))
            .envs(&self.env)
            // No network unless a later grant opens it.
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false);
        for dir in &self.dirs {
            let perms = if dir.read_only { FsPerms::ReadOnly } else { FsPerms::ReadWrite };
            wasi.preopened_dir(&dir.host, &dir.guest, perms).map_err(|e| {
                std::io::Error::other(format!("cannot open granted directory {}: {e}", dir.host.display()))
            })?;
        }
        Ok(wasi)
    }
}

/// Configures a [`SandboxPolicy`].
#[derive(Debug)]
pub struct SandboxPolicyBuilder {
    policy: SandboxPolicy,
    /// The secret values to mask, made into one matcher by [`Self::build`].
    secrets: Vec<String>,
}

impl SandboxPolicyBuilder {
    /// Where the guest's stdout and stderr go (default: the host's stderr).
    pub fn guest_output(mut self, target: OutputTarget) -> Self {
        self.policy.output = target;
        self
    }

    /// Grants the environment variable `key` with `value`.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.policy.env.push((key.into(), value.into()));
        self
    }

    /// Grants the environment variable `key` with the secret `value`:
    /// wherever the guest's output goes (the log, a panic message quoted to
    /// the client) the value is masked as `[redacted]`. Values shorter than
    /// [`MIN_REDACTED`](super::MIN_REDACTED) bytes are granted but not masked: masking them would
    /// garble every line they occur in by chance.
    pub fn secret(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        let value = value.into();
        self.secrets.push(value.clone());
        self.env(key, value)
    }

    /// Grants a host directory.
    pub fn dir(mut self, grant: DirGrant) -> Self {
        self.policy.dirs.push(grant);
        self
    }

    /// Allows outgoing HTTP requests to `grant`'s host and port.
    pub fn allow_http(mut self, grant: HttpGrant) -> Self {
        let mut grants = self.policy.http.to_vec();
        grants.push(grant);
        self.policy.http = grants.into();
        self
    }

    /// Finishes the policy.
    pub fn build(mut self) -> SandboxPolicy {
        // One matcher for all of them (the short ones are left out there).
        if !self.secrets.is_empty() {
            self.policy.redact = Arc::new(Redactor::new(self.secrets));
        }
        self.policy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_dir_grants() {
        let g: DirGrant = "/srv/data".parse().unwrap();
        assert_eq!((g.host.to_str().unwrap(), g.guest.as_str(), g.read_only), ("/srv/data", "/srv/data", false));
        let g: DirGrant = "/srv/data:/data:ro".parse().unwrap();
        assert_eq!((g.host.to_str().unwrap(), g.guest.as_str(), g.read_only), ("/srv/data", "/data", true));
        let g: DirGrant = "/srv/data:/data:rw".parse().unwrap();
        assert_eq!((g.host.to_str().unwrap(), g.guest.as_str(), g.read_only), ("/srv/data", "/data", false));
        let g: DirGrant = "/srv/data:/data".parse().unwrap();
        assert_eq!((g.host.to_str().unwrap(), g.guest.as_str(), g.read_only), ("/srv/data", "/data", false));
        let g: DirGrant = "./x:ro".parse().unwrap();
        assert_eq!((g.host.to_str().unwrap(), g.guest.as_str(), g.read_only), ("./x", "./x", true));
        assert!(":/data".parse::<DirGrant>().is_err());
    }

    /// Typos that once mounted read-write.
    #[test]
    fn a_mistyped_mode_is_refused_not_widened() {
        for spec in [
            "/host/jail:/data:RO",
            "/host/jail:/data:readonly",
            "/host/jail:/data:rw:extra",
            "/host/jail:/data:ro:",
            "/host/jail:RO",
            "/host/jail:readonly",
            "/host/jail:Ro",
            "/host/jail:data:ro",
            "/host/jail:/da:ta",
            "/host/jail:/data:",
        ] {
            let refused = spec.parse::<DirGrant>().expect_err(spec);
            assert!(refused.contains(spec) && refused.contains("ro"), "{spec}: {refused}");
        }
        let unknown = "/host/jail:/data:RO".parse::<DirGrant>().unwrap_err();
        assert!(unknown.contains("unknown mode `RO`"), "{unknown}");
    }
}
