//! Outgoing HTTP (`wasi:http/outgoing-handler`), denied unless allowed.
//!
//! Every guest can import `wasi:http`, so a component built with an HTTP
//! client links and runs; but each request goes through
//! [`OutgoingHttp::send_request`], which refuses any destination not on the
//! operator's allowlist (`--allow-http HOST[:PORT]`) with the WASI error
//! `HTTP-request-denied`. Allowed requests are sent by wasmtime-wasi-http's
//! own client, with their timeouts capped by the call's deadline: a guest
//! waiting on the network is inside a host call, where epoch interruption
//! cannot reach it.

use std::fmt;
#[cfg(feature = "outgoing-http")]
use std::sync::Arc;
#[cfg(feature = "outgoing-http")]
use std::time::Duration;

#[cfg(feature = "outgoing-http")]
use wasmtime_wasi_http::{Error as HttpError, RequestOptions, WasiBody, WasiHttpHooks};

/// One destination a guest may send HTTP requests to: `HOST[:PORT]`, or
/// `https://HOST[:PORT]` for HTTPS only.
///
/// `HOST` is a name (`api.example.com`), `*.` followed by a domain (any
/// subdomain of it, not the domain itself), an IPv4 address or a bracketed
/// IPv6 address. Without a port, only the scheme's default port is allowed
/// (80 for `http`, 443 for `https`); `:*` allows every port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpGrant {
    host: HostPattern,
    port: PortPattern,
    /// Only `https` requests (a grant written `https://…`).
    https_only: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum HostPattern {
    /// Exactly this host (lowercase).
    Exact(String),
    /// Any host ending in `.` + this domain (lowercase).
    Subdomains(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PortPattern {
    /// The scheme's default port.
    Default,
    /// Any port.
    Any,
    /// Exactly this port.
    Exact(u16),
}

impl std::str::FromStr for HttpGrant {
    type Err = String;

    fn from_str(spec: &str) -> Result<Self, String> {
        let bad = |why: &str| format!("`{spec}` is not HOST[:PORT] ({why}); e.g. api.example.com or localhost:8080");
        let (https_only, spec) = match spec.strip_prefix("https://") {
            Some(rest) => (true, rest.strip_suffix('/').unwrap_or(rest)),
            None => (false, spec),
        };
        if spec.contains("://") || spec.contains('/') {
            return Err(bad("give the host (or https://HOST), not a URL"));
        }
        // `[v6]:port`, `[v6]`, `host:port` or `host`.
        let (host, port) = if let Some(rest) = spec.strip_prefix('[') {
            let (v6, after) = rest.split_once(']').ok_or_else(|| bad("unclosed `[`"))?;
            match after {
                "" => (format!("[{v6}]"), None),
                _ => (format!("[{v6}]"), Some(after.strip_prefix(':').ok_or_else(|| bad("expected `:` after `]`"))?)),
            }
        } else {
            match spec.rsplit_once(':') {
                Some((host, port)) => (host.to_string(), Some(port)),
                None => (spec.to_string(), None),
            }
        };
        let port = match port {
            None => PortPattern::Default,
            Some("*") => PortPattern::Any,
            Some(port) => PortPattern::Exact(port.parse().map_err(|_| bad("the port is not a number"))?),
        };
        let host = host.to_ascii_lowercase();
        // A name (letters, digits, `-`, `.`, `_`), an IPv4 address or a
        // bracketed IPv6 one: anything else could never match a request.
        let name = host.strip_prefix("*.").unwrap_or(&host);
        let is_v6 = name.starts_with('[') && name[1..name.len() - 1].parse::<std::net::Ipv6Addr>().is_ok();
        if !is_v6 && !name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'*')) {
            return Err(bad("a host name has only letters, digits, `-`, `.` and `_`"));
        }
        let host = match host.strip_prefix("*.") {
            Some(domain) if !domain.is_empty() && !domain.contains('*') => HostPattern::Subdomains(domain.to_string()),
            _ if host.is_empty() => return Err(bad("the host is empty")),
            _ if host.contains('*') => return Err(bad("`*` is allowed only as a leading `*.`")),
            _ => HostPattern::Exact(host),
        };
        Ok(HttpGrant { host, port, https_only })
    }
}

impl fmt::Display for HttpGrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.https_only {
            f.write_str("https://")?;
        }
        match &self.host {
            HostPattern::Exact(host) => f.write_str(host)?,
            HostPattern::Subdomains(domain) => write!(f, "*.{domain}")?,
        }
        match self.port {
            PortPattern::Default => Ok(()),
            PortPattern::Any => f.write_str(":*"),
            PortPattern::Exact(port) => write!(f, ":{port}"),
        }
    }
}

impl HttpGrant {
    /// Whether a request to `host` (as in the URI, lowercase or not) on
    /// `port` (`None`: the scheme's default, `default_port`), over HTTPS or
    /// not, is allowed.
    pub fn allows(&self, https: bool, host: &str, port: Option<u16>, default_port: u16) -> bool {
        if self.https_only && !https {
            return false;
        }
        // Patterns are stored lowercase; compare without allocating.
        let host_ok = match &self.host {
            HostPattern::Exact(allowed) => host.eq_ignore_ascii_case(allowed),
            HostPattern::Subdomains(domain) => host.len().checked_sub(domain.len()).is_some_and(|split| {
                host.is_char_boundary(split)
                    && host[split..].eq_ignore_ascii_case(domain)
                    && host[..split].len() > 1
                    && host[..split].ends_with('.')
            }),
        };
        let port = port.unwrap_or(default_port);
        host_ok
            && match self.port {
                PortPattern::Default => port == default_port,
                PortPattern::Any => true,
                PortPattern::Exact(allowed) => port == allowed,
            }
    }
}

/// The `wasi:http` hooks of one instance: the allowlist check and the
/// timeout cap.
#[cfg(feature = "outgoing-http")]
pub struct OutgoingHttp {
    label: Arc<str>,
    allowed: Arc<[HttpGrant]>,
    max_wait: Duration,
}

#[cfg(feature = "outgoing-http")]
impl OutgoingHttp {
    /// Hooks for the component `label`, allowing `allowed`, with every
    /// network wait capped at `max_wait` (the call's deadline).
    pub fn new(label: Arc<str>, allowed: Arc<[HttpGrant]>, max_wait: Duration) -> Self {
        OutgoingHttp { label, allowed, max_wait }
    }

    /// The grant that would allow `uri`: its host, and its port when that
    /// is not its scheme's default (a grant without one allows only that).
    fn grant_for(uri: &http::Uri) -> String {
        let Some(authority) = uri.authority() else { return "HOST[:PORT]".into() };
        match authority.port_u16().filter(|&port| port != default_port(uri)) {
            Some(port) => format!("{}:{port}", authority.host()),
            None => authority.host().to_string(),
        }
    }

    fn is_allowed(&self, uri: &http::Uri) -> bool {
        let Some(authority) = uri.authority() else { return false };
        let https = uri.scheme() == Some(&http::uri::Scheme::HTTPS);
        self.allowed.iter().any(|grant| grant.allows(https, authority.host(), authority.port_u16(), default_port(uri)))
    }

    /// The guest's timeouts, none longer than `max_wait`.
    fn capped(&self, options: Option<RequestOptions>) -> RequestOptions {
        let options = options.unwrap_or_default();
        let cap = |t: Option<Duration>| Some(t.map_or(self.max_wait, |t| t.min(self.max_wait)));
        RequestOptions {
            connect_timeout: cap(options.connect_timeout),
            first_byte_timeout: cap(options.first_byte_timeout),
            between_bytes_timeout: cap(options.between_bytes_timeout),
        }
    }
}

/// The port a URI without one reaches: 80 for `http`, else 443.
#[cfg(feature = "outgoing-http")]
fn default_port(uri: &http::Uri) -> u16 {
    if uri.scheme() == Some(&http::uri::Scheme::HTTP) { 80 } else { 443 }
}

/// What a plain request (an Extism plugin's `http_request`) got back.
#[cfg(all(feature = "outgoing-http", feature = "extism"))]
#[derive(Debug)]
pub struct PlainResponse {
    /// The status code.
    pub status: u16,
    /// The headers (values that are not UTF-8 left out).
    pub headers: std::collections::BTreeMap<String, String>,
    /// The whole body.
    pub body: Vec<u8>,
}

/// Why a plain request got no response.
#[cfg(all(feature = "outgoing-http", feature = "extism"))]
#[derive(Debug, thiserror::Error)]
pub enum PlainRequestError {
    /// Its destination is not on the allowlist (Extism's message, and the fix).
    #[error("HTTP request to {url} is not allowed (the operator grants it with --allow-http {grant})")]
    Denied {
        /// What was asked for.
        url: String,
        /// The grant that would allow it.
        grant: String,
    },
    /// The body is larger than the guest may hold.
    #[error("the response body from {url} is larger than the {limit} bytes the plugin may hold")]
    TooLarge {
        /// Where it came from.
        url: String,
        /// Most bytes allowed.
        limit: usize,
    },
    /// It could not be sent, or its response not read.
    #[error("{0}")]
    Failed(String),
}

#[cfg(all(feature = "outgoing-http", feature = "extism"))]
impl OutgoingHttp {
    /// Sends `request` for an Extism plugin (`http_request`): the allowlist
    /// and timeouts of `wasi:http`, the same client, and a body of at most
    /// `max_body` bytes.
    pub fn send_plain(
        &self,
        request: http::Request<bytes::Bytes>,
        max_body: usize,
    ) -> impl Future<Output = Result<PlainResponse, PlainRequestError>> + Send + 'static {
        let url = request.uri().to_string();
        // The grant that would allow it, worked out only when it is denied.
        let denied = (!self.is_allowed(request.uri())).then(|| Self::grant_for(request.uri()));
        if let Some(grant) = &denied {
            tracing::warn!(
                component = %self.label,
                uri = %shown(request.uri()),
                "outgoing HTTP request denied: not in the allowlist (grant it with --allow-http {grant})"
            );
        } else {
            tracing::debug!(component = %self.label, method = %request.method(), uri = %shown(request.uri()), "outgoing HTTP");
        }
        let options = self.capped(None);
        async move {
            use http_body_util::{BodyExt, Full, Limited};
            if let Some(grant) = denied {
                return Err(PlainRequestError::Denied { url, grant });
            }
            let failed = |e: &dyn fmt::Display| PlainRequestError::Failed(format!("{url}: {e}"));
            let request = request.map(|body| Full::new(body).map_err(|never| match never {}));
            let (response, io) =
                wasmtime_wasi_http::default_send_request(request, Some(options)).await.map_err(|e| failed(&e))?;
            // The connection's own task: driven beside the body's reads.
            let io = tokio::spawn(io);
            let (parts, body) = response.into_parts();
            let collected = Limited::new(body, max_body).collect().await;
            io.abort();
            let body = match collected {
                Ok(collected) => collected.to_bytes().to_vec(),
                Err(e) if e.is::<http_body_util::LengthLimitError>() => {
                    return Err(PlainRequestError::TooLarge { url, limit: max_body });
                }
                Err(e) => return Err(failed(&e)),
            };
            let headers = parts
                .headers
                .iter()
                .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_string())))
                .collect();
            Ok(PlainResponse { status: parts.status.as_u16(), headers, body })
        }
    }
}

/// `uri` as logs and spans show it: without its query and any user
/// information, which carry API keys and passwords as often as not.
#[cfg(feature = "outgoing-http")]
fn shown(uri: &http::Uri) -> String {
    let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
        return uri.path().to_string();
    };
    let port = authority.port().map(|port| format!(":{port}")).unwrap_or_default();
    format!("{scheme}://{}{port}{}", authority.host(), uri.path())
}

#[cfg(feature = "outgoing-http")]
type Sent = Result<(http::Response<WasiBody>, Box<dyn Future<Output = Result<(), HttpError>> + Send>), HttpError>;

#[cfg(feature = "outgoing-http")]
impl WasiHttpHooks for OutgoingHttp {
    fn send_request(
        &mut self,
        request: http::Request<WasiBody>,
        options: Option<RequestOptions>,
        fut: Box<dyn Future<Output = Result<(), HttpError>> + Send>,
    ) -> Box<dyn Future<Output = Sent> + Send> {
        drop(fut);
        if !self.is_allowed(request.uri()) {
            // The operator learns what was refused and how to allow it; the
            // guest gets the WASI error and decides what to tell its caller.
            tracing::warn!(
                component = %self.label,
                uri = %shown(request.uri()),
                "outgoing HTTP request denied: not in the allowlist (grant it with --allow-http {})",
                Self::grant_for(request.uri())
            );
            return Box::new(async { Err(HttpError::HttpRequestDenied) });
        }
        tracing::debug!(component = %self.label, method = %request.method(), uri = %shown(request.uri()), "outgoing HTTP");
        let options = self.capped(options);
        let span = tracing::debug_span!(
            target: mcp_wit_protocol::observe::TRACE_TARGET,
            "outgoing HTTP",
            otel.kind = "client",
            http.request.method = %request.method(),
            url.full = %shown(request.uri()),
        );
        Box::new(tracing::Instrument::instrument(
            async move {
                use http_body_util::BodyExt;
                let (response, io) = wasmtime_wasi_http::default_send_request(request, Some(options)).await?;
                let io: Box<dyn Future<Output = Result<(), HttpError>> + Send> = Box::new(io);
                Ok((response.map(BodyExt::boxed_unsync), io))
            },
            span,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grant(spec: &str) -> HttpGrant {
        spec.parse().unwrap()
    }

    #[test]
    fn parses_and_prints_grants() {
        for spec in [
            "api.example.com",
            "localhost:8080",
            "*.example.com",
            "127.0.0.1:*",
            "[::1]:3000",
            "[::1]",
            "https://x.com",
        ] {
            assert_eq!(grant(spec).to_string(), spec);
        }
        assert_eq!(grant("API.Example.com").to_string(), "api.example.com");
        for bad in [
            "",
            "http://x.com",
            "https://",
            "x.com/path",
            "x.com:http",
            "*",
            "a.*.com",
            "[::1",
            "[::1]x",
            ":80",
            "ex ample.com",
            "a\"b",
            "x.com?",
        ] {
            assert!(bad.parse::<HttpGrant>().is_err(), "{bad} parsed");
        }
    }

    #[cfg(feature = "outgoing-http")]
    #[test]
    fn logs_and_spans_show_a_url_without_its_query_or_credentials() {
        let uri: http::Uri = "https://user:pa55@api.example.com:8443/v1/data?key=s3cret".parse().unwrap();
        assert_eq!(shown(&uri), "https://api.example.com:8443/v1/data");
        assert_eq!(shown(&"http://example.com".parse().unwrap()), "http://example.com/");
    }

    #[test]
    fn matches_host_and_port() {
        let g = grant("api.example.com");
        assert!(g.allows(true, "api.example.com", None, 443));
        assert!(g.allows(true, "API.example.COM", Some(80), 80));
        assert!(!g.allows(true, "api.example.com", Some(8443), 443));
        assert!(!g.allows(true, "evil.com", None, 443));
        assert!(!g.allows(true, "api.example.com.evil.com", None, 443));

        let g = grant("*.example.com");
        assert!(g.allows(true, "a.example.com", None, 443));
        assert!(g.allows(true, "a.b.example.com", None, 80));
        assert!(!g.allows(true, "example.com", None, 443));
        assert!(!g.allows(true, "badexample.com", None, 443));

        assert!(grant("localhost:*").allows(false, "localhost", Some(1234), 80));
        assert!(grant("localhost:1234").allows(false, "localhost", Some(1234), 80));
        assert!(!grant("localhost:1234").allows(false, "localhost", None, 80));
        assert!(grant("[::1]:3000").allows(false, "[::1]", Some(3000), 80));
    }

    #[test]
    fn an_https_grant_allows_https_only() {
        let g = grant("https://api.example.com/");
        assert_eq!(g.to_string(), "https://api.example.com");
        assert!(g.allows(true, "api.example.com", None, 443));
        assert!(!g.allows(false, "api.example.com", None, 80));
        assert!(!g.allows(false, "api.example.com", Some(443), 80));
        assert!(grant("https://api.example.com:*").allows(true, "api.example.com", Some(8443), 443));
        assert!("https://api.example.com/v1".parse::<HttpGrant>().is_err());
        assert!("http://api.example.com".parse::<HttpGrant>().is_err());
    }
}
