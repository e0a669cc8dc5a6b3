//! What the protocol core asks of a loaded router
//! ([`mcp_wit_protocol::RouterComponent`]): its label, a way to open it,
//! and what kind of serving it needs.

use mcp_wit_protocol::CacheHint;

use super::code::Code;
use super::instance::RouterExports;
use super::loaded_router::LoadedRouter;
#[cfg(feature = "extism")]
use super::plugin;
use super::pool::PooledRouter;

impl mcp_wit_protocol::RouterComponent for LoadedRouter {
    type Router = PooledRouter;

    fn label(&self) -> &str {
        self.inner.policy.label()
    }

    fn open(&self) -> PooledRouter {
        PooledRouter::new(self.clone())
    }

    fn cache_hint(&self) -> CacheHint {
        self.inner.cache_hint
    }

    fn talks_back(&self) -> bool {
        match &self.inner.code {
            // A 25.6.18 router asks the user by returning `elicit`.
            Code::Component { imports, blocking, .. } => {
                imports.client || matches!(blocking.exports, RouterExports::V25_6_18(_))
            }
            Code::Typed { .. } => false,
            Code::McpServer { .. } => false,
            #[cfg(feature = "extism")]
            Code::Plugin { linked, .. } => linked.talks_back,
        }
    }

    fn fixed_tool_names(&self) -> Option<std::sync::Arc<[String]>> {
        LoadedRouter::fixed_tool_names(self)
    }

    fn extends(&self) -> bool {
        match &self.inner.code {
            Code::Component { blocking, .. } => blocking.optional.extension.is_some(),
            // Templates, prompt arguments and roots changes reach it as MCP.
            Code::McpServer { .. } => true,
            Code::Typed { .. } => false,
            // Templates, prompt arguments and roots changes are v1-draft exports.
            #[cfg(feature = "extism")]
            Code::Plugin { linked, .. } => linked.kind == plugin::PluginKind::V1Draft,
        }
    }
}
