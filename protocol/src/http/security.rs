//! Who may talk to the server: the `Origin` and `Host` checks that stop
//! DNS rebinding, and the headers that must come once.

use std::net::IpAddr;

use http::header::{HOST, ORIGIN};
use http::{HeaderMap, StatusCode};

use super::headers::{PROTOCOL_VERSION, Refusal, SESSION_ID};

/// The allowed `Host` and `Origin` values.
#[derive(Debug)]
pub struct SecurityPolicy {
    /// Whether `Host` is checked at all.
    check_host: bool,
    any_host: bool,
    /// `name` or `name:port`, lowercase.
    hosts: Vec<String>,
    /// Whether loopback origins are allowed (loopback binds).
    loopback_origins: bool,
    any_origin: bool,
    /// Normalised origins (`scheme://host[:port]`, lowercase).
    origins: Vec<String>,
}

impl SecurityPolicy {
    /// The policy for a server bound to a loopback address (`loopback`) or
    /// not, widened by the allowed hosts and origins (`*` allows any).
    pub fn new(loopback: bool, allow_hosts: &[String], allow_origins: &[String]) -> Self {
        let any_host = allow_hosts.iter().any(|h| h == "*");
        let any_origin = allow_origins.iter().any(|o| o == "*");
        SecurityPolicy {
            check_host: (loopback || !allow_hosts.is_empty()) && !any_host,
            any_host,
            hosts: allow_hosts.iter().map(|h| h.trim().to_ascii_lowercase()).collect(),
            loopback_origins: loopback,
            any_origin,
            origins: allow_origins.iter().map(|o| normalise_origin(o)).collect(),
        }
    }

    /// [`SecurityPolicy::check`] for a request whose target may be in
    /// absolute form (`POST http://NAME/mcp`): its authority must be the
    /// `Host` the checks read (HTTP/1.1 says a server takes the target's,
    /// so a check of `Host` alone would check another name).
    pub fn check_request(&self, target_authority: Option<&str>, headers: &HeaderMap) -> Result<(), Refusal> {
        if let Some(target) = target_authority {
            let host = headers.get(HOST).and_then(|h| h.to_str().ok());
            if !host.is_some_and(|host| host.eq_ignore_ascii_case(target)) {
                return Err(Refusal::new(
                    StatusCode::BAD_REQUEST,
                    format!("Bad Request: the request target names {target:?} but Host is {host:?}"),
                ));
            }
        }
        self.check(headers)
    }

    /// `Ok` when the request may go on, else the 400/403 to send.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        // One of each: with two, which one a check reads and which one a
        // later step (or a proxy) reads could differ. Counted in one pass
        // over the request's few headers, not a lookup of each name.
        let checked = [HOST, ORIGIN, SESSION_ID, PROTOCOL_VERSION];
        let mut seen = [0u8; 4];
        let (mut host, mut origin) = (None, None);
        for (name, value) in headers {
            if let Some(at) = checked.iter().position(|known| known == name) {
                seen[at] = seen[at].saturating_add(1);
                match at {
                    0 => host = Some(value),
                    1 => origin = Some(value),
                    _ => {}
                }
            }
        }
        if let Some(at) = seen.iter().position(|&count| count > 1) {
            let name = &checked[at];
            return Err(Refusal::new(
                StatusCode::BAD_REQUEST,
                format!("Bad Request: the request has more than one {name} header (send it once)"),
            ));
        }
        if let Some(origin) = origin {
            let text = origin.to_str().unwrap_or_default();
            // A page on this machine calling this machine by a loopback name
            // is what a loopback bind serves; a rebinding page cannot claim
            // a loopback Origin, whatever Host its DNS points at.
            let to_loopback = host.and_then(|host| host_of(host.to_str().ok()?)).is_some_and(is_loopback_name);
            if !self.origin_allowed(text, self.loopback_origins || to_loopback) {
                tracing::warn!(origin = text, "refused a request from a foreign Origin");
                return Err(Refusal::new(
                    StatusCode::FORBIDDEN,
                    format!("Forbidden: Origin {text:?} is not among the origins this server allows"),
                ));
            }
        }
        if self.check_host {
            let Some(host) = host else {
                return Err(Refusal::new(StatusCode::BAD_REQUEST, "Bad Request: no Host header"));
            };
            let text = host.to_str().unwrap_or_default();
            if !self.host_allowed(text) {
                tracing::warn!(host = text, "refused a request for a foreign Host (DNS rebinding?)");
                return Err(Refusal::new(
                    StatusCode::FORBIDDEN,
                    format!("Forbidden: Host {text:?} is not among the hosts this server answers to"),
                ));
            }
        }
        Ok(())
    }

    fn host_allowed(&self, text: &str) -> bool {
        if self.any_host {
            return true;
        }
        let Some(name) = host_of(text) else { return false };
        if is_loopback_name(name) {
            return true;
        }
        self.hosts.iter().any(|allowed| allowed.eq_ignore_ascii_case(name) || allowed.eq_ignore_ascii_case(text))
    }

    fn origin_allowed(&self, text: &str, loopback_origins: bool) -> bool {
        if self.any_origin {
            return true;
        }
        let origin = normalise_origin(text);
        if self.origins.contains(&origin) {
            return true;
        }
        loopback_origins
            && origin
                .split_once("://")
                .and_then(|(scheme, rest)| Some(matches!(scheme, "http" | "https") && is_loopback_name(host_of(rest)?)))
                .unwrap_or(false)
    }
}

/// Lowercase, without a trailing slash.
fn normalise_origin(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// The host of an authority (`name`, `name:port`, `[v6]:port`), or `None`
/// when it is not one. Read in place: `Host` is checked on every request.
pub(super) fn host_of(authority: &str) -> Option<&str> {
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let end = v6.find(']')?;
            (&authority[..end + 2], &v6[end + 1..])
        }
        None => match authority.rsplit_once(':') {
            Some((host, _)) => (host, &authority[host.len()..]),
            None => (authority, ""),
        },
    };
    let port_ok = port.is_empty() || port.strip_prefix(':').is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()));
    let host_ok = !host.is_empty()
        && host.bytes().all(|b| HOST_BYTES[usize::from(b)])
        && (host.starts_with('[') || !host.contains([':', '[', ']']));
    (port_ok && host_ok).then_some(host)
}

/// The bytes a host may hold: RFC 3986's unreserved and sub-delims, `%`
/// of a percent-encoding, and the brackets and colons of an IPv6 literal.
/// A table: `Host` is read on every request, and a byte's test is one load.
static HOST_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric()
            || matches!(c, b'-' | b'.' | b'_' | b'~' | b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+')
            || matches!(c, b',' | b';' | b'=' | b'%' | b'[' | b']' | b':');
        b += 1;
    }
    table
};

/// Whether `host` (an authority's host without its port, any case) names
/// this machine: `localhost`, an IPv4 loopback address or `[::1]`.
pub fn is_loopback_name(host: &str) -> bool {
    let suffix = ".localhost";
    let named = host.eq_ignore_ascii_case("localhost")
        || (host.len() > suffix.len()
            && host.as_bytes()[host.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes()));
    if named {
        return true;
    }
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
    bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod security_tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    fn status(policy: &SecurityPolicy, pairs: &[(&'static str, &str)]) -> Option<StatusCode> {
        policy.check(&headers(pairs)).err().map(|r| r.status)
    }

    #[test]
    fn loopback_bind_refuses_foreign_hosts_and_origins() {
        let policy = SecurityPolicy::new(true, &[], &[]);
        assert_eq!(status(&policy, &[("host", "127.0.0.1:8080")]), None);
        assert_eq!(status(&policy, &[("host", "localhost")]), None);
        assert_eq!(status(&policy, &[("host", "[::1]:8080")]), None);
        assert_eq!(status(&policy, &[("host", "evil.example.com")]), Some(StatusCode::FORBIDDEN));
        assert_eq!(status(&policy, &[("host", "127.0.0.1.evil.com")]), Some(StatusCode::FORBIDDEN));
        assert_eq!(status(&policy, &[]), Some(StatusCode::BAD_REQUEST));
        let local = [("host", "localhost:8080"), ("origin", "http://localhost:5173")];
        assert_eq!(status(&policy, &local), None);
        let evil = [("host", "localhost:8080"), ("origin", "http://evil.example.com")];
        assert_eq!(status(&policy, &evil), Some(StatusCode::FORBIDDEN));
        assert_eq!(status(&policy, &[("host", "localhost"), ("origin", "null")]), Some(StatusCode::FORBIDDEN));
    }

    #[test]
    fn flags_widen_the_policy() {
        let hosts = ["mcp.example.com".to_string(), "other.example:9000".to_string()];
        let origins = ["https://App.Example.com/".to_string()];
        let policy = SecurityPolicy::new(true, &hosts, &origins);
        assert_eq!(status(&policy, &[("host", "mcp.example.com:8080")]), None);
        assert_eq!(status(&policy, &[("host", "MCP.Example.com")]), None);
        assert_eq!(status(&policy, &[("host", "other.example:9000")]), None);
        assert_eq!(status(&policy, &[("host", "other.example:9001")]), Some(StatusCode::FORBIDDEN));
        assert_eq!(status(&policy, &[("host", "localhost"), ("origin", "https://app.example.com")]), None);

        // A public bind checks no Host unless told to, and lets in no browser origin.
        let public = SecurityPolicy::new(false, &[], &[]);
        assert_eq!(status(&public, &[("host", "anything.example")]), None);
        assert_eq!(status(&public, &[("host", "x"), ("origin", "http://localhost:3000")]), Some(StatusCode::FORBIDDEN));
        // ... but a local page calling it by a loopback name is local.
        let local = [("host", "localhost:8080"), ("origin", "http://localhost:3000")];
        assert_eq!(status(&public, &local), None);
        let rebound = [("host", "evil.example.com"), ("origin", "http://localhost:3000")];
        assert_eq!(status(&public, &rebound), Some(StatusCode::FORBIDDEN));
        let open = SecurityPolicy::new(false, &["*".into()], &["*".into()]);
        assert_eq!(status(&open, &[("origin", "https://anywhere.example")]), None);
    }

    #[test]
    fn an_absolute_target_must_name_the_host() {
        let policy = SecurityPolicy::new(true, &[], &[]);
        let local = [("host", "localhost:8080")];
        assert_eq!(policy.check_request(Some("localhost:8080"), &headers(&local)).err().map(|r| r.status), None);
        let other = policy.check_request(Some("evil.example"), &headers(&local)).unwrap_err();
        assert_eq!(other.status, StatusCode::BAD_REQUEST);
    }

    /// Duplicates: the first one used to win.
    #[test]
    fn a_header_that_must_be_single_is_refused_twice() {
        let open = SecurityPolicy::new(false, &["*".into()], &["*".into()]);
        for name in ["host", "origin", "mcp-session-id", "mcp-protocol-version"] {
            let twice = [("host", "localhost"), (name, "a"), (name, "b")];
            let twice = if name == "host" { &twice[1..] } else { &twice[..] };
            assert_eq!(status(&open, twice), Some(StatusCode::BAD_REQUEST), "{name}");
        }
    }

    #[test]
    fn reads_the_host_of_an_authority() {
        assert_eq!(host_of("localhost"), Some("localhost"));
        assert_eq!(host_of("LocalHost:8080"), Some("LocalHost"));
        assert_eq!(host_of("[::1]:3000"), Some("[::1]"));
        assert_eq!(host_of("[::1]"), Some("[::1]"));
        assert_eq!(host_of("127.0.0.1:"), Some("127.0.0.1"));
        for not_one in ["", ":80", "a:b", "[::1", "[::1]x", "user@127.0.0.1", "a b", "x/y", "a:1:2", "é"] {
            assert_eq!(host_of(not_one), None, "{not_one:?}");
        }
        assert!(is_loopback_name("LOCALHOST") && is_loopback_name("app.Localhost") && is_loopback_name("[::1]"));
        assert!(
            !is_loopback_name("localhost.evil") && !is_loopback_name("10.0.0.1") && !is_loopback_name(".localhost")
        );
    }
}
