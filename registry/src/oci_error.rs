//! What a registry answered, as a [`RegistryError`] naming the reference
//! it was about and saying what to do.

use oci_client::errors::{OciDistributionError, OciErrorCode};

use crate::credentials::unauthorized;
use crate::error::RegistryError;
use crate::reference::ComponentRef;
use crate::wire;

impl RegistryError {
    /// A refusal of the artifact, naming the reference.
    pub(crate) fn for_reference(self, reference: &ComponentRef) -> RegistryError {
        match self {
            RegistryError::NotAWasmArtifact(why) => {
                RegistryError::NotAWasmArtifact(format!("{reference} is not a Wasm component artifact: {why}"))
            }
            other => other,
        }
    }

    /// oci-client's error, with the cause it buries and a hint.
    pub(crate) fn from_oci(reference: &ComponentRef, what: &str, error: OciDistributionError) -> RegistryError {
        let (mut transient, mut unreachable) = (false, false);
        let message = match &error {
            OciDistributionError::RequestError(e) => {
                let failed = wire::request_failed(e);
                (transient, unreachable) = (failed.transient, failed.unreachable);
                let text = failed.message;
                // A status the registry answered: only 5xx may pass.
                if let Some(status) = e.status() {
                    transient = status.is_server_error();
                    if matches!(status.as_u16(), 401 | 403) {
                        return RegistryError::Registry {
                            reference: reference.to_string(),
                            what: what.to_owned(),
                            message: unauthorized(reference, &format!("the registry answered {status}")),
                            transient: false,
                            unreachable: false,
                        };
                    }
                }
                text
            }
            OciDistributionError::ServerError { code, message, .. } => {
                transient = *code >= 500;
                format!("the registry answered {code}: {message}")
            }
            OciDistributionError::UnauthorizedError { .. } | OciDistributionError::AuthenticationFailure(_) => {
                unauthorized(reference, &error.to_string())
            }
            OciDistributionError::ImageManifestNotFoundError(_) => "no such tag or digest in the repository".into(),
            OciDistributionError::RegistryError { envelope, .. } => {
                let codes: Vec<String> =
                    envelope.errors.iter().map(|e| format!("{} ({})", e.message, code_name(&e.code))).collect();
                if envelope
                    .errors
                    .iter()
                    .any(|e| matches!(e.code, OciErrorCode::ManifestUnknown | OciErrorCode::NameUnknown))
                {
                    format!("no such tag, digest or repository: {}", codes.join("; "))
                } else if envelope
                    .errors
                    .iter()
                    .any(|e| matches!(e.code, OciErrorCode::Unauthorized | OciErrorCode::Denied))
                {
                    unauthorized(reference, &codes.join("; "))
                } else {
                    codes.join("; ")
                }
            }
            _ => format!("{error}"),
        };
        RegistryError::Registry {
            reference: reference.to_string(),
            what: what.to_owned(),
            message,
            transient,
            unreachable,
        }
    }
}

fn code_name(code: &OciErrorCode) -> String {
    format!("{code:?}")
}
