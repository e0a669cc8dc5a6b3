//! Secret values masked as `[redacted]` in every form they take in a log
//! line or a span.
//!
//! A secret reaches a log escaped as often as not: `--log-arguments` logs
//! JSON text (a `"` in the secret is `\"` there), the text log format
//! quotes field values Rust's way, the JSON log format escapes once more
//! what was already escaped. A [`Redactor`] matches the raw value and each
//! of those forms in one pass ([`aho_corasick`]), and tells where a stream
//! cut into lines may be cut without splitting one ([`Redactor::safe_cut`]).
//!
//! [`mask_in_logs`] adds secrets to the process's own redactor, which
//! [`MaskedWriter`] applies to every line a `tracing` subscriber writes:
//! host warnings that quote guest data are masked too, wherever they are
//! made.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::io::Write;
use std::sync::{Arc, LazyLock, Mutex, RwLock};

use aho_corasick::{AhoCorasick, MatchKind};

use crate::sync::lock;

/// What a secret is replaced with.
pub const MASK: &str = "[redacted]";

/// The shortest secret value masked: shorter ones would garble every line
/// they occur in by chance.
pub const MIN_REDACTED: usize = 4;

/// Masks a set of secret values, raw and escaped.
#[derive(Default)]
pub struct Redactor {
    /// The values, as given (those long enough to be masked).
    secrets: Vec<String>,
    /// Every form of every value; `None` when there is none.
    forms: Option<AhoCorasick>,
    /// Bytes of the longest form.
    longest: usize,
}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the values.
        f.debug_struct("Redactor").field("secrets", &self.secrets.len()).finish()
    }
}

impl Redactor {
    /// Masks `secrets` (values shorter than [`MIN_REDACTED`] bytes are
    /// left alone).
    pub fn new(secrets: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let mut secrets: Vec<String> =
            secrets.into_iter().map(Into::into).filter(|s| s.len() >= MIN_REDACTED).collect();
        secrets.sort();
        secrets.dedup();
        let forms: BTreeSet<String> = secrets.iter().flat_map(|secret| forms_of(secret)).collect();
        let longest = forms.iter().map(String::len).max().unwrap_or(0);
        // Leftmost-longest: a secret that contains another is masked whole.
        let forms = (!forms.is_empty()).then(|| {
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .build(&forms)
                .expect("a few literal patterns always build")
        });
        Redactor { secrets, forms, longest }
    }

    /// Whether nothing is masked.
    pub fn is_empty(&self) -> bool {
        self.forms.is_none()
    }

    /// The values masked.
    pub fn secrets(&self) -> &[String] {
        &self.secrets
    }

    /// `text` with every secret, in every form, as [`MASK`].
    pub fn mask<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match &self.forms {
            Some(forms) if forms.is_match(text) => {
                let mut masked = String::with_capacity(text.len());
                forms.replace_all_with(text, &mut masked, |_, _, out| {
                    out.push_str(MASK);
                    true
                });
                Cow::Owned(masked)
            }
            _ => Cow::Borrowed(text),
        }
    }

    /// [`Redactor::mask`] for bytes that may not be UTF-8.
    pub fn mask_bytes<'a>(&self, bytes: &'a [u8]) -> Cow<'a, [u8]> {
        match &self.forms {
            Some(forms) if forms.is_match(bytes) => {
                let mut masked = Vec::with_capacity(bytes.len());
                forms.replace_all_with_bytes(bytes, &mut masked, |_, _, out| {
                    out.extend_from_slice(MASK.as_bytes());
                    true
                });
                Cow::Owned(masked)
            }
            _ => Cow::Borrowed(bytes),
        }
    }

    /// Where `bytes`, the start of a stream, may be cut so that no secret
    /// is split between what comes before the cut and what comes after:
    /// before the last bytes that may begin a secret still incomplete, and
    /// never inside one found whole.
    pub fn safe_cut(&self, bytes: &[u8]) -> usize {
        let Some(forms) = &self.forms else { return bytes.len() };
        let mut cut = bytes.len().saturating_sub(self.longest - 1);
        if let Some(straddling) = forms.find_iter(bytes).find(|m| m.start() < cut && cut < m.end()) {
            cut = straddling.end();
        }
        cut
    }
}

/// The forms `secret` takes in logs: itself, escaped as a JSON string and
/// as a Rust `Debug` string, and each of those escaped once more (a JSON
/// log line of a field that holds JSON text).
fn forms_of(secret: &str) -> Vec<String> {
    fn json(text: &str) -> String {
        let quoted = serde_json::to_string(text).expect("a string serialises");
        quoted[1..quoted.len() - 1].to_string()
    }
    fn debug(text: &str) -> String {
        let quoted = format!("{text:?}");
        quoted[1..quoted.len() - 1].to_string()
    }
    // The text log format writes control characters as Rust escapes and
    // leaves the rest alone.
    // As the text log format writes it (`telemetry::escape_controls`, which
    // this module cannot call: telemetry imports this one).
    let controls: String =
        secret.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() }).collect();
    let once = [secret.to_string(), json(secret), debug(secret), controls];
    let twice = [json(&once[1]), debug(&once[1]), json(&once[2]), debug(&once[2])];
    // A secret of several lines (a PEM key) is logged a line at a time
    // when a guest prints it: each line long enough is masked too.
    let lines = secret.lines().filter(|line| line.len() >= MIN_REDACTED && line.len() < secret.len());
    once.into_iter().chain(twice).chain(lines.map(str::to_string)).collect()
}

/// The secrets every log line is masked of (see [`mask_in_logs`]).
fn logged() -> &'static RwLock<Arc<Redactor>> {
    static LOGGED: LazyLock<RwLock<Arc<Redactor>>> = LazyLock::new(RwLock::default);
    &LOGGED
}

/// Adds `secrets` to those masked in every line a [`MaskedWriter`] writes
/// (a server's `--secret` values, as it loads them and at each reload:
/// earlier ones stay masked, their old instances may still print them).
pub fn mask_in_logs(secrets: &[String]) {
    static SERIAL: Mutex<()> = Mutex::new(());
    let _one_at_a_time = lock(&SERIAL);
    let current = logs_redactor();
    if secrets.iter().all(|s| s.len() < MIN_REDACTED || current.secrets.contains(s)) {
        return;
    }
    let all = current.secrets.iter().chain(secrets).cloned();
    *logged().write().unwrap_or_else(|e| e.into_inner()) = Arc::new(Redactor::new(all));
}

/// The redactor [`MaskedWriter`] applies.
pub fn logs_redactor() -> Arc<Redactor> {
    logged().read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// A writer for a `tracing` subscriber that masks, in each line it is
/// given, the secrets given to [`mask_in_logs`] before passing it on:
/// `fmt().with_writer(|| MaskedWriter(mcp_wit::stderr::writer()))`.
pub struct MaskedWriter<W>(pub W);

impl<W: Write> Write for MaskedWriter<W> {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        let redactor = logs_redactor();
        match redactor.mask_bytes(line) {
            Cow::Borrowed(line) => self.0.write(line),
            Cow::Owned(masked) => {
                // The caller's bytes were all taken, in their masked form.
                self.0.write_all(&masked)?;
                Ok(line.len())
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_is_masked_raw_and_in_each_escaped_form() {
        let redactor = Redactor::new([r#"pa"ss\word"#, "abc"]);
        assert_eq!(redactor.secrets(), [r#"pa"ss\word"#], "too short to mask: abc");
        for line in [
            r#"raw pa"ss\word here"#,
            r#"{"arguments":"{\"token\":\"pa\"ss\\word\"}"}"#,
            r#"arguments="pa\"ss\\word""#,
            r#"{"message":"arguments=\"pa\\\"ss\\\\word\""}"#,
        ] {
            let masked = redactor.mask(line);
            assert!(masked.contains(MASK), "{line} -> {masked}");
            assert!(!masked.contains("word"), "{line} -> {masked}");
        }
        assert_eq!(redactor.mask("abc nothing"), "abc nothing");
    }

    #[test]
    fn a_cut_never_splits_a_secret() {
        let redactor = Redactor::new(["s3cr3t-value"]);
        let line = b"....s3cr3t-val";
        // The incomplete secret at the end stays for the next piece.
        assert_eq!(redactor.safe_cut(line), 3);
        // A whole one across the cut: the cut moves past it.
        let whole = b"xxxxxxxxxxxxxxxxxxxxs3cr3t-value";
        assert_eq!(redactor.safe_cut(whole), whole.len());
        assert_eq!(Redactor::new(Vec::<String>::new()).safe_cut(line), line.len());
    }

    #[test]
    fn the_masked_writer_masks_the_secrets_given_for_logs() {
        mask_in_logs(&["hunter2-log-secret".to_string()]);
        let mut written = Vec::new();
        let line = b"WARN the guest said hunter2-log-secret\n";
        let taken = MaskedWriter(&mut written).write(line).unwrap();
        assert_eq!(taken, line.len());
        assert_eq!(String::from_utf8(written).unwrap(), "WARN the guest said [redacted]\n");
    }
}
