//! MCP `Annotations`, for content, resources and their links.

use serde::Serialize;

use crate::contract;
use crate::version::ProtocolVersion;

use super::meta::widen;

/// MCP `Annotations`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    audience: Option<Vec<&'static str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    priority: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_modified: Option<&'a str>,
}

fn role(role: contract::Role) -> &'static str {
    match role {
        contract::Role::User => "user",
        contract::Role::Assistant => "assistant",
    }
}

/// Maps annotations; `None` when nothing is left to say.
pub fn annotations(a: &Option<contract::Annotations>, v: ProtocolVersion) -> Option<Annotations<'_>> {
    let a = a.as_ref()?;
    let out = Annotations {
        audience: a.audience.as_ref().map(|roles| roles.iter().map(|r| role(*r)).collect()),
        // MCP bounds priority to [0, 1].
        priority: a.priority.and_then(widen).map(|p| p.clamp(0.0, 1.0)),
        last_modified: a.timestamp.as_deref().filter(|_| v.has_last_modified()),
    };
    (out.audience.is_some() || out.priority.is_some() || out.last_modified.is_some()).then_some(out)
}
