//! Why the server turned a request or connection away before any guest
//! ran: a label of `mcp_wit_requests_refused`.

/// Why a request or connection was turned away before any guest ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// A session's queue was full ("server busy").
    Overload,
    /// `--max-connections` was reached.
    Connections,
    /// `--max-sessions` (or its per-client share) was reached.
    Sessions,
    /// No valid access token (401).
    Unauthorized,
    /// A token without the scope the operation needs (403).
    Forbidden,
}

impl Refusal {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Refusal::Overload => "overload",
            Refusal::Connections => "connection_limit",
            Refusal::Sessions => "session_limit",
            Refusal::Unauthorized => "unauthorized",
            Refusal::Forbidden => "forbidden",
        }
    }
}
