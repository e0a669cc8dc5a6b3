//! [`LimitSettings`]: what one guest may take, and where compiled code is
//! kept; `serve`, `call` and `inspect` take the same flags.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use mcp_wit::runtime::limits::{DEFAULT_MAX_MEMORY, DEFAULT_TIMEOUT};
use mcp_wit::{CompileCache, Limits};

use crate::units;

/// A guest's limits and the compile cache (top-level keys in
/// `mcp-wit.toml`; `timeout` and `max-memory` also per component).
#[derive(clap::Args, Debug, Default, Clone, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct LimitSettings {
    /// Wall-clock budget of one guest call (e.g. `30s`, `500ms`); on expiry
    /// the caller gets -32603 and the instance is replaced [default: 30s].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(deserialize_with = "units::duration")]
    pub timeout: Option<Duration>,
    /// Memory cap of one guest instance (e.g. `256MiB`); growing past it
    /// traps [default: 256MiB].
    #[arg(long, value_name = "SIZE", value_parser = units::parse_size)]
    #[serde(deserialize_with = "units::size")]
    pub max_memory: Option<usize>,
    /// Largest result a guest may return (e.g. `16MiB`); a larger one is
    /// replaced by -32603 [default: 16MiB].
    #[arg(long, value_name = "SIZE", value_parser = units::parse_size)]
    #[serde(deserialize_with = "units::size")]
    pub max_output: Option<usize>,
    /// Where compiled components are cached [default: the user cache
    /// directory, e.g. ~/.cache/mcp-wit].
    #[arg(long, value_name = "DIR", env = "MCP_WIT_CACHE_DIR", hide_env_values = true)]
    pub cache_dir: Option<PathBuf>,
    /// Compile without reading or writing the cache.
    #[arg(long, value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub no_cache: Option<bool>,
}

impl LimitSettings {
    /// These settings where given, `lower`'s elsewhere.
    pub fn over(self, lower: LimitSettings) -> LimitSettings {
        LimitSettings {
            timeout: self.timeout.or(lower.timeout),
            max_memory: self.max_memory.or(lower.max_memory),
            max_output: self.max_output.or(lower.max_output),
            cache_dir: self.cache_dir.or(lower.cache_dir),
            no_cache: self.no_cache.or(lower.no_cache),
        }
    }

    /// One guest's limits, defaults where none is given.
    pub fn limits(&self) -> Limits {
        Limits {
            timeout: self.timeout.unwrap_or(DEFAULT_TIMEOUT),
            max_memory: self.max_memory.unwrap_or(DEFAULT_MAX_MEMORY),
        }
    }

    /// The compile cache they name: none under `no-cache`, else the
    /// directory given or the user's cache directory.
    pub fn cache(&self) -> Option<CompileCache> {
        match (&self.cache_dir, self.no_cache.unwrap_or(false)) {
            (_, true) => None,
            (Some(dir), false) => Some(CompileCache::new(dir)),
            (None, false) => CompileCache::default_dir().map(CompileCache::new),
        }
    }
}
