// Shared by the executables' build scripts (`include!`d by `cli/build.rs` and
// `serve/build.rs`): links a package's executables with packed relative
// relocations (`DT_RELR`) where the linker and the C library take them
// (binutils 2.38, glibc 2.36). Every start, the loader applies the
// executable's relative relocations (30,000 in `mcp-wit-serve`, 67,000 in
// `mcp-wit`); packed, their table is a hundredth of the size, and a cached
// start of `mcp-wit-serve` answers 0.3–0.7 ms sooner (BENCHMARKS.md,
// 2026-12-01). The executables stay position-independent.
//
// Whether they are taken is probed: a small C program linked with the flag
// and run. A linker without it, a C library whose loader cannot read it,
// or a build for another target than this machine's, links as before.

const PACKED: &str = "-Wl,-z,pack-relative-relocs";

/// Links this package's executables with [`PACKED`] where it works.
fn link_executables_with_packed_relocations() {
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
    let target = std::env::var("TARGET").unwrap_or_default();
    let native = std::env::var("HOST").is_ok_and(|host| host == target);
    if target.ends_with("-linux-gnu") && native && packed_relocations_run() {
        println!("cargo:rustc-link-arg-bins={PACKED}");
    }
}

/// Whether a program linked with [`PACKED`] by this build's linker driver
/// runs here.
fn packed_relocations_run() -> bool {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let source = out.join("packed_relocations.c");
    let probe = out.join("packed_relocations");
    // A static's address: a position-independent executable relocates it.
    let program = "static int answer = 0;\nint *at = &answer;\nint main(void) { return *at; }\n";
    if std::fs::write(&source, program).is_err() {
        return false;
    }
    let linker = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".to_owned());
    let linked = std::process::Command::new(linker).arg(&source).arg("-o").arg(&probe).arg(PACKED).output();
    linked.is_ok_and(|linked| linked.status.success()) && std::process::Command::new(&probe).status().is_ok_and(|ran| ran.success())
}
