//! Components from OCI registries, against a real registry (Debian's
//! `docker-registry` on 127.0.0.1) and a real peer on the other side
//! (wasmCloud's `wash oci`): `push`, `pull`, `serve`/`call`/`inspect`/`wrap`
//! by tag, by digest and offline, references in `mcp-wit.toml`,
//! credentials from the flag, the environment and the Docker config, and
//! what is refused.

use mcp_wit_tests::support;
use serde_json::json;
use support::peers::{Peer, run_peer};
use support::registry::{Client, LocalRegistry};
use support::schema::{self, Revision};
use support::{binary, fixture};

/// The `.wasm` of the fixture `name`, as a path argument.
fn fixture_file(name: &str) -> String {
    fixture(name).display().to_string()
}

/// The text `call`'s JSON result holds.
fn call_text(stdout: &str) -> String {
    let result: serde_json::Value = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text: {result}")).to_owned()
}

#[tokio::test]
async fn pushed_components_are_served_by_tag_by_digest_and_offline_and_wash_reads_them() {
    let registry = LocalRegistry::start();
    let host = registry.host.clone();
    let insecure = ["--insecure-registry", host.as_str()];
    let publisher = Client::new();
    let tag = registry.reference("tools/echo:1.0");
    let push = |client: &Client| {
        let mut command = client.command(&["push", &fixture_file("echo"), &tag, "--version", "1.0"]);
        command.args(["--description", "Echoes\nits text", "--source", "https://example.com/echo"]).args(insecure);
        // The same file and the same time: the same artifact.
        let output = command.env("SOURCE_DATE_EPOCH", "1764201600").output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    };
    let pinned = push(&publisher);
    assert!(pinned.starts_with(&format!("{host}/tools/echo@sha256:")), "{pinned}");
    assert_eq!(push(&publisher), pinned, "pushing the same file twice makes the same digest");

    // wash (wasmCloud) pulls exactly what was pushed…
    let dir = tempfile::tempdir().unwrap();
    let by_wash = dir.path().join("echo.wasm");
    let wash = |args: &[&str]| {
        let output = std::process::Command::new(support::peers::wash()).args(args).output().unwrap();
        assert!(output.status.success(), "wash {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    };
    wash(&["oci", "pull", "--insecure", &format!("{host}/tools/echo:1.0"), by_wash.to_str().unwrap()]);
    assert_eq!(std::fs::read(&by_wash).unwrap(), std::fs::read(fixture("echo")).unwrap());
    // …and what wash pushes is served here, by a client with an empty store,
    // over stdio to the Python SDK, named in mcp-wit.toml.
    wash(&["oci", "push", "--insecure", &format!("{host}/tools/everything:w"), &fixture_file("everything")]);
    let server = Client::new();
    let config = dir.path().join("mcp-wit.toml");
    let everything = registry.reference("tools/everything:w");
    std::fs::write(&config, format!("[[component]]\npath = {everything:?}\nconfig = [\"GREETING=Hi\"]\n")).unwrap();
    let cache_dir = server.cache_dir().display().to_string();
    let serve = ["--", &binary().display().to_string(), "serve", "-f", config.to_str().unwrap(), "--cache-dir"];
    let serve = [&serve[..], &[cache_dir.as_str()], &insecure[..]].concat();
    for (mode, revision) in [("auto", Revision::Modern), ("legacy", Revision::Legacy)] {
        let steps = ["--mode", mode, "--tool", "echo", "--args", r#"{"text":"from a registry"}"#];
        let run = run_peer(Peer::Python, steps.iter().chain(&serve).map(|s| s.to_string()).collect()).await;
        assert_eq!(run.report["call"]["content"][0]["text"], "from a registry", "{mode}: {}", run.report);
        for message in &run.trace {
            schema::check_at(revision, "JSONRPCMessage", message).unwrap();
        }
    }

    // A fresh client: by tag, then by digest; `wrap` takes a reference too.
    let client = Client::new();
    let echo = |reference: &str, extra: &[&str]| {
        let args = [&["call", reference, "echo", "--args", r#"{"text":"hi"}"#][..], extra].concat();
        call_text(&client.ok(&args))
    };
    assert_eq!(echo(&tag, &insecure), "hi");
    let wrapped = dir.path().join("wrapped.wasm");
    client.ok(&[&["wrap", &format!("oci://{pinned}"), "-o", wrapped.to_str().unwrap()][..], &insecure[..]].concat());
    assert!(wrapped.metadata().unwrap().len() > 0);

    // Offline: the digest from the store without a request, the tag as it
    // resolved last (with --pull never), or, by default, with a warning.
    drop(registry);
    assert_eq!(echo(&format!("oci://{pinned}"), &[]), "hi");
    assert_eq!(echo(&tag, &["--pull", "never"]), "hi");
    let output = client.run(&[&["call", &tag, "echo", "--args", r#"{"text":"hi"}"#][..], &insecure[..]].concat());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && stderr.contains("cannot be reached"), "{stderr}");
    let missing = client.fails(&["inspect", &format!("oci://{host}/tools/echo:2.0"), "--pull", "never"]);
    assert!(missing.contains("not in the local store") && missing.contains("mcp-wit pull"), "{missing}");

    // A damaged store is never run: fetched again, or refused offline.
    let blob = client.cache_dir().join("oci/blobs/sha256").join(fixture_sha256("echo"));
    std::fs::write(&blob, b"\0asm damaged").unwrap();
    let refused = client.fails(&["call", &format!("oci://{pinned}"), "echo", "--pull", "never"]);
    assert!(refused.contains("not in the local store"), "{refused}");
}

/// The hexadecimal SHA-256 of the fixture `name` (its layer's digest).
fn fixture_sha256(name: &str) -> String {
    let output = std::process::Command::new("sha256sum").arg(fixture(name)).output().unwrap();
    String::from_utf8(output.stdout).unwrap().split_whitespace().next().unwrap().to_owned()
}

#[test]
fn credentials_come_from_the_flag_the_environment_or_the_docker_config() {
    let registry = LocalRegistry::with_login("ci", "s3cret-token");
    let host = registry.host.clone();
    let tag = registry.reference("private/echo:1");
    let insecure = ["--insecure-registry", host.as_str()];
    let client = Client::new();
    let echo = fixture_file("echo");
    let push = |extra: &[&'static str]| [&["push", echo.as_str(), tag.as_str()][..], &insecure[..], extra].concat();

    let anonymous = client.fails(&push(&[]));
    assert!(anonymous.contains("not authorized") && !anonymous.contains("trying again"), "{anonymous}");
    assert!(
        anonymous.contains(&format!("docker login {host}")) && anonymous.contains("--registry-auth"),
        "{anonymous}"
    );
    let wrong = client.fails(&push(&["--registry-auth", "ci:wrong"]));
    assert!(!wrong.contains("wrong") || wrong.contains("--registry-auth"), "{wrong}");
    client.ok(&push(&["--registry-auth", "ci:s3cret-token"]));

    // The environment, for CI.
    let mut from_env = Client::new();
    from_env.env.push(("MCP_WIT_REGISTRY_AUTH".into(), "ci:s3cret-token".into()));
    assert_eq!(
        call_text(&from_env.ok(&[&["call", &tag, "echo", "--args", r#"{"text":"env"}"#][..], &insecure[..]].concat())),
        "env"
    );

    // The Docker config, as `docker login` leaves it.
    use base64::Engine;
    let docker = tempfile::tempdir().unwrap();
    let auth = base64::engine::general_purpose::STANDARD.encode("ci:s3cret-token");
    let config = json!({ "auths": { host.as_str(): { "auth": auth } } });
    std::fs::write(docker.path().join("config.json"), config.to_string()).unwrap();
    let mut from_docker = Client::new();
    from_docker.env.push(("DOCKER_CONFIG".into(), docker.path().display().to_string()));
    let stdout = from_docker.ok(&[&["pull", &tag][..], &insecure[..]].concat());
    assert!(stdout.trim().starts_with(&format!("{host}/private/echo@sha256:")), "{stdout}");
    // No password in any message.
    for stderr in [anonymous, wrong] {
        assert!(!stderr.contains("s3cret-token"), "{stderr}");
    }
}

#[test]
fn what_is_not_a_component_or_not_allowed_is_refused_with_what_to_do() {
    let registry = LocalRegistry::start();
    let host = registry.host.clone();
    let client = Client::new();
    let tag = registry.reference("tools/x:1");

    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not wasm").unwrap();
    let refused = client.fails(&["push", text.to_str().unwrap(), &tag, "--insecure-registry", &host]);
    assert!(refused.contains("not WebAssembly"), "{refused}");

    // Plain HTTP is for this machine unless asked for by name.
    let remote =
        client.fails(&["pull", "oci://registry.example:5000/x:1", "--insecure-registry", "registry.example:5000"]);
    assert!(remote.contains("--insecure-remote"), "{remote}");
    // A plain-HTTP registry reached over HTTPS: the hint, no retries.
    let https = client.fails(&["inspect", &tag]);
    assert!(https.contains("--insecure-registry HOST:PORT"), "{https}");
    assert!(!https.contains("trying again"), "a protocol mismatch is not retried: {https}");

    for (bad, why) in [("oci://", "names no repository"), ("oci://ghcr.io/x@sha256:abc", "not a registry reference")] {
        let error = client.fails(&["inspect", bad]);
        assert!(error.contains(why) && error.contains("oci://REGISTRY/REPOSITORY:TAG"), "{bad}: {error}");
    }
    let unknown = client.fails(&["inspect", &registry.reference("tools/none:1"), "--insecure-registry", &host]);
    assert!(unknown.contains("no such tag, digest or repository"), "{unknown}");
}

/// `args`, then the registry flags `insecure`.
fn with<'a>(insecure: &[&'a str], args: &[&'a str]) -> Vec<&'a str> {
    [args, insecure].concat()
}

/// A cosign key pair in `dir` (`NAME.key`, encrypted with `password`, and
/// `NAME.pub`), as `cosign generate-key-pair` writes it.
fn key_pair(dir: &std::path::Path, name: &str, password: &str) -> (String, String) {
    use sigstore::crypto::SigningScheme;
    let pair = SigningScheme::ECDSA_P256_SHA256_ASN1.create_signer().unwrap().to_sigstore_keypair().unwrap();
    let (private, public) = (dir.join(format!("{name}.key")), dir.join(format!("{name}.pub")));
    std::fs::write(&private, pair.private_key_to_encrypted_pem(password.as_bytes()).unwrap()).unwrap();
    std::fs::write(&public, pair.public_key_to_pem().unwrap()).unwrap();
    (private.display().to_string(), public.display().to_string())
}

#[tokio::test]
async fn a_key_signature_is_checked_on_the_digest_before_anything_loads() {
    let registry = LocalRegistry::start();
    let host = registry.host.clone();
    let insecure = ["--insecure-registry", host.as_str()];
    let dir = tempfile::tempdir().unwrap();
    let (alice_key, alice_pub) = key_pair(dir.path(), "alice", "pw");
    let (_, mallory_pub) = key_pair(dir.path(), "mallory", "pw");
    let mut client = Client::new();
    let tag = registry.reference("tools/echo:1");
    let pinned = client.ok(&with(&insecure, &["push", &fixture_file("echo"), &tag])).trim().to_owned();

    // Unsigned: refused, naming the reference, the digest and what failed.
    let unsigned = client.fails(&with(&insecure, &["call", &tag, "echo", "--verify-key", &alice_pub]));
    assert!(unsigned.contains(&pinned) && unsigned.contains("it is not signed"), "{unsigned}");

    // Signed with alice's key (its password as cosign takes it).
    client.env.push(("COSIGN_PASSWORD".into(), "wrong".into()));
    let refused = client.fails(&with(&insecure, &["sign", &tag, "--key", &alice_key]));
    assert!(refused.contains("COSIGN_PASSWORD"), "{refused}");
    client.env = vec![("COSIGN_PASSWORD".into(), "pw".into())];
    assert_eq!(client.ok(&with(&insecure, &["sign", &tag, "--key", &alice_key])).trim(), pinned);

    let verified = client.ok(&with(&insecure, &["verify", &tag, "--verify-key", &alice_pub]));
    assert!(verified.contains(&pinned) && verified.contains("verified: a signature by the key"), "{verified}");
    let listed = client.ok(&with(&insecure, &["verify", &tag]));
    assert!(listed.contains("1 signature(s)") && listed.contains("by a key"), "{listed}");
    let args = r#"{"text":"signed"}"#;
    let served = client.ok(&with(&insecure, &["call", &tag, "echo", "--args", args, "--verify-key", &alice_pub]));
    assert!(served.contains("signed"), "{served}");
    let wrong_key = client.fails(&with(&insecure, &["call", &tag, "echo", "--verify-key", &mallory_pub]));
    assert!(wrong_key.contains("none of its 1 signature(s) is a signature by the key"), "{wrong_key}");

    // The tag moved to another component: its digest is not signed; the
    // signed digest still is.
    client.ok(&with(&insecure, &["push", &fixture_file("everything"), &tag]));
    let moved = client.fails(&with(&insecure, &["verify", &tag, "--verify-key", &alice_pub]));
    assert!(moved.contains("it is not signed"), "{moved}");
    client.ok(&with(&insecure, &["verify", &format!("oci://{pinned}"), "--verify-key", &alice_pub]));

    // Required signatures: a local file never passes, nor a reference
    // without a key or identity to check it against.
    let local = client.fails(&["inspect", &fixture_file("echo"), "--require-signatures"]);
    assert!(local.contains("a local file carries no signature"), "{local}");
    let whose = client.fails(&with(&insecure, &["inspect", &tag, "--require-signatures"]));
    assert!(whose.contains("--verify-key FILE"), "{whose}");

    // mcp-wit.toml: a component's own `verify`, its key beside the file.
    std::fs::copy(&alice_pub, dir.path().join("trusted.pub")).unwrap();
    let config = dir.path().join("mcp-wit.toml");
    let write_config = |key: &str| {
        let text = format!("[[component]]\npath = \"oci://{pinned}\"\nverify = {{ key = {key:?} }}\n");
        std::fs::write(&config, text).unwrap();
    };
    write_config("trusted.pub");
    let cache_dir = client.cache_dir().display().to_string();
    let serve = ["--", &binary().display().to_string(), "serve", "-f", config.to_str().unwrap(), "--cache-dir"];
    let serve = [&serve[..], &[cache_dir.as_str()], &insecure[..]].concat();
    let steps = ["--mode", "auto", "--tool", "echo", "--args", r#"{"text":"verified"}"#];
    let run = run_peer(Peer::Python, steps.iter().chain(&serve).map(|s| s.to_string()).collect()).await;
    assert_eq!(run.report["call"]["content"][0]["text"], "verified", "{}", run.report);
    write_config("mallory.pub");
    let mut serve = std::process::Command::new(binary());
    serve.args(["serve", "-f", config.to_str().unwrap(), "--cache-dir", &cache_dir]).args(insecure);
    let output = serve.stdin(std::process::Stdio::null()).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && stderr.contains("mallory.pub"), "{stderr}");
}
