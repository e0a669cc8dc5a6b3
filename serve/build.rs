//! Links `mcp-wit-serve` with packed relative relocations where they work
//! (see `cli/build/packed_relocations.rs`, shared with `mcp-wit`'s).

include!("../cli/build/packed_relocations.rs");

fn main() {
    // Not on every change to the package: the script's own sources (the
    // included file too, compiled into it) already rerun it.
    println!("cargo:rerun-if-changed=build.rs");
    link_executables_with_packed_relocations();
}
