//! The names and URIs clients see when several routers are served
//! together: each mount's prefix before its own names (read by the routers
//! and by the client link, which tells of resource updates).

/// Separates a mount's prefix from a tool or prompt name.
pub const NAME_SEPARATOR: char = '_';

/// Separates a mount's prefix from a resource URI.
pub const URI_SEPARATOR: char = '+';

/// `text` under `prefix`; unchanged under none (a mount served bare).
pub(crate) fn prefixed(prefix: &str, text: &str, separator: char) -> String {
    match prefix {
        "" => text.to_string(),
        prefix => format!("{prefix}{separator}{text}"),
    }
}

/// A router's resource URI as clients see it, under its mount's `prefix`
/// (see [`crate::routers::Routers::prefixes`]).
pub fn outward_uri(prefix: &str, uri: &str) -> String {
    prefixed(prefix, uri, URI_SEPARATOR)
}
