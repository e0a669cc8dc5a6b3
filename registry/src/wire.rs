//! What is read from a registry, read by us: every answer capped by what it
//! is ([`Limit`]), a blob checked against its declared size and digest as
//! it streams, and the token exchange done here, so credentials go only
//! where they belong (oci-client and sigstore-rs read whole bodies, and
//! send the credentials they are given to any token `realm` a registry
//! names, over any scheme).

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

use oci_client::secrets::RegistryAuth;

use crate::RegistryError;
use crate::reference::ComponentRef;

/// The most a registry may send for each thing read: over it, the read
/// stops and fails, naming the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Limit {
    /// A manifest or an index: 4 MiB, what the distribution spec asks
    /// registries to accept.
    Manifest,
    /// An answer of the token service.
    Token,
    /// The body of an error (only its messages are shown).
    ErrorBody,
    /// A blob: its descriptor's size, itself at most this.
    Blob(u64),
}

impl Limit {
    pub(crate) const MANIFEST: u64 = 4 << 20;
    pub(crate) const TOKEN: u64 = 256 << 10;
    pub(crate) const ERROR_BODY: u64 = 64 << 10;

    fn bytes(self) -> u64 {
        match self {
            Limit::Manifest => Self::MANIFEST,
            Limit::Token => Self::TOKEN,
            Limit::ErrorBody => Self::ERROR_BODY,
            Limit::Blob(size) => size,
        }
    }
}

/// A registry's HTTP, as this crate speaks it.
pub(crate) struct Wire {
    http: reqwest::Client,
    /// Registries reached over plain HTTP.
    insecure: Vec<String>,
    /// Hosts a token `realm` may be on besides the registry's own, for
    /// credentials to be sent there.
    token_hosts: Vec<String>,
    /// What each registry and repository was granted, by operation, and
    /// when.
    grants: tokio::sync::Mutex<HashMap<GrantKey, (Instant, RegistryAuth)>>,
}

/// A registry, a repository, and whether to push.
type GrantKey = (String, String, bool);

/// How long a grant is reused: registries' tokens last minutes (Docker
/// Hub's and GitHub's 5), and one pull or check is over well within this.
const GRANT_REUSE: Duration = Duration::from_secs(60);

/// Docker Hub's token service, on a host of its own.
const DOCKER_HUB_TOKEN_SERVICE: &str = "auth.docker.io";

/// A request's failure, before the reference it was for is named.
pub(crate) struct Failed {
    pub(crate) message: String,
    pub(crate) transient: bool,
    pub(crate) unreachable: bool,
    /// A 401 or 403: the message then says how to log in.
    refused_credentials: bool,
}

impl Failed {
    fn permanent(message: String) -> Failed {
        Failed { message, transient: false, unreachable: false, refused_credentials: false }
    }

    /// An answer other than success: a refusal of credentials says what to
    /// do; only a 5xx may pass if tried again.
    fn status(status: reqwest::StatusCode, said: String) -> Failed {
        let refused_credentials = matches!(status.as_u16(), 401 | 403);
        Failed { message: said, transient: status.is_server_error(), unreachable: false, refused_credentials }
    }

    fn into_error(self, reference: &ComponentRef, what: &str) -> RegistryError {
        let message = match self.refused_credentials {
            true => crate::credentials::unauthorized(reference, &self.message),
            false => self.message,
        };
        RegistryError::Registry {
            reference: reference.to_string(),
            what: what.to_owned(),
            message,
            transient: self.transient,
            unreachable: self.unreachable,
        }
    }
}

impl Wire {
    pub(crate) fn new(
        insecure: Vec<String>,
        token_hosts: Vec<String>,
        extra_roots: &[Vec<u8>],
        connect_timeout: Duration,
    ) -> Result<Wire, RegistryError> {
        let mut builder = reqwest::Client::builder()
            .connect_timeout(connect_timeout)
            .user_agent(concat!("mcp-wit/", env!("CARGO_PKG_VERSION")))
            // A redirect to another host (a blob store) is followed; the
            // Authorization header is not (reqwest drops it across hosts).
            .redirect(reqwest::redirect::Policy::limited(5));
        let mut roots = Vec::new();
        for pem in extra_roots {
            roots.push(
                reqwest::Certificate::from_pem(pem)
                    .map_err(|e| RegistryError::Trust(format!("a --registry-ca certificate cannot be used: {e}")))?,
            );
        }
        if !roots.is_empty() {
            builder = builder.tls_certs_merge(roots);
        }
        let http =
            builder.build().map_err(|e| RegistryError::Trust(format!("cannot set up the registry client: {e}")))?;
        Ok(Wire { http, insecure, token_hosts, grants: Default::default() })
    }

    /// `SCHEME://HOST` of `reference`'s registry (Docker Hub's API is not
    /// at `docker.io` itself).
    fn base(&self, reference: &ComponentRef) -> String {
        let insecure = self.insecure.iter().any(|r| r == reference.registry());
        let scheme = if insecure { "http" } else { "https" };
        format!("{scheme}://{}", reference.oci().resolve_registry())
    }

    /// What to present to `reference`'s registry to read (or, with `push`,
    /// write) its repository: nothing, when it asks for nothing; the
    /// credentials, when it asks for them itself (HTTP basic); a token from
    /// its token service, which gets the credentials only if it is on the
    /// registry's own host (or one given with --registry-token-host), and
    /// never over plain HTTP beyond this machine.
    pub(crate) async fn authorize(
        &self,
        reference: &ComponentRef,
        credentials: &RegistryAuth,
        push: bool,
    ) -> Result<RegistryAuth, RegistryError> {
        let registry = reference.registry();
        let key = (registry.to_owned(), reference.repository().to_owned(), push);
        let mut grants = self.grants.lock().await;
        if let Some((at, grant)) = grants.get(&key)
            && at.elapsed() < GRANT_REUSE
        {
            return Ok(grant.clone());
        }
        let what = "authenticate";
        let response = self
            .http
            .get(format!("{}/v2/", self.base(reference)))
            .send()
            .await
            .map_err(|e| request_failed(&e).into_error(reference, what))?;
        let challenge = response
            .headers()
            .get(reqwest::header::WWW_AUTHENTICATE)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        // Read (capped) and dropped: the connection is then reused.
        let _ = read_capped(response, Limit::ErrorBody).await;
        let grant = match challenge.as_deref().map(Challenge::parse) {
            None => RegistryAuth::Anonymous,
            Some(Challenge::Basic) => credentials.clone(),
            Some(Challenge::Bearer { realm, service }) => {
                let scope =
                    format!("repository:{}:{}", reference.repository(), if push { "pull,push" } else { "pull" });
                let token = self
                    .token(registry, &realm, service.as_deref(), &scope, credentials)
                    .await
                    .map_err(|failed| failed.into_error(reference, what))?;
                RegistryAuth::Bearer(token)
            }
            Some(Challenge::Other(scheme)) => {
                return Err(Failed::permanent(format!(
                    "the registry asks for {scheme} authentication, which mcp-wit does not speak (only basic and \
                     bearer tokens)"
                ))
                .into_error(reference, what));
            }
        };
        grants.insert(key, (Instant::now(), grant.clone()));
        Ok(grant)
    }

    /// A token for `scope` from the token service at `realm`, asked with
    /// the credentials only where they may go.
    async fn token(
        &self,
        registry: &str,
        realm: &str,
        service: Option<&str>,
        scope: &str,
        credentials: &RegistryAuth,
    ) -> Result<String, Failed> {
        let url = reqwest::Url::parse(realm)
            .map_err(|e| Failed::permanent(format!("the registry names a token service that is no URL ({e})")))?;
        let realm_host = url.host_str().unwrap_or_default().trim_start_matches('[').trim_end_matches(']');
        let mut request = self.http.get(url.clone()).query(&[("scope", scope)]);
        if let Some(service) = service {
            request = request.query(&[("service", service)]);
        }
        match (credentials, self.may_send_credentials(registry, &url)) {
            (RegistryAuth::Basic(user, password), Ok(())) => request = request.basic_auth(user, Some(password)),
            (RegistryAuth::Bearer(token), Ok(())) => request = request.bearer_auth(token),
            (RegistryAuth::Basic(..) | RegistryAuth::Bearer(_), Err(why)) => tracing::warn!(
                registry,
                token_service = %realm_host,
                "the registry's token service {realm_host} gets no credentials ({why}); a token is asked for \
                 anonymously"
            ),
            (RegistryAuth::Anonymous, _) => {}
        }
        let response = request.send().await.map_err(|e| request_failed(&e))?;
        let status = response.status();
        if !status.is_success() {
            let body = read_capped(response, Limit::ErrorBody).await.unwrap_or_default();
            let said = format!("the token service {realm_host} answered {status}: {}", error_text(&body));
            return Err(Failed::status(status, said));
        }
        let body = read_capped(response, Limit::Token).await.map_err(|failed| Failed {
            message: format!("the token service {realm_host}: {}", failed.message),
            ..failed
        })?;
        #[derive(serde::Deserialize)]
        struct Answer {
            token: Option<String>,
            access_token: Option<String>,
        }
        let answer: Answer = serde_json::from_slice(&body)
            .map_err(|e| Failed::permanent(format!("the token service {realm_host} answered no token: {e}")))?;
        answer
            .token
            .or(answer.access_token)
            .ok_or_else(|| Failed::permanent(format!("the token service {realm_host} answered no token")))
    }

    /// Whether the credentials for `registry` may go to the token service
    /// at `url`, or why not.
    fn may_send_credentials(&self, registry: &str, url: &reqwest::Url) -> Result<(), String> {
        let host = url.host_str().unwrap_or_default().trim_start_matches('[').trim_end_matches(']');
        let with_port = url.port().map_or_else(|| host.to_owned(), |port| format!("{host}:{port}"));
        let docker_hub = matches!(registry, "docker.io" | "index.docker.io" | "registry-1.docker.io");
        let own = host_of(registry) == host || (docker_hub && host == DOCKER_HUB_TOKEN_SERVICE);
        if !own && !self.token_hosts.iter().any(|allowed| *allowed == host || *allowed == with_port) {
            return Err(format!(
                "it is not the registry's own host {}: if it is the registry's token service, allow it with \
                 --registry-token-host {host}",
                host_of(registry)
            ));
        }
        if url.scheme() != "https" && !is_loopback_host(host) {
            return Err(format!("it is plain {}:// to another machine", url.scheme()));
        }
        Ok(())
    }

    /// `GET /v2/REPOSITORY/PATH` of `reference`'s registry, accepting
    /// `accept`, at most `limit` bytes; `None` for what it does not have
    /// (404).
    pub(crate) async fn get(
        &self,
        reference: &ComponentRef,
        path: &str,
        accept: &str,
        auth: &RegistryAuth,
        limit: Limit,
        what: &str,
    ) -> Result<Option<Vec<u8>>, RegistryError> {
        let url = format!("{}/v2/{}/{path}", self.base(reference), reference.repository());
        let request = self.http.get(url).header(reqwest::header::ACCEPT, accept);
        let request = match auth {
            RegistryAuth::Anonymous => request,
            RegistryAuth::Basic(user, password) => request.basic_auth(user, Some(password)),
            RegistryAuth::Bearer(token) => request.bearer_auth(token),
        };
        let response = request.send().await.map_err(|e| request_failed(&e).into_error(reference, what))?;
        let status = response.status();
        if !status.is_success() {
            let body = read_capped(response, Limit::ErrorBody).await.unwrap_or_default();
            if status == reqwest::StatusCode::NOT_FOUND {
                return Ok(None);
            }
            let failed = Failed::status(status, format!("the registry answered {status}: {}", error_text(&body)));
            return Err(failed.into_error(reference, what));
        }
        read_capped(response, limit).await.map(Some).map_err(|failed| failed.into_error(reference, what))
    }

    /// The blob `digest` of `reference`'s repository, declared `size`
    /// bytes (refused above `most`, before it is asked for): more than
    /// `size` stops the read, and the bytes must hash to `digest`.
    pub(crate) async fn blob(
        &self,
        reference: &ComponentRef,
        (digest, size): (&str, i64),
        most: u64,
        auth: &RegistryAuth,
        what: &str,
    ) -> Result<Vec<u8>, RegistryError> {
        let size = u64::try_from(size).unwrap_or(u64::MAX);
        if size > most {
            let message = format!("its descriptor declares {size} bytes, over the {most} it may have");
            return Err(Failed::permanent(message).into_error(reference, what));
        }
        let path = format!("blobs/{digest}");
        let found = self.get(reference, &path, "*/*", auth, Limit::Blob(size), what).await?;
        let bytes = found.ok_or_else(|| not_found(reference, what))?;
        if bytes.len() as u64 != size {
            let message = format!("the registry sent {} bytes, its descriptor declares {size}", bytes.len());
            return Err(Failed::permanent(message).into_error(reference, what));
        }
        let actual = crate::layout::sha256_digest(&bytes);
        if actual != digest {
            return Err(RegistryError::DigestMismatch { expected: digest.to_owned(), actual });
        }
        Ok(bytes)
    }
}

/// What a registry does not have, for `reference` and `what`.
pub(crate) fn not_found(reference: &ComponentRef, what: &str) -> RegistryError {
    Failed::permanent("no such tag, digest or repository".into()).into_error(reference, what)
}

/// The body of `response`, at most `limit` bytes: a `Content-Length` over
/// it is refused before anything is read, and a body that grows past it is
/// cut where it does.
async fn read_capped(mut response: reqwest::Response, limit: Limit) -> Result<Vec<u8>, Failed> {
    let most = limit.bytes();
    let over = || {
        Failed::permanent(match limit {
            Limit::Blob(_) => format!("the registry sent more than the {most} bytes the descriptor declares"),
            Limit::Manifest => format!("the registry sent more than {most} bytes, the most a manifest may have"),
            Limit::Token => format!("more than {most} bytes, the most a token answer may have"),
            Limit::ErrorBody => format!("more than {most} bytes, the most an error may have"),
        })
    };
    if response.content_length().is_some_and(|length| length > most) {
        return Err(over());
    }
    let mut body = Vec::with_capacity(response.content_length().unwrap_or(0) as usize);
    while let Some(chunk) = response.chunk().await.map_err(|e| request_failed(&e))? {
        if (body.len() + chunk.len()) as u64 > most {
            return Err(over());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// A `WWW-Authenticate` challenge, as far as registries use them.
enum Challenge {
    Basic,
    Bearer { realm: String, service: Option<String> },
    Other(String),
}

impl Challenge {
    fn parse(header: &str) -> Challenge {
        let challenges = http_auth::parse_challenges(header).unwrap_or_default();
        for challenge in &challenges {
            if challenge.scheme.eq_ignore_ascii_case("bearer") {
                let param = |name: &str| {
                    challenge
                        .params
                        .iter()
                        .find(|(key, _)| key.eq_ignore_ascii_case(name))
                        .map(|(_, v)| v.to_unescaped())
                };
                if let Some(realm) = param("realm") {
                    return Challenge::Bearer { realm, service: param("service") };
                }
            }
        }
        if challenges.iter().any(|c| c.scheme.eq_ignore_ascii_case("basic")) {
            return Challenge::Basic;
        }
        Challenge::Other(challenges.first().map_or_else(|| header.to_owned(), |c| c.scheme.to_owned()))
    }
}

/// The messages of an OCI error body (`{"errors": [{"message"…}]}`), else
/// its text, clipped: it is shown to the user, whatever the registry sent.
fn error_text(body: &[u8]) -> String {
    #[derive(serde::Deserialize)]
    struct Envelope {
        errors: Vec<Entry>,
    }
    #[derive(serde::Deserialize)]
    struct Entry {
        code: Option<String>,
        message: Option<String>,
    }
    let text = match serde_json::from_slice::<Envelope>(body) {
        Ok(envelope) => envelope
            .errors
            .iter()
            .map(|e| format!("{} ({})", e.message.as_deref().unwrap_or(""), e.code.as_deref().unwrap_or("")))
            .collect::<Vec<_>>()
            .join("; "),
        Err(_) => String::from_utf8_lossy(body).into_owned(),
    };
    const SHOWN: usize = 300;
    let text: String = text.chars().filter(|c| !c.is_control()).take(SHOWN).collect();
    if text.is_empty() { "(no message)".into() } else { text }
}

/// reqwest's error, with the cause it buries and a hint.
pub(crate) fn request_failed(error: &reqwest::Error) -> Failed {
    // The top-level text is "error sending request"; the cause (refused, a
    // certificate, …) is further down.
    let mut text = format!("{error}");
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    // TLS that cannot work (plain HTTP on the other side, a certificate not
    // trusted) fails the same way every time.
    let plain_http = text.contains("InvalidContentType") || text.contains("wrong version number");
    let tls = plain_http || text.contains("certificate") || text.contains("UnknownIssuer");
    if plain_http {
        text.push_str(" (a registry that speaks plain HTTP? --insecure-registry HOST:PORT)");
    }
    Failed {
        message: text,
        transient: !tls,
        unreachable: !tls && (error.is_connect() || error.is_timeout()),
        refused_credentials: false,
    }
}

/// The host of `HOST[:PORT]` (`[v6]:PORT` too).
pub(crate) fn host_of(registry: &str) -> &str {
    match registry.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => registry.rsplit_once(':').map_or(registry, |(host, _)| host),
    }
}

/// Whether `host` is this machine.
pub(crate) fn is_loopback_host(host: &str) -> bool {
    host == "localhost" || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_and_error_bodies_read_as_registries_write_them() {
        let bearer = r#"Bearer realm="https://auth.example/token",service="registry.example",scope="x""#;
        match Challenge::parse(bearer) {
            Challenge::Bearer { realm, service } => {
                assert_eq!(
                    (realm.as_str(), service.as_deref()),
                    ("https://auth.example/token", Some("registry.example"))
                )
            }
            _ => panic!("not read as bearer"),
        }
        assert!(matches!(Challenge::parse(r#"Basic realm="tests""#), Challenge::Basic));
        assert!(matches!(Challenge::parse("Negotiate"), Challenge::Other(scheme) if scheme == "Negotiate"));
        let body = br#"{"errors":[{"code":"DENIED","message":"no\nway"}]}"#;
        assert_eq!(error_text(body), "noway (DENIED)");
        assert_eq!(error_text(&[b'x'; 10_000]).len(), 300);
    }

    #[test]
    fn credentials_go_to_the_registrys_own_host_or_one_allowed_and_never_over_plain_http_beyond_this_machine() {
        let wire = |allowed: &[&str]| {
            let allowed = allowed.iter().map(|s| s.to_string()).collect();
            Wire::new(Vec::new(), allowed, &[], Duration::from_secs(1)).unwrap()
        };
        let url = |text: &str| reqwest::Url::parse(text).unwrap();
        let plain = wire(&[]);
        assert!(plain.may_send_credentials("registry.example", &url("https://registry.example/token")).is_ok());
        assert!(plain.may_send_credentials("registry.example:5000", &url("https://registry.example:5001/t")).is_ok());
        let elsewhere = plain.may_send_credentials("registry.example", &url("https://evil.example/token"));
        assert!(elsewhere.unwrap_err().contains("--registry-token-host evil.example"));
        let over_http = plain.may_send_credentials("registry.example", &url("http://registry.example/token"));
        assert!(over_http.unwrap_err().contains("plain http://"));
        assert!(plain.may_send_credentials("127.0.0.1:5000", &url("http://127.0.0.1:5001/token")).is_ok());
        let allowed = wire(&["auth.example"]);
        assert!(allowed.may_send_credentials("registry.example", &url("https://auth.example/token")).is_ok());
        assert!(allowed.may_send_credentials("registry.example", &url("http://auth.example/token")).is_err());
        assert!(plain.may_send_credentials("docker.io", &url("https://auth.docker.io/token")).is_ok());
    }
}
