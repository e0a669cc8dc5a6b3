//! Fetching a small JSON document (a JWKS, an issuer's metadata): one
//! connection per fetch, as they are rare, bounded in time and size.
//!
//! hyper's client over tokio-rustls with the Mozilla roots (webpki-roots):
//! the TLS stack wasmtime-wasi-http already builds for guests' requests, not
//! a second one. Plain `http` is allowed only to loopback addresses (an
//! authorization server beside the server, as in tests and development).

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{Request, StatusCode, Uri, header};
use http_body_util::{BodyExt, Empty, Limited};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

use mcp_wit_protocol::http::is_loopback_name;

/// Largest document accepted.
const MAX_DOCUMENT: usize = 1 << 20;

/// A URL that may be fetched: `https`, or `http` to a loopback address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchUrl(Uri);

impl FetchUrl {
    /// Checks `url`; the error says what is wrong with it.
    pub fn parse(url: &str) -> Result<FetchUrl, String> {
        let uri: Uri = url.parse().map_err(|e| format!("{url:?} is not a URL: {e}"))?;
        let Some(host) = uri.host() else { return Err(format!("{url:?} names no host")) };
        match uri.scheme_str() {
            Some("https") => Ok(FetchUrl(uri)),
            Some("http") if is_loopback_name(host) => Ok(FetchUrl(uri)),
            Some("http") => Err(format!("{url:?} must use https (plain http only to a loopback address)")),
            _ => Err(format!("{url:?} must be an https URL")),
        }
    }

    /// The URL.
    pub fn as_str(&self) -> String {
        self.0.to_string()
    }
}

/// GETs `url`, within `timeout` for the whole exchange; the body of a 200
/// answer, at most 1 MiB.
pub async fn get(url: &FetchUrl, timeout: Duration) -> Result<Bytes, String> {
    match tokio::time::timeout(timeout, get_unbounded(&url.0)).await {
        Ok(result) => result.map_err(|e| format!("cannot fetch {}: {e}", url.0)),
        Err(_) => Err(format!("cannot fetch {}: no answer within {timeout:?}", url.0)),
    }
}

async fn get_unbounded(uri: &Uri) -> Result<Bytes, String> {
    let host = uri.host().expect("checked by FetchUrl::parse");
    let tls = uri.scheme_str() == Some("https");
    let port = uri.port_u16().unwrap_or(if tls { 443 } else { 80 });
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let tcp = TcpStream::connect((bare, port)).await.map_err(|e| format!("cannot connect: {e}"))?;
    let _ = tcp.set_nodelay(true);
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let request = Request::get(path)
        .header(header::HOST, uri.authority().expect("a URL with a host has an authority").as_str())
        .header(header::ACCEPT, "application/json")
        .header(header::USER_AGENT, concat!("mcp-wit/", env!("CARGO_PKG_VERSION")))
        .body(Empty::<Bytes>::new())
        .map_err(|e| e.to_string())?;
    let response = if tls {
        let name = rustls::pki_types::ServerName::try_from(bare.to_string()).map_err(|e| e.to_string())?;
        let stream = tls_connector().connect(name, tcp).await.map_err(|e| format!("TLS: {e}"))?;
        send(TokioIo::new(stream), request).await?
    } else {
        send(TokioIo::new(tcp), request).await?
    };
    if response.status() != StatusCode::OK {
        return Err(format!("answered {}", response.status()));
    }
    let body = Limited::new(response.into_body(), MAX_DOCUMENT).collect().await.map_err(|e| e.to_string())?;
    Ok(body.to_bytes())
}

async fn send<I>(io: I, request: Request<Empty<Bytes>>) -> Result<hyper::Response<hyper::body::Incoming>, String>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(io).await.map_err(|e| format!("HTTP: {e}"))?;
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::debug!("key fetch connection ended: {e}");
        }
    });
    sender.send_request(request).await.map_err(|e| format!("HTTP: {e}"))
}

fn tls_connector() -> tokio_rustls::TlsConnector {
    static CONNECTOR: OnceLock<tokio_rustls::TlsConnector> = OnceLock::new();
    CONNECTOR
        .get_or_init(|| {
            let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.into() };
            let config =
                rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                    .with_safe_default_protocol_versions()
                    .expect("ring supports the default protocol versions")
                    .with_root_certificates(roots)
                    .with_no_client_auth();
            tokio_rustls::TlsConnector::from(Arc::new(config))
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_https_or_loopback_http() {
        assert!(FetchUrl::parse("https://as.example/jwks").is_ok());
        assert!(FetchUrl::parse("http://127.0.0.1:9000/jwks").is_ok());
        assert!(FetchUrl::parse("http://[::1]:9000/jwks").is_ok());
        assert!(FetchUrl::parse("http://localhost/jwks").is_ok());
        assert!(FetchUrl::parse("http://as.example/jwks").unwrap_err().contains("must use https"));
        assert!(FetchUrl::parse("ftp://as.example/jwks").is_err());
        assert!(FetchUrl::parse("/jwks").is_err());
    }
}
