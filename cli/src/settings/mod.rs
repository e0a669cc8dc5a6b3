//! The settings of `serve`, typed once: the flags and `mcp-wit.toml` fill
//! the same structs (every field optional), merged in one place
//! ([`ServeSettings::over`]), and every default comes from the library.

mod auth;
mod http;
mod limits;
mod serve;
mod tasks;
mod telemetry;
mod tool_checks;

pub use http::parse_addr;
pub use limits::LimitSettings;
pub use serve::{CacheScopeArg, ServeSettings};
pub use telemetry::MetricsSetting;
pub use tool_checks::ToolChecks;
