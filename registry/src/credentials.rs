//! Who the client is at a registry: credentials given to the command (a CI
//! token), else those `docker login` (or podman) left in the Docker config
//! and its credential helpers, else anonymous.

use std::time::Duration;

use oci_client::secrets::RegistryAuth;

use crate::RegistryError;
use crate::reference::ComponentRef;

/// Credentials given explicitly (`--registry-auth [REGISTRY=]USER:PASSWORD`,
/// or the `MCP_WIT_REGISTRY_AUTH` variable), for one registry: the one
/// they name, else the one a command binds them to ([`Self::bound_to`]).
/// Never sent to any other (a third-party registry, another host's token
/// service).
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    registry: Option<String>,
    username: String,
    password: String,
}

impl Credentials {
    /// Parses `USER:PASSWORD`, or `REGISTRY=USER:PASSWORD` for the
    /// registry (as references write it: `ghcr.io`, `HOST:PORT`) they are
    /// for. The password may hold `:` and `=`; a token goes where the
    /// password does, with the user name the registry expects (e.g. any
    /// name for GitHub's).
    pub fn parse(text: &str) -> Result<Credentials, String> {
        let (registry, login) = match text.split_once('=') {
            // `=` before the first `:` of a registry's own port, or with no
            // `:` before it at all: a registry named.
            Some((registry, login)) if is_registry_name(registry) && login.contains(':') => {
                (Some(registry.to_owned()), login)
            }
            _ => (None, text),
        };
        match login.split_once(':') {
            Some((username, password)) if !username.is_empty() && !password.is_empty() => {
                Ok(Credentials { registry, username: username.to_owned(), password: password.to_owned() })
            }
            _ => Err("expected USER:PASSWORD or REGISTRY=USER:PASSWORD (for a token: USER:TOKEN)".into()),
        }
    }

    /// The registry they are for, if named.
    pub fn registry(&self) -> Option<&str> {
        self.registry.as_deref()
    }

    /// These credentials, for `registry` when they name none.
    pub fn bound_to(&self, registry: &str) -> Credentials {
        Credentials { registry: Some(self.registry.clone().unwrap_or_else(|| registry.to_owned())), ..self.clone() }
    }
}

/// Whether `text` is a registry as references write it (`HOST[:PORT]`),
/// not the start of a user name.
fn is_registry_name(text: &str) -> bool {
    let (host, port) = match text.rsplit_once(':') {
        Some((host, port)) if !host.ends_with(']') || host.starts_with('[') => (host, Some(port)),
        _ => (text, None),
    };
    let host_ok =
        !host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '[' | ']' | ':'));
    host_ok && port.is_none_or(|port| !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()))
}

impl std::fmt::Debug for Credentials {
    // Never the password, whatever prints the settings.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("registry", &self.registry)
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

/// How long a credential helper may take before it is given up on.
const HELPER_TIMEOUT: Duration = Duration::from_secs(30);

/// The credentials for `registry`: `explicit` when given for it, else the
/// Docker config's, else anonymous. A helper that fails or hangs is an
/// error that names it: pulling anonymously instead would hide why a
/// private component is "not found".
pub async fn for_registry(registry: &str, explicit: Option<&Credentials>) -> Result<RegistryAuth, RegistryError> {
    if let Some(given) = explicit.filter(|given| given.registry() == Some(registry)) {
        return Ok(RegistryAuth::Basic(given.username.clone(), given.password.clone()));
    }
    let server = docker_config_key(registry).to_owned();
    let lookup = tokio::task::spawn_blocking(move || docker_credential::get_credential(&server));
    let found = match tokio::time::timeout(HELPER_TIMEOUT, lookup).await {
        Ok(Ok(found)) => found,
        Ok(Err(panicked)) => return Err(credential_error(registry, format!("the lookup failed: {panicked}"))),
        Err(_) => {
            return Err(credential_error(
                registry,
                format!("its credential helper did not answer in {} s", HELPER_TIMEOUT.as_secs()),
            ));
        }
    };
    use docker_credential::{CredentialRetrievalError as Missing, DockerCredential};
    match found {
        Ok(DockerCredential::UsernamePassword(username, password)) => Ok(RegistryAuth::Basic(username, password)),
        Ok(DockerCredential::IdentityToken(_)) => Err(credential_error(
            registry,
            "the Docker config holds an identity token (an OAuth refresh token), which mcp-wit cannot exchange: \
             log in with a user name and password or token, or pass --registry-auth USER:TOKEN"
                .into(),
        )),
        // Nothing configured for this registry: anonymous, as docker pulls.
        Err(Missing::ConfigNotFound | Missing::ConfigReadError | Missing::NoCredentialConfigured) => {
            Ok(RegistryAuth::Anonymous)
        }
        Err(other) => Err(credential_error(registry, format!("{other}"))),
    }
}

/// The Docker config's key for `registry`: Docker Hub's is its historic URL.
fn docker_config_key(registry: &str) -> &str {
    match registry {
        "docker.io" | "index.docker.io" | "registry-1.docker.io" => "https://index.docker.io/v1/",
        other => other,
    }
}

fn credential_error(registry: &str, why: String) -> RegistryError {
    RegistryError::Credentials { registry: registry.to_owned(), why }
}

/// A refusal of the credentials (or their absence), with what to do.
pub(crate) fn unauthorized(reference: &ComponentRef, said: &str) -> String {
    format!(
        "not authorized ({said}): log in with `docker login {0}`, or pass --registry-auth {0}=USER:PASSWORD",
        reference.registry()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_credentials_parse_and_never_print_the_password() {
        let given = Credentials::parse("ci:s3cr:et=").unwrap();
        assert_eq!((given.username.as_str(), given.password.as_str(), given.registry()), ("ci", "s3cr:et=", None));
        assert!(!format!("{given:?}").contains("s3cr"));
        for bad in ["", "user", ":pw", "user:", "ghcr.io=ci", "ghcr.io=:pw"] {
            assert!(Credentials::parse(bad).is_err(), "{bad}");
        }
        for (text, registry) in [("ghcr.io=ci:tok=en", "ghcr.io"), ("127.0.0.1:5000=ci:pw", "127.0.0.1:5000")] {
            let scoped = Credentials::parse(text).unwrap();
            assert_eq!(scoped.registry(), Some(registry), "{text}");
            assert_eq!(scoped.bound_to("other.example").registry(), Some(registry), "a named registry stays");
        }
        assert_eq!(Credentials::parse("ci:pw").unwrap().bound_to("ghcr.io").registry(), Some("ghcr.io"));
        // A user name with `=` in the unscoped form: no registry is a name
        // with a `:` that is not a port.
        assert_eq!(Credentials::parse("ci:p=w").unwrap().registry(), None);
    }
}
