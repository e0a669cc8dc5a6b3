//! The authorization server these tests stand in for: its signing keys, its
//! discovery metadata and JWKS on 127.0.0.1 (which the tests take down, slow
//! down and rotate), and the claims of a good token.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A signing key of the authorization server.
#[derive(Clone)]
pub(super) struct Key {
    pub(super) kid: String,
    alg: Algorithm,
    encoding: EncodingKey,
    pub(super) jwk: Value,
}

impl Key {
    pub(super) fn es256(kid: &str) -> Key {
        use p256::pkcs8::{EncodePrivateKey, LineEnding};
        let secret = p256::SecretKey::random(&mut rand_core::OsRng);
        let pem = secret.to_pkcs8_pem(LineEnding::LF).unwrap();
        Key::from_encoding(kid, Algorithm::ES256, EncodingKey::from_ec_pem(pem.as_bytes()).unwrap())
    }

    pub(super) fn rs256(kid: &str) -> Key {
        Key::from_encoding(kid, Algorithm::RS256, EncodingKey::from_rsa_pem(rsa_pem().0.as_bytes()).unwrap())
    }

    fn from_encoding(kid: &str, alg: Algorithm, encoding: EncodingKey) -> Key {
        let mut jwk = Jwk::from_encoding_key(&encoding, alg).unwrap();
        jwk.common.key_id = Some(kid.to_string());
        Key { kid: kid.into(), alg, encoding, jwk: serde_json::to_value(jwk).unwrap() }
    }

    /// `claims`, signed with this key.
    pub(super) fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(self.alg);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.encoding).unwrap()
    }
}

/// One RSA key per run (private PKCS#1 PEM, public PEM): making one takes a while.
pub(super) fn rsa_pem() -> &'static (String, String) {
    static PEM: OnceLock<(String, String)> = OnceLock::new();
    PEM.get_or_init(|| {
        use rsa::pkcs1::{EncodeRsaPrivateKey, EncodeRsaPublicKey, LineEnding};
        let private = rsa::RsaPrivateKey::new(&mut rand_core::OsRng, 2048).unwrap();
        let public = private.to_public_key();
        (private.to_pkcs1_pem(LineEnding::LF).unwrap().to_string(), public.to_pkcs1_pem(LineEnding::LF).unwrap())
    })
}

/// How the authorization server's endpoints behave.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Serving {
    Up,
    Down,
    Slow(Duration),
}

struct IssuerState {
    keys: Vec<Key>,
    serving: Serving,
    jwks_fetches: usize,
}

/// An authorization server's discovery metadata and JWKS on 127.0.0.1.
#[derive(Clone)]
pub(super) struct Issuer {
    pub(super) url: String,
    state: Arc<Mutex<IssuerState>>,
}

impl Issuer {
    pub(super) async fn start(keys: Vec<Key>) -> Issuer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(Mutex::new(IssuerState { keys, serving: Serving::Up, jwks_fetches: 0 }));
        let issuer = Issuer { url: url.clone(), state: state.clone() };
        let metadata_issuer = issuer.clone();
        let jwks_issuer = issuer.clone();
        let app = axum::Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                axum::routing::get(move || {
                    let issuer = metadata_issuer.clone();
                    async move {
                        let serving = issuer.state.lock().unwrap().serving;
                        issuer.behave(serving).await?;
                        Ok::<_, StatusCode>(json_body(json!({
                            "issuer": issuer.url,
                            "jwks_uri": format!("{}/jwks", issuer.url),
                            "authorization_endpoint": format!("{}/authorize", issuer.url),
                            "token_endpoint": format!("{}/token", issuer.url),
                            "response_types_supported": ["code"],
                        })))
                    }
                }),
            )
            .route(
                "/jwks",
                axum::routing::get(move || {
                    let issuer = jwks_issuer.clone();
                    async move {
                        let (serving, keys) = {
                            let mut state = issuer.state.lock().unwrap();
                            state.jwks_fetches += 1;
                            (state.serving, state.keys.iter().map(|k| k.jwk.clone()).collect::<Vec<_>>())
                        };
                        issuer.behave(serving).await?;
                        Ok::<_, StatusCode>(json_body(json!({ "keys": keys })))
                    }
                }),
            );
        tokio::spawn(async move { axum::serve(listener, app).await });
        issuer
    }

    async fn behave(&self, serving: Serving) -> Result<(), StatusCode> {
        match serving {
            Serving::Up => Ok(()),
            Serving::Down => Err(StatusCode::SERVICE_UNAVAILABLE),
            Serving::Slow(wait) => {
                tokio::time::sleep(wait).await;
                Ok(())
            }
        }
    }

    pub(super) fn serve(&self, serving: Serving) {
        self.state.lock().unwrap().serving = serving;
    }

    pub(super) fn add_key(&self, key: Key) {
        self.state.lock().unwrap().keys.push(key);
    }

    pub(super) fn fetches(&self) -> usize {
        self.state.lock().unwrap().jwks_fetches
    }
}

fn json_body(value: Value) -> ([(&'static str, &'static str); 1], String) {
    ([("content-type", "application/json")], value.to_string())
}

/// GETs `url` and reads its JSON body.
pub(super) async fn get_json(url: &str) -> Value {
    let text = reqwest::get(url).await.unwrap().text().await.unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{url}: not JSON ({e}): {text}"))
}

pub(super) fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

/// The claims of a good token for `resource`: `subject`, `scope`, valid for
/// five minutes.
pub(super) fn claims(issuer: &Issuer, resource: &str, subject: &str, scope: &str) -> Value {
    json!({
        "iss": issuer.url,
        "sub": subject,
        "aud": resource,
        "client_id": "test-client",
        "scope": scope,
        "iat": now(),
        "exp": now() + 300,
    })
}
