//! Components from OCI registries, against a real registry (Debian's
//! `docker-registry` on 127.0.0.1) and a real peer on the other side
//! (wasmCloud's `wash oci`): `push`, `pull`, `serve`/`call`/`inspect`/`wrap`
//! by tag, by digest and offline, references in `mcp-wit.toml`,
//! credentials from the flag, the environment and the Docker config, and
//! what is refused.

use mcp_wit_registry::layout::sha256_digest as digest_of;
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
    digest_of(&std::fs::read(fixture(name)).unwrap())["sha256:".len()..].to_owned()
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
    // A credential helper (`credHelpers`, as `docker login` with a
    // credential store leaves it), found on PATH; one that fails is named.
    use std::os::unix::fs::PermissionsExt;
    let helpers = tempfile::tempdir().unwrap();
    let helper = |name: &str, body: &str| {
        let script = helpers.path().join(format!("docker-credential-{name}"));
        std::fs::write(&script, format!("#!/bin/sh\ncat >/dev/null\n{body}\n")).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    helper("mcpwittest", r#"echo '{"ServerURL":"x","Username":"ci","Secret":"s3cret-token"}'"#);
    helper("locked", "echo 'the keychain is locked' >&2; exit 1");
    let path = format!("{}:{}", helpers.path().display(), std::env::var("PATH").unwrap_or_default());
    let with_helper = |name: &str| {
        let dir = tempfile::tempdir().unwrap();
        let config = json!({ "credHelpers": { host.as_str(): name } });
        std::fs::write(dir.path().join("config.json"), config.to_string()).unwrap();
        let mut client = Client::new();
        client.env.push(("DOCKER_CONFIG".into(), dir.path().display().to_string()));
        client.env.push(("PATH".into(), path.clone()));
        (client, dir)
    };
    let (from_helper, _dir) = with_helper("mcpwittest");
    from_helper.ok(&[&["pull", &tag][..], &insecure[..]].concat());
    let (locked, _dir) = with_helper("locked");
    let failed = locked.fails(&[&["pull", &tag][..], &insecure[..]].concat());
    assert!(failed.contains(&format!("cannot get credentials for {host}")), "{failed}");
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

/// `mcp-wit keygen` in `dir` (`NAME.key` encrypted with `password`,
/// `NAME.pub`); it refuses to write over them a second time.
fn keygen(client: &mut Client, dir: &std::path::Path, name: &str, password: &str) -> (String, String) {
    let prefix = dir.join(name).display().to_string();
    client.env = vec![("COSIGN_PASSWORD".into(), password.into())];
    client.ok(&["keygen", "--output-key-prefix", &prefix]);
    let (private, public) = (format!("{prefix}.key"), format!("{prefix}.pub"));
    let pem = std::fs::read_to_string(&private).unwrap();
    assert!(pem.starts_with("-----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY-----"), "{pem}");
    assert!(std::fs::read_to_string(&public).unwrap().starts_with("-----BEGIN PUBLIC KEY-----"));
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(std::fs::metadata(&private).unwrap().permissions().mode() & 0o777, 0o600, "owner only");
    let again = client.fails(&["keygen", "--output-key-prefix", &prefix]);
    assert!(again.contains("exists") && again.contains("never replaced"), "{again}");
    assert_eq!(std::fs::read_to_string(&private).unwrap(), pem, "the key is kept");
    client.env.clear();
    (private, public)
}

#[tokio::test]
async fn a_key_signature_is_checked_on_the_digest_before_anything_loads() {
    let registry = LocalRegistry::start();
    let host = registry.host.clone();
    let insecure = ["--insecure-registry", host.as_str()];
    let dir = tempfile::tempdir().unwrap();
    let mut client = Client::new();
    // Alice's pair made by `mcp-wit keygen` (no cosign), mallory's by sigstore.
    let (alice_key, alice_pub) = keygen(&mut client, dir.path(), "alice", "pw");
    let (_, mallory_pub) = key_pair(dir.path(), "mallory", "pw");
    let tag = registry.reference("tools/echo:1");
    let pinned = client.ok(&with(&insecure, &["push", &fixture_file("echo"), &tag])).trim().to_owned();

    // Unsigned: refused, naming the reference, the digest and what failed.
    let unsigned = client.fails(&with(&insecure, &["call", &tag, "echo", "--verify-key", &alice_pub]));
    assert!(unsigned.contains(&pinned) && unsigned.contains("it is not signed"), "{unsigned}");
    // The verdict alone: not sigstore's warnings about each format it did not find.
    assert!(!unsigned.contains("sigstore"), "{unsigned}");

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

/// Pushes the `.sig` manifest of `tests/peers/cosign_keyless.py` for `case`
/// (its own CA and log key, fresh) over `pinned`'s signatures; returns the
/// directory of its `trusted_root.json` and `other_root.json`.
fn keyless_signature(pinned: &str, identity: &str, issuer: &str, case: &str, dir: &std::path::Path) -> String {
    let (name, digest) = pinned.split_once('@').unwrap();
    let (host, repository) = name.split_once('/').unwrap();
    let out = dir.join(case);
    let output = std::process::Command::new(support::peers::python())
        .arg(support::peers::scripts().join("cosign_keyless.py"))
        .args([host, repository, digest, identity, issuer, out.to_str().unwrap(), case])
        .output()
        .unwrap();
    assert!(output.status.success(), "cosign_keyless.py {case}: {}", String::from_utf8_lossy(&output.stderr));
    out.display().to_string()
}

#[test]
fn keyless_signatures_need_the_identity_the_issuer_and_the_signature_on_one_layer() {
    let registry = LocalRegistry::start();
    let host = registry.host.clone();
    let insecure = ["--insecure-registry", host.as_str()];
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new();
    let tag = registry.reference("tools/echo:1");
    let pinned = client.ok(&with(&insecure, &["push", &fixture_file("echo"), &tag])).trim().to_owned();
    let identity = "https://github.com/example/echo/.github/workflows/release.yml@refs/tags/v1";
    let issuer = "https://token.actions.githubusercontent.com";
    let keyless = |root: &str, identity: &str, issuer: &str| {
        ["--verify-identity", identity, "--verify-issuer", issuer, "--trust-root", root].map(str::to_owned)
    };
    let run = |args: &[&str], flags: &[String]| -> Vec<String> {
        args.iter().map(|s| s.to_string()).chain(flags.iter().cloned()).chain(insecure.map(str::to_owned)).collect()
    };
    let ok = |args: Vec<String>| client.ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let refused = |args: Vec<String>| {
        let stderr = client.fails(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(stderr.contains(&format!("{pinned}: refused:")), "{args:?}: {stderr}");
        stderr
    };

    // Signed by the identity, with the CA and the log of the trust root.
    let good = keyless_signature(&pinned, identity, issuer, "good", dir.path());
    let root = format!("{good}/trusted_root.json");
    let verified = ok(run(&["verify", &tag], &keyless(&root, identity, issuer)));
    let by = format!("verified: a keyless signature by {identity}");
    assert!(verified.contains(&pinned) && verified.contains(&by), "{verified}");
    let called = ok(run(&["call", &tag, "echo", "--args", r#"{"text":"keyless"}"#], &keyless(&root, identity, issuer)));
    assert_eq!(call_text(&called), "keyless");
    let listed = ok(run(&["verify", &tag, "--trust-root", &root], &[]));
    assert!(listed.contains(&format!("keyless: {identity} (issuer {issuer}), in a transparency log")), "{listed}");

    // The same signature, asked of another issuer, another identity, or
    // under a trust root whose CA did not issue its certificate.
    let wrong_issuer = refused(run(&["verify", &tag], &keyless(&root, identity, "https://accounts.google.com")));
    assert!(wrong_issuer.contains(&format!("found: keyless by {identity} ({issuer})")), "{wrong_issuer}");
    refused(run(&["verify", &tag], &keyless(&root, "release@example.com", issuer)));
    let other_root = format!("{good}/other_root.json");
    let untrusted = refused(run(&["call", &tag, "echo"], &keyless(&other_root, identity, issuer)));
    assert!(untrusted.contains("a certificate the trust root does not vouch for"), "{untrusted}");
    let public =
        client.fails(&with(&insecure, &["verify", &tag, "--verify-identity", identity, "--verify-issuer", issuer]));
    assert!(public.contains(&format!("{pinned}: refused:")), "the public Sigstore root: {public}");

    // Each forgery over the same digest, with its run's own trust root, and
    // what the refusal found: a certificate the root vouches for (for the
    // identity) is no use without its key's signature, logged as its own.
    let vouched = format!("found: keyless by {identity} ({issuer})");
    for (case, found) in [
        ("forged-signature", vouched.as_str()),
        ("untrusted-ca", "a certificate the trust root does not vouch for"),
        ("other-identity", "found: keyless by mallory@example.com"),
        // A signature of another digest is no signature of this one.
        ("replayed", "it is not signed"),
        ("unlogged", vouched.as_str()),
    ] {
        let root = format!("{}/trusted_root.json", keyless_signature(&pinned, identity, issuer, case, dir.path()));
        let stderr = refused(run(&["verify", &tag], &keyless(&root, identity, issuer)));
        assert!(stderr.contains(found), "{case}: {stderr}");
        refused(run(&["call", &tag, "echo"], &keyless(&root, identity, issuer)));
        if case == "unlogged" {
            let listed = ok(run(&["verify", &tag, "--trust-root", &root], &[]));
            assert!(!listed.contains("in a transparency log"), "another signature's entry: {listed}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registry_that_lies_or_hangs_is_refused_in_bounded_time_and_nothing_is_served() {
    use support::registry::FakeRegistry;
    let echo = std::fs::read(fixture("echo")).unwrap();
    let layer = digest_of(&echo);
    let config = json!({ "architecture": "wasm", "os": "wasip2", "layerDigests": [layer] }).to_string().into_bytes();
    let manifest = |config_type: &str, layer_size: u64| {
        json!({
            "schemaVersion": 2,
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "config": { "mediaType": config_type, "digest": digest_of(&config), "size": config.len() },
            "layers": [{ "mediaType": "application/wasm", "digest": layer, "size": layer_size }],
        })
        .to_string()
        .into_bytes()
    };
    const MANIFEST: &str = "application/vnd.oci.image.manifest.v1+json";
    let mut tampered = echo.clone();
    *tampered.last_mut().unwrap() ^= 1;
    let wasm_config = "application/vnd.wasm.config.v0+json";
    let routes = vec![
        ("/v2/tools/tampered/manifests/1".to_owned(), MANIFEST, manifest(wasm_config, echo.len() as u64)),
        ("/v2/tools/huge/manifests/1".to_owned(), MANIFEST, manifest(wasm_config, 2 << 30)),
        ("/v2/tools/image/manifests/1".to_owned(), MANIFEST, manifest("application/vnd.oci.image.config.v1+json", 10)),
        (format!("/v2/tools/tampered/blobs/{}", digest_of(&config)), "application/octet-stream", config.clone()),
        (format!("/v2/tools/tampered/blobs/{layer}"), "application/octet-stream", tampered),
    ];
    let fake = FakeRegistry::start(routes).await;
    let client = Client::new();
    let inspect = |repository: &str| {
        let reference = format!("oci://{}/tools/{repository}:1", fake.host);
        let output = client.run(&["inspect", &reference, "--insecure-registry", &fake.host]);
        assert!(!output.status.success(), "{repository} was served");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let tampered = inspect("tampered");
    assert!(tampered.contains("does not match its digest") || tampered.contains("Digest"), "{tampered}");
    assert!(!client.cache_dir().join("oci/blobs/sha256").join(&layer[7..]).exists(), "a tampered layer was kept");
    let huge = inspect("huge");
    assert!(huge.contains("2147483648 bytes, over the limit of 1073741824"), "{huge}");
    let image = inspect("image");
    assert!(image.contains("is not a Wasm component artifact") && image.contains("container image"), "{image}");
    let unknown = inspect("none");
    assert!(unknown.contains("no such tag, digest or repository"), "{unknown}");

    // A registry that never answers: each try cut at the timeout, three
    // tries, then an error that says so.
    let hanging = FakeRegistry::hanging().await;
    let started = std::time::Instant::now();
    let reference = format!("oci://{}/tools/echo:1", hanging.host);
    let flags = ["--insecure-registry", hanging.host.as_str(), "--registry-timeout", "1s"];
    let stuck = client.fails(&[&["inspect", reference.as_str()][..], &flags[..]].concat());
    assert!(stuck.contains("no answer within 1 s (--registry-timeout)"), "{stuck}");
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "not bounded: {:?}", started.elapsed());
    // A registry that does not exist.
    let nowhere = client.fails(&["inspect", "oci://registry.invalid/tools/echo:1"]);
    assert!(nowhere.contains("registry.invalid"), "{nowhere}");
}

#[test]
fn a_registry_behind_tls_with_a_private_authority_and_signatures_over_it() {
    let registry = LocalRegistry::with_tls();
    let ca = registry.ca().display().to_string();
    let trusted = ["--registry-ca", ca.as_str()];
    let mut client = Client::new();
    let tag = registry.reference("tools/echo:tls");
    // The system's roots do not know the test authority: refused at once.
    let refused = client.fails(&["push", &fixture_file("echo"), &tag]);
    assert!(refused.contains("UnknownIssuer") && !refused.contains("trying again"), "{refused}");
    let pinned = client.ok(&with(&trusted, &["push", &fixture_file("echo"), &tag])).trim().to_owned();
    assert!(pinned.starts_with(&format!("{}/tools/echo@sha256:", registry.host)), "{pinned}");
    let fresh = Client::new();
    let args = r#"{"text":"over TLS"}"#;
    assert_eq!(call_text(&fresh.ok(&with(&trusted, &["call", &tag, "echo", "--args", args]))), "over TLS");
    // The signature client reaches it with the same authority.
    let dir = tempfile::tempdir().unwrap();
    let (key, public) = key_pair(dir.path(), "release", "pw");
    client.env.push(("COSIGN_PASSWORD".into(), "pw".into()));
    client.ok(&with(&trusted, &["sign", &tag, "--key", &key]));
    let verified = fresh.ok(&with(&trusted, &["verify", &tag, "--verify-key", &public]));
    assert!(verified.contains("verified"), "{verified}");
    let not_a_certificate = fresh.fails(&["inspect", &tag, "--registry-ca", &public]);
    assert!(not_a_certificate.contains("not a PEM certificate"), "{not_a_certificate}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moved_tag_is_picked_up_on_reload() {
    use support::http::HttpServer;
    let registry = LocalRegistry::start();
    let host = registry.host.clone();
    let publisher = Client::new();
    let tag = registry.reference("tools/moving:1");
    publisher.ok(&["push", &fixture_file("echo"), &tag, "--insecure-registry", &host]);
    let store = tempfile::tempdir().unwrap();
    let store_dir = store.path().display().to_string();
    let flags = ["--insecure-registry", host.as_str(), "--cache-dir", store_dir.as_str(), "--json-response"];
    let server = HttpServer::start(&[&[tag.as_str()][..], &flags[..]].concat()).await;
    let tools = |server: &HttpServer| {
        let mut client = server.client();
        async move {
            client.initialize("2025-11-25").await;
            let listed = client.request(2, "tools/list", json!({})).await;
            let names = listed["result"]["tools"].as_array().cloned().unwrap_or_default();
            names.iter().filter_map(|t| t["name"].as_str().map(str::to_owned)).collect::<Vec<_>>()
        }
    };
    assert!(tools(&server).await.contains(&"echo".to_owned()));
    let moved = publisher.ok(&["push", &fixture_file("everything"), &tag, "--insecure-registry", &host]);
    let pid = server.pid().to_string();
    assert!(std::process::Command::new("kill").args(["-HUP", &pid]).status().unwrap().success());
    // A reload is the server's own business: waited for, not timed.
    for _ in 0..100 {
        if tools(&server).await.iter().any(|name| name == "annotated") {
            let stderr = server.stderr.lock().unwrap().clone();
            let digest = moved.trim().rsplit('@').next().unwrap().to_owned();
            assert!(stderr.contains(&digest), "the new digest is logged: {stderr}");
            server.stop().await;
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the moved tag was never served; stderr:\n{}", server.stderr.lock().unwrap());
}
