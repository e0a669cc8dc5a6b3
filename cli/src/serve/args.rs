//! `mcp-wit serve`'s own flags; the settings it shares with other commands
//! are flattened in.

use std::path::PathBuf;

use crate::config_file::{ConfigFile, Logging};
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
    pub(crate) components: Vec<PathBuf>,
    /// Read components, grants, limits and transport from this file
    /// (see docs/users/configuration.md); flags given here override it.
    #[arg(short = 'f', long = "file", value_name = "mcp-wit.toml")]
    pub(crate) file: Option<PathBuf>,
    /// The prefix of a component when several are served (`FILE=PREFIX`,
    /// repeatable); default: the router's own `name()`.
    #[arg(long = "name", value_name = "FILE=PREFIX")]
    pub(super) names: Vec<String>,
    #[command(flatten)]
    pub(crate) settings: ServeSettings,
    #[command(flatten)]
    pub(super) sandbox: SandboxArgs,
    #[command(flatten)]
    pub(super) registry: RegistryArgs,
}

impl ServeArgs {
    /// What `mcp-wit.toml` says of logging and traces (`--otlp-endpoint`
    /// given here over it), which start before anything else is read.
    pub fn logging(&self) -> Logging {
        self.logging_over(self.file.as_deref().map(ConfigFile::logging).unwrap_or_default())
    }

    /// As [`Self::logging`], from what the file says (`logging`).
    pub fn logging_over(&self, mut logging: Logging) -> Logging {
        if let Some(endpoint) = &self.settings.telemetry.otlp_endpoint {
            logging.otlp_endpoint = Some(endpoint.clone());
        }
        logging
    }
}
