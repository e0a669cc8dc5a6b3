//! [`ToolChecks`]: what the host checks of the tools it serves, and the
//! check itself, made once per component before it is served.

use std::time::Duration;

use serde::Deserialize;

use mcp_wit::CompileCache;
use mcp_wit::auth::DescribedResource;

use crate::units;

/// The check whose passes [`ToolChecks::check`] notes in the compile cache:
/// a tool's input and output schemas compile as JSON Schema.
const SCHEMAS_CHECK: &str = "tool schemas compile";

/// What the host checks of the tools it serves (also for `inspect` and
/// `call`).
#[derive(clap::Args, Debug, Default, Clone, Copy, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct ToolChecks {
    /// Pass tool arguments to the guest unchecked; by default they are
    /// checked against the tool's input schema first, and a failed check is
    /// a tool error naming why.
    #[arg(long, value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub no_validate_input: Option<bool>,
    /// Serve tools whose input or output schema is not valid JSON Schema
    /// (with a warning; their calls go unchecked); by default such a tool
    /// stops the start, naming it and the schema's error.
    #[arg(long, value_name = "true|false", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub allow_invalid_schemas: Option<bool>,
    /// How long checking one call's arguments against its tool's input
    /// schema may take (e.g. `500ms`), waiting for a checking thread
    /// included; past it the call is refused with a tool error saying so,
    /// and its tool does not run [default: 1s].
    #[arg(long, value_name = "DURATION", value_parser = units::parse_duration)]
    #[serde(default, deserialize_with = "units::duration")]
    pub validation_timeout: Option<Duration>,
}

impl ToolChecks {
    /// These where given, `lower`'s elsewhere.
    pub fn over(self, lower: ToolChecks) -> ToolChecks {
        ToolChecks {
            no_validate_input: self.no_validate_input.or(lower.no_validate_input),
            allow_invalid_schemas: self.allow_invalid_schemas.or(lower.allow_invalid_schemas),
            validation_timeout: self.validation_timeout.or(lower.validation_timeout),
        }
    }

    /// How long one call's argument check may take.
    pub fn validation_budget(&self) -> Duration {
        self.validation_timeout.unwrap_or(mcp_wit::DEFAULT_VALIDATION_BUDGET)
    }

    /// Whether arguments are checked before the guest runs.
    pub fn validate_input(&self) -> bool {
        !self.no_validate_input.unwrap_or(false)
    }

    /// Lists `component`'s tools once, then warns about the config and
    /// secrets they need that were not granted, refuses a tool whose
    /// `_meta.ui` (MCP Apps) is malformed, and refuses (or, with
    /// `--allow-invalid-schemas`, warns about) schemas that are not valid
    /// JSON Schema. Returns what the router describes of the authorization
    /// it expects, asked of the same instance.
    /// A tool whose schemas passed before (noted in `cache`, by this build)
    /// is not compiled again: most of what a cached start would spend here.
    pub fn check(&self, component: &mcp_wit::LoadedRouter, cache: Option<&CompileCache>) -> anyhow::Result<Checked> {
        let label = component.label();
        let mut instance = component
            .instantiate()
            .map_err(|fault| anyhow::anyhow!("cannot list the tools of `{label}`: {}", fault.message))?;
        let tools = instance
            .list_tools()
            .map_err(|fault| anyhow::anyhow!("cannot list the tools of `{label}`: {}", fault.message))?;
        // Advice only: a router that cannot say is served as one that says
        // nothing (its `initialize` will tell of a broken `describe-server`).
        let described = instance.described_authorization().unwrap_or_else(|fault| {
            tracing::warn!(component = label, "cannot read the authorization the router describes: {}", fault.message);
            Vec::new()
        });
        // Its name (a label for logs and metrics, a default prefix), asked of
        // the same instance rather than of one made for it alone.
        let router_name = component.router_interface().map(|_| instance.name());
        report_requirements(component, &tools);
        for tool in &tools {
            // What `tools/list` would leave out, refused at the start instead.
            if let Some(why) = mcp_wit::tool_ui_error(tool) {
                anyhow::bail!(
                    "`{label}`: tool `{}` cannot be served: {why} (MCP Apps). Fix its `_meta.ui` in the router",
                    tool.name
                );
            }
        }
        for tool in &tools {
            // One part per schema the tool has: no output schema and an
            // empty one are not the same material.
            let input = tool.input_schema.json.as_bytes();
            let material: Vec<&[u8]> = match &tool.output_schema {
                Some(output) => vec![input, output.json.as_bytes()],
                None => vec![input],
            };
            if cache.is_some_and(|cache| cache.passed(SCHEMAS_CHECK, &material)) {
                continue;
            }
            let Err(error) = mcp_wit::ToolSchemas::of(tool) else {
                if let Some(cache) = cache {
                    cache.mark_passed(SCHEMAS_CHECK, &material);
                }
                continue;
            };
            if self.allow_invalid_schemas.unwrap_or(false) {
                tracing::warn!(component = label, "{error}; its calls go unchecked");
            } else {
                anyhow::bail!(
                    "`{label}`: {error}. Fix the schema in the router, or pass --allow-invalid-schemas to serve the \
                     tool unchecked"
                );
            }
        }
        Ok(Checked { authorization: described, router_name, instance })
    }
}

/// What [`ToolChecks::check`] learnt of a component, asked of one instance.
pub struct Checked {
    /// The authorization its router describes.
    pub authorization: Vec<DescribedResource>,
    /// Its router's own `name()`, or why it could not say, when it is a
    /// router.
    pub router_name: Option<Result<String, mcp_wit::GuestFault>>,
    /// The instance asked, which served no client: a session may have it
    /// ([`mcp_wit::LoadedRouter::keep_spare`]).
    pub instance: mcp_wit::RouterInstance,
}

/// Warns (naming tool and key) about each config or secret a tool needs that
/// was not supplied; the other tools are served regardless.
fn report_requirements(component: &mcp_wit::LoadedRouter, tools: &[mcp_wit::contract::Tool]) {
    use mcp_wit::sandbox::requirements::{self, RequirementKind};
    let declared = requirements::declared_by(tools);
    let supplied: Vec<&str> = component.policy().env().iter().map(|(k, _)| k.as_str()).collect();
    for missing in requirements::missing(&declared, &supplied) {
        let flag = match missing.kind {
            RequirementKind::Config => format!("--config {}=VALUE", missing.key),
            RequirementKind::Secret => format!("--secret {}", missing.key),
        };
        if missing.required {
            tracing::warn!(component = component.label(), "missing: {missing}; pass {flag}");
        } else {
            tracing::debug!(component = component.label(), "not supplied: {missing}; pass {flag}");
        }
    }
}
