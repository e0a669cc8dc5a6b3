//! Who may talk to the server: `Origin` and `Host` checks (DNS-rebinding
//! protection), run before any route, and CORS for the origins let in.
//!
//! - `Origin`, when present, must be allowed: on a loopback bind any loopback
//!   origin (`http://localhost:3000`, `http://127.0.0.1`, …), plus every
//!   `--allow-origin`. Else 403.
//! - `Host` is checked on a loopback bind, or on any bind once `--allow-host`
//!   is given: loopback names (`localhost`, `127.x.x.x`, `[::1]`, any port) and
//!   every `--allow-host` (`NAME` matches any port, `NAME:PORT` only that one).
//!   Else 403. A page on `evil.example` whose name was rebound to 127.0.0.1
//!   still sends `Host: evil.example`, so it is turned away.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HOST, ORIGIN};
use axum::http::uri::Authority;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use tower_http::cors::{AllowOrigin, CorsLayer};

use super::ServerState;
use super::wire::{self, LAST_EVENT_ID, PROTOCOL_VERSION, SESSION_ID, TRANSPORT_ERROR};

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
    /// The policy for a server bound to `bind`, widened by the flags.
    pub fn new(bind: SocketAddr, allow_hosts: &[String], allow_origins: &[String]) -> Self {
        let loopback = bind.ip().is_loopback();
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

    /// `Ok` when the request may go on, else the 400/403 to send.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), Response> {
        if let Some(origin) = headers.get(ORIGIN) {
            let text = origin.to_str().unwrap_or_default();
            if !self.origin_allowed(text) {
                tracing::warn!(origin = text, "refused a request from a foreign Origin");
                return Err(wire::error(
                    StatusCode::FORBIDDEN,
                    TRANSPORT_ERROR,
                    format!("Forbidden: Origin {text:?} is not among the origins this server allows"),
                    None,
                ));
            }
        }
        if self.check_host {
            let Some(host) = headers.get(HOST) else {
                return Err(wire::error(StatusCode::BAD_REQUEST, TRANSPORT_ERROR, "Bad Request: no Host header", None));
            };
            let text = host.to_str().unwrap_or_default();
            if !self.host_allowed(text) {
                tracing::warn!(host = text, "refused a request for a foreign Host (DNS rebinding?)");
                return Err(wire::error(
                    StatusCode::FORBIDDEN,
                    TRANSPORT_ERROR,
                    format!("Forbidden: Host {text:?} is not among the hosts this server answers to"),
                    None,
                ));
            }
        }
        Ok(())
    }

    fn host_allowed(&self, text: &str) -> bool {
        if self.any_host {
            return true;
        }
        let Ok(authority) = text.parse::<Authority>() else { return false };
        let name = authority.host().to_ascii_lowercase();
        if is_loopback_name(&name) {
            return true;
        }
        let full = authority.as_str().to_ascii_lowercase();
        self.hosts.iter().any(|allowed| *allowed == name || *allowed == full)
    }

    fn origin_allowed(&self, text: &str) -> bool {
        if self.any_origin {
            return true;
        }
        let origin = normalise_origin(text);
        if self.origins.contains(&origin) {
            return true;
        }
        self.loopback_origins
            && origin
                .split_once("://")
                .and_then(|(scheme, rest)| {
                    let host = rest.parse::<Authority>().ok()?;
                    Some(matches!(scheme, "http" | "https") && is_loopback_name(host.host()))
                })
                .unwrap_or(false)
    }
}

/// Lowercase, without a trailing slash.
fn normalise_origin(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// `localhost`, an IPv4 loopback address or `[::1]`.
fn is_loopback_name(host: &str) -> bool {
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
    bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Middleware: turns away requests the policy refuses.
pub async fn check(State(server): State<Arc<ServerState>>, request: Request, next: Next) -> Response {
    match server.security.check(request.headers()) {
        Ok(()) => next.run(request).await,
        Err(response) => response,
    }
}

/// CORS for browser clients. Only requests whose origin passed [`check`]
/// reach it, so it mirrors the origin back.
pub fn cors() -> CorsLayer {
    CorsLayer::new()
        .allow_origin(AllowOrigin::mirror_request())
        .allow_methods([Method::GET, Method::POST, Method::DELETE])
        .allow_headers([CONTENT_TYPE, ACCEPT, AUTHORIZATION, SESSION_ID, PROTOCOL_VERSION, LAST_EVENT_ID])
        .expose_headers([SESSION_ID])
        .max_age(Duration::from_secs(600))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    fn status(policy: &SecurityPolicy, pairs: &[(&'static str, &str)]) -> Option<StatusCode> {
        policy.check(&headers(pairs)).err().map(|r| r.status())
    }

    #[test]
    fn loopback_bind_refuses_foreign_hosts_and_origins() {
        let policy = SecurityPolicy::new("127.0.0.1:8080".parse().unwrap(), &[], &[]);
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
        let policy = SecurityPolicy::new("127.0.0.1:8080".parse().unwrap(), &hosts, &origins);
        assert_eq!(status(&policy, &[("host", "mcp.example.com:8080")]), None);
        assert_eq!(status(&policy, &[("host", "other.example:9000")]), None);
        assert_eq!(status(&policy, &[("host", "other.example:9001")]), Some(StatusCode::FORBIDDEN));
        assert_eq!(status(&policy, &[("host", "localhost"), ("origin", "https://app.example.com")]), None);

        // A public bind checks no Host unless told to, and lets in no browser origin.
        let public = SecurityPolicy::new("0.0.0.0:8080".parse().unwrap(), &[], &[]);
        assert_eq!(status(&public, &[("host", "anything.example")]), None);
        assert_eq!(status(&public, &[("host", "x"), ("origin", "http://localhost:3000")]), Some(StatusCode::FORBIDDEN));
        let open = SecurityPolicy::new("0.0.0.0:8080".parse().unwrap(), &["*".into()], &["*".into()]);
        assert_eq!(status(&open, &[("origin", "https://anywhere.example")]), None);
    }
}
