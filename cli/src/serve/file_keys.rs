//! Every `serve` flag is a key of `mcp-wit.toml`: each flag clap defines is
//! found in [`KEYS`], and its key sets what the flag sets. A flag added
//! without its key fails here.

use clap::{CommandFactory, Parser};

use super::args::ServeArgs;
use crate::config_file::ConfigFile;
use crate::logging::LogFormat;
use crate::sandbox_args::SandboxArgs;

/// A flag, given as on the command line, and the same setting in a file.
struct Key {
    flag: &'static str,
    args: &'static [&'static str],
    toml: &'static str,
}

const fn key(flag: &'static str, args: &'static [&'static str], toml: &'static str) -> Key {
    Key { flag, args, toml }
}

/// Every flag of `serve`, and its key (paths are absolute: a file's relative
/// ones are read beside it).
const KEYS: &[Key] = &[
    // The server.
    key("max-message-size", &["--max-message-size", "4MiB"], r#"max-message-size = "4MiB""#),
    key("page-size", &["--page-size", "10"], "page-size = 10"),
    key("timeout", &["--timeout", "5s"], r#"timeout = "5s""#),
    key("max-memory", &["--max-memory", "64MiB"], r#"max-memory = "64MiB""#),
    key("max-total-memory", &["--max-total-memory", "1GiB"], r#"max-total-memory = "1GiB""#),
    key("max-output", &["--max-output", "1MiB"], r#"max-output = "1MiB""#),
    key("instances", &["--instances", "per-request"], r#"instances = "per-request""#),
    key("max-instance-reuse-count", &["--max-instance-reuse-count", "8"], "max-instance-reuse-count = 8"),
    key("instance-idle-timeout", &["--instance-idle-timeout", "1m"], r#"instance-idle-timeout = "1m""#),
    key("cache-ttl", &["--cache-ttl", "10s"], r#"cache-ttl = "10s""#),
    key("cache-scope", &["--cache-scope", "private"], r#"cache-scope = "private""#),
    key("state-key-file", &["--state-key-file", "/srv/state.key"], r#"state-key-file = "/srv/state.key""#),
    key("state-ttl", &["--state-ttl", "1m"], r#"state-ttl = "1m""#),
    key("pool-instances", &["--pool-instances", "16"], "pool-instances = 16"),
    key("cache-dir", &["--cache-dir", "/srv/cache"], r#"cache-dir = "/srv/cache""#),
    key("no-cache", &["--no-cache"], "no-cache = true"),
    key("record", &["--record", "/srv/a.mcp"], r#"record = "/srv/a.mcp""#),
    key("record-redact", &["--record-redact", "login"], r#"record-redact = ["login"]"#),
    key("watch", &["--watch"], "watch = true"),
    // [validation]
    key("no-validate-input", &["--no-validate-input"], "[validation]\nno-validate-input = true"),
    key("allow-invalid-schemas", &["--allow-invalid-schemas"], "[validation]\nallow-invalid-schemas = true"),
    key("validation-timeout", &["--validation-timeout", "1s"], "[validation]\nvalidation-timeout = \"1s\""),
    // [http]
    key("http", &["--http", "8080"], "[http]\nlisten = \"8080\""),
    key("json-response", &["--json-response"], "[http]\njson-response = true"),
    key("stateless", &["--stateless"], "[http]\nstateless = true"),
    key("allow-origin", &["--allow-origin", "https://a.example"], "[http]\nallow-origin = [\"https://a.example\"]"),
    key("allow-host", &["--allow-host", "a.example"], "[http]\nallow-host = [\"a.example\"]"),
    key("session-timeout", &["--session-timeout", "1m"], "[http]\nsession-timeout = \"1m\""),
    key("max-sessions", &["--max-sessions", "9"], "[http]\nmax-sessions = 9"),
    key("max-sessions-per-client", &["--max-sessions-per-client", "3"], "[http]\nmax-sessions-per-client = 3"),
    key("max-connections", &["--max-connections", "99"], "[http]\nmax-connections = 99"),
    key("max-queued-requests", &["--max-queued-requests", "7"], "[http]\nmax-queued-requests = 7"),
    key("health", &["--health=false"], "[http]\nhealth = false"),
    key("header-timeout", &["--header-timeout", "3s"], "[http]\nheader-timeout = \"3s\""),
    key("body-timeout", &["--body-timeout", "3s"], "[http]\nbody-timeout = \"3s\""),
    key("drain-delay", &["--drain-delay", "2s"], "[http]\ndrain-delay = \"2s\""),
    key("shutdown-timeout", &["--shutdown-timeout", "9s"], "[http]\nshutdown-timeout = \"9s\""),
    key("sse-keep-alive", &["--sse-keep-alive", "4s"], "[http]\nsse-keep-alive = \"4s\""),
    // [auth]
    key("auth-issuer", &["--auth-issuer", "https://id.example"], "[auth]\nissuer = [\"https://id.example\"]"),
    key("auth-resource", &["--auth-resource", "https://mcp.example"], "[auth]\nresource = \"https://mcp.example\""),
    key("auth-jwks-url", &["--auth-jwks-url", "https://id.example/k"], "[auth]\njwks-url = \"https://id.example/k\""),
    key("auth-jwks-file", &["--auth-jwks-file", "/srv/jwks.json"], "[auth]\njwks-file = \"/srv/jwks.json\""),
    key("auth-scope", &["--auth-scope", "mcp"], "[auth]\nscope = [\"mcp\"]"),
    key("auth-tool-scope", &["--auth-tool-scope", "admin_*=admin"], "[auth]\ntool-scope = [\"admin_*=admin\"]"),
    key("auth-prompt-scope", &["--auth-prompt-scope", "p=read"], "[auth]\nprompt-scope = [\"p=read\"]"),
    key("auth-resource-scope", &["--auth-resource-scope", "r=read"], "[auth]\nresource-scope = [\"r=read\"]"),
    key("auth-scope-implies", &["--auth-scope-implies", "admin=read"], "[auth]\nscope-implies = [\"admin=read\"]"),
    key("auth-algorithm", &["--auth-algorithm", "ES256"], "[auth]\nalgorithm = [\"ES256\"]"),
    key("auth-clock-skew", &["--auth-clock-skew", "5s"], "[auth]\nclock-skew = \"5s\""),
    key("auth-keys-refresh", &["--auth-keys-refresh", "1h"], "[auth]\nkeys-refresh = \"1h\""),
    key("auth-keys-cooldown", &["--auth-keys-cooldown", "9s"], "[auth]\nkeys-cooldown = \"9s\""),
    key("auth-fetch-timeout", &["--auth-fetch-timeout", "2s"], "[auth]\nfetch-timeout = \"2s\""),
    key("auth-filter-lists", &["--auth-filter-lists=false"], "[auth]\nfilter-lists = false"),
    // [tasks]
    key("no-tasks", &["--no-tasks"], "[tasks]\nno-tasks = true"),
    key("task-policy", &["--task-policy", "slow=always"], "[tasks]\ntask-policy = [\"slow=always\"]"),
    key("task-timeout", &["--task-timeout", "2h"], "[tasks]\ntask-timeout = \"2h\""),
    key("task-ttl", &["--task-ttl", "2h"], "[tasks]\ntask-ttl = \"2h\""),
    key("max-tasks-per-client", &["--max-tasks-per-client", "5"], "[tasks]\nmax-tasks-per-client = 5"),
    key("task-store", &["--task-store", "redis://127.0.0.1/"], "[tasks]\ntask-store = \"redis://127.0.0.1/\""),
    // [telemetry]
    key("metrics", &["--metrics", "127.0.0.1:9464"], "[telemetry]\nmetrics = \"127.0.0.1:9464\""),
    key("log-requests", &["--log-requests=false"], "[telemetry]\nlog-requests = false"),
    key("log-arguments", &["--log-arguments"], "[telemetry]\nlog-arguments = true"),
    key(
        "otlp-endpoint",
        &["--otlp-endpoint", "http://127.0.0.1:4318"],
        "[telemetry]\notlp-endpoint = \"http://127.0.0.1:4318\"",
    ),
    // The sandbox's grants.
    key("guest-output", &["--guest-output", "discard"], r#"guest-output = "discard""#),
    key("env", &["--env", "TZ=UTC"], r#"env = ["TZ=UTC"]"#),
    key("config", &["--config", "REGION=eu"], r#"config = ["REGION=eu"]"#),
    key("secret", &["--secret", "API_KEY"], r#"secret = ["API_KEY"]"#),
    key("dir", &["--dir", "/srv/data:/data:ro"], r#"dir = ["/srv/data:/data:ro"]"#),
    key("allow-http", &["--allow-http", "api.example.com"], r#"allow-http = ["api.example.com"]"#),
    key("policy", &["--policy", "/srv/policy.yaml"], r#"policy = "/srv/policy.yaml""#),
    // Registries and signatures.
    key("pull", &["--pull", "never"], r#"pull = "never""#),
    key("registry-auth", &["--registry-auth", "ada:secret"], r#"registry-auth = "ada:secret""#),
    key("registry-token-host", &["--registry-token-host", "auth.example"], r#"registry-token-host = ["auth.example"]"#),
    key("insecure-registry", &["--insecure-registry", "127.0.0.1:5000"], r#"insecure-registry = ["127.0.0.1:5000"]"#),
    key("registry-ca", &["--registry-ca", "/srv/ca.pem"], r#"registry-ca = ["/srv/ca.pem"]"#),
    key("insecure-remote", &["--insecure-remote"], "insecure-remote = true"),
    key("registry-timeout", &["--registry-timeout", "9s"], r#"registry-timeout = "9s""#),
    key("verify-key", &["--verify-key", "/srv/cosign.pub"], r#"verify = { key = "/srv/cosign.pub" }"#),
    key("trust-root", &["--trust-root", "/srv/root.json"], r#"verify = { trust-root = "/srv/root.json" }"#),
    key(
        "verify-identity",
        &["--verify-identity", "ada@example.com", "--verify-issuer", "https://id.example"],
        r#"verify = { identity = "ada@example.com", issuer = "https://id.example" }"#,
    ),
    key(
        "verify-issuer",
        &["--verify-issuer", "https://id.example", "--verify-identity", "ada@example.com"],
        r#"verify = { issuer = "https://id.example", identity = "ada@example.com" }"#,
    ),
    key("require-signatures", &["--require-signatures"], "require-signatures = true"),
];

/// Flags whose setting is not a top-level or section key, and where it is.
const ELSEWHERE: &[(&str, &str)] = &[
    ("components", "`path` of each `[[component]]`"),
    ("name", "`name` of a `[[component]]`"),
    ("file", "the file itself"),
    ("log-format", "`log-format`, read before the rest (`ConfigFile::logging`)"),
    ("verbose", "`verbose`, read before the rest (`ConfigFile::logging`)"),
    ("help", "not a setting"),
];

#[derive(Parser)]
struct Flags {
    #[command(flatten)]
    serve: ServeArgs,
}

/// What serve reads of `args` over `file`, written out.
fn effective(args: ServeArgs, file: ConfigFile) -> String {
    let sandbox = |grants: &SandboxArgs| format!("{grants:?}");
    // A grant layer from one side only (the other is empty).
    let grants = match sandbox(&args.sandbox) == sandbox(&SandboxArgs::default()) {
        true => sandbox(&file.sandbox),
        false => sandbox(&args.sandbox),
    };
    let settings = args.settings.over(file.settings);
    let registry = args.registry.over(file.registry);
    format!("{settings:?}\n{registry:?}\n{grants}")
}

fn flags(args: &[&str]) -> ServeArgs {
    let line = ["serve"].iter().chain(args);
    Flags::try_parse_from(line).unwrap_or_else(|e| panic!("{args:?}: {e}")).serve
}

fn file(toml: &str) -> ConfigFile {
    ConfigFile::parse(toml, std::path::Path::new("/srv/mcp-wit.toml")).unwrap_or_else(|e| panic!("{toml:?}: {e:#}"))
}

#[test]
fn every_serve_flag_is_a_key_of_the_file() {
    let mut cli = crate::command::Cli::command();
    cli.build();
    let serve = cli.find_subcommand("serve").expect("serve is a command");
    let mut missing = Vec::new();
    for arg in serve.get_arguments() {
        let name = arg.get_long().unwrap_or(arg.get_id().as_str());
        let known = KEYS.iter().any(|key| key.flag == name) || ELSEWHERE.iter().any(|(flag, _)| *flag == name);
        if !known {
            missing.push(name.to_owned());
        }
    }
    assert!(missing.is_empty(), "flags with no key in mcp-wit.toml (add them, and here): {missing:?}");
    for key in KEYS {
        assert!(serve.get_arguments().any(|arg| arg.get_long() == Some(key.flag)), "`--{}` is gone", key.flag);
    }
}

#[test]
fn each_key_sets_what_its_flag_sets() {
    let nothing = effective(flags(&[]), ConfigFile::default());
    for key in KEYS {
        let by_flag = effective(flags(key.args), ConfigFile::default());
        let by_file = effective(flags(&[]), file(key.toml));
        assert_ne!(by_flag, nothing, "`--{}` sets nothing the test sees", key.flag);
        assert_eq!(by_flag, by_file, "`--{}` and `{}` differ", key.flag, key.toml);
    }
}

#[test]
fn the_file_says_how_to_log_too() {
    let said = file("log-format = \"json\"\nverbose = 2\n[telemetry]\notlp-endpoint = \"http://127.0.0.1:4318\"");
    assert_eq!((said.log_format, said.verbose), (Some(LogFormat::Json), Some(2)));
    assert_eq!(said.settings.telemetry.otlp_endpoint.as_deref(), Some("http://127.0.0.1:4318"));
    let components = file("[[component]]\npath = \"/srv/a.wasm\"\nname = \"bee\"");
    assert_eq!(components.components[0].name.as_deref(), Some("bee"));
}
