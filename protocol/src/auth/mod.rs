//! Who calls, and what they may do: the identity an access token carries
//! ([`Caller`]) and the scopes each operation needs ([`ScopePolicy`]).
//!
//! A transport that authenticates requests (the host's HTTP resource
//! server, the component-side adapter) validates the token and hands the
//! session its [`Caller`]; this module holds the rules, so every transport,
//! the sessions and the routers read them the same way. With the `auth`
//! feature it holds the resource server's too: what a token must be
//! ([`TokenRules`]), the keys it is verified with ([`parse_jwks`]), and the
//! wire of its refusals ([`ResourceMetadata`], [`AuthRefusal`]). Finding
//! and keeping keys stays with each transport. What a router says of the
//! authorization it expects ([`DescribedResource`]) is advice checked
//! against all that, never a rule.

mod caller;
#[cfg(feature = "auth")]
mod jwks;
#[cfg(feature = "auth")]
mod resource;
mod scopes;
#[cfg(feature = "auth")]
mod token;

pub use caller::{Caller, SharedCaller};
#[cfg(feature = "auth")]
pub use jsonwebtoken::Algorithm;
#[cfg(feature = "auth")]
pub use jwks::{VerifyingKey, find_key, parse_jwks};
#[cfg(feature = "auth")]
pub use resource::{AuthRefusal, METADATA_PATH, RefusalKind, ResourceMetadata, bearer_token, check_scopes};
pub use scopes::{DescribedResource, Operation, OperationKind, ScopePolicy, ScopeRule, parse_scope_rule};
#[cfg(feature = "auth")]
pub use token::{DEFAULT_ALGORITHMS, TokenHeader, TokenRules, Verified};
