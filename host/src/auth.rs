//! Who may call what: the scope rules an HTTP server with authorization
//! applies to each operation (see `HttpOptions`, feature `http`), and what a
//! router says of the authorization it expects
//! ([`RouterInstance::described_authorization`](crate::RouterInstance::described_authorization)).

pub use mcp_wit_protocol::auth::DescribedResource;
#[cfg(feature = "http")]
pub use mcp_wit_protocol::auth::{Caller, Operation, OperationKind, ScopePolicy, ScopeRule, parse_scope_rule};
