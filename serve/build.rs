//! Links `mcp-wit-serve` with packed relative relocations where they work
//! (see `cli/build/packed_relocations.rs`, shared with `mcp-wit`'s).

include!("../cli/build/packed_relocations.rs");

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=../cli/build/packed_relocations.rs");
    link_executables_with_packed_relocations();
}
