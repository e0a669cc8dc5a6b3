//! `mcp-wit serve`'s own flags; the settings it shares with other commands
//! are flattened in.

use std::path::PathBuf;

use crate::registry::RegistryArgs;
use crate::sandbox_args::SandboxArgs;
use crate::settings::ServeSettings;

#[derive(clap::Args, Clone)]
pub struct ServeArgs {
    /// The components (`.wasm` or `.cwasm`) exporting
    /// `wasix:mcp/router@25.3.26` or `@25.6.18`, or Extism plugins, as files
    /// or registry references (`oci://REGISTRY/REPO:TAG`, `…@sha256:…`);
    /// the built-in demo when omitted. Several are served as one server,
    /// each under a prefix.
    pub(super) components: Vec<PathBuf>,
    /// Read components, grants, limits and transport from this file
    /// (see docs/users/configuration.md); flags given here override it.
    #[arg(short = 'f', long = "file", value_name = "mcp-wit.toml")]
    pub(super) file: Option<PathBuf>,
    /// The prefix of a component when several are served (`FILE=PREFIX`,
    /// repeatable); default: the router's own `name()`.
    #[arg(long = "name", value_name = "FILE=PREFIX")]
    pub(super) names: Vec<String>,
    #[command(flatten)]
    pub(super) settings: ServeSettings,
    #[command(flatten)]
    pub(super) sandbox: SandboxArgs,
    #[command(flatten)]
    pub(super) registry: RegistryArgs,
    /// Reload when `mcp-wit.toml` or a served component's file changes, as
    /// on SIGHUP (checked every second). Over HTTP new sessions and requests
    /// get the new version; over stdio the client's session moves to it at
    /// once (the routers' state starts afresh) and hears which lists changed.
    #[arg(long)]
    pub(super) watch: bool,
}

impl ServeArgs {
    /// `--otlp-endpoint`: traces are set up with the logs, before anything
    /// else is read.
    pub fn otlp_endpoint(&self) -> Option<&str> {
        self.settings.telemetry.otlp_endpoint.as_deref()
    }
}
