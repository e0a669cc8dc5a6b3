//! The public keys tokens are verified with, read from a JWKS (RFC 7517)
//! and each pinned to its algorithm family, so an RSA key never verifies an
//! HMAC token. Where the document comes from (a file, a URL, the
//! environment) is the transport's business.

use std::borrow::Borrow;

use jsonwebtoken::jwk::{Jwk, PublicKeyUse};
use jsonwebtoken::{Algorithm, AlgorithmFamily, DecodingKey};
use serde::Deserialize;

/// One signing key of a set.
pub struct VerifyingKey {
    kid: Option<String>,
    /// The algorithm the JWKS pins the key to, if it does.
    alg: Option<Algorithm>,
    key: DecodingKey,
}

impl VerifyingKey {
    fn fits(&self, alg: Algorithm) -> bool {
        self.key.family() == alg.family() && self.alg.is_none_or(|pinned| pinned == alg)
    }

    /// The key as `jsonwebtoken` takes it.
    pub(crate) fn decoding_key(&self) -> &DecodingKey {
        &self.key
    }
}

/// The signing keys of a JWKS document; keys of other kinds (encryption,
/// symmetric, unknown types) are left out.
pub fn parse_jwks(bytes: &[u8]) -> Result<Vec<VerifyingKey>, String> {
    #[derive(Deserialize)]
    struct Document {
        keys: Vec<serde_json::Value>,
    }
    let document: Document =
        serde_json::from_slice(bytes).map_err(|e| format!("not a JWKS (a JSON object with `keys`): {e}"))?;
    let mut keys = Vec::new();
    for value in document.keys {
        let Ok(jwk) = serde_json::from_value::<Jwk>(value) else { continue };
        if matches!(jwk.common.public_key_use, Some(PublicKeyUse::Encryption | PublicKeyUse::Other(_))) {
            continue;
        }
        let Ok(key) = DecodingKey::from_jwk(&jwk) else { continue };
        if key.family() == AlgorithmFamily::Hmac {
            // A shared secret has no place in a public key set.
            continue;
        }
        let alg = jwk.common.key_algorithm.and_then(|alg| alg.to_string().parse::<Algorithm>().ok());
        keys.push(VerifyingKey { kid: jwk.common.key_id, alg, key });
    }
    Ok(keys)
}

/// The key of `keys` for a token whose header names `kid` and `alg`; the
/// error says why none is.
pub fn find_key<'k, K: Borrow<VerifyingKey>>(
    keys: &'k [K],
    kid: Option<&str>,
    alg: Algorithm,
) -> Result<&'k K, String> {
    match kid {
        Some(kid) => match keys.iter().find(|key| view(*key).kid.as_deref() == Some(kid)) {
            Some(key) if Borrow::<VerifyingKey>::borrow(key).fits(alg) => Ok(key),
            Some(_) => Err(format!("key {kid:?} is not a key for {alg:?}")),
            None => Err(format!("no key {kid:?} among the issuer's {} keys", keys.len())),
        },
        None => {
            let mut fitting = keys.iter().filter(|key| view(*key).fits(alg));
            match (fitting.next(), fitting.next()) {
                (Some(key), None) => Ok(key),
                (None, _) => Err(format!("no {alg:?} key among the issuer's keys")),
                (Some(_), Some(_)) => Err("the token names no key id (`kid`) and several keys fit".into()),
            }
        }
    }
}

fn view<K: Borrow<VerifyingKey>>(key: &K) -> &VerifyingKey {
    key.borrow()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_signing_keys() {
        let jwks = br#"{"keys":[
            {"kty":"oct","k":"c2VjcmV0","kid":"hmac"},
            {"kty":"EC","crv":"P-256","kid":"enc","use":"enc",
             "x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
            {"kty":"EC","crv":"P-256","kid":"sig","alg":"ES256",
             "x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
            {"kty":"unknown","kid":"future"}
        ]}"#;
        let keys = parse_jwks(jwks).unwrap();
        assert_eq!(keys.len(), 1);
        assert!(find_key(&keys, Some("sig"), Algorithm::ES256).is_ok());
        assert!(find_key(&keys, None, Algorithm::ES256).is_ok());
        assert!(find_key(&keys, Some("sig"), Algorithm::ES384).is_err());
        assert!(find_key(&keys, Some("sig"), Algorithm::RS256).is_err());
        assert!(find_key(&keys, Some("hmac"), Algorithm::HS256).is_err());
        assert!(parse_jwks(b"[]").is_err());
    }
}
