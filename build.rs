//! The build script: tells the library whether the compiler has the AVX-512 target
//! features and intrinsics (stable since Rust 1.89), which the AVX-512 candidate search
//! needs (`cfg(linkscan_avx512)`, see `src/vector/avx512.rs`). Compilers older than that,
//! down to the crate's `rust-version`, build the library without it; it is then the AVX2
//! kernel that runs on CPUs with AVX-512.

use std::process::Command;

/// The first Rust release with the AVX-512 intrinsics.
const AVX512_MINOR: u32 = 89;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(linkscan_avx512)");
    println!("cargo::rerun-if-changed=build.rs");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    // `rustc 1.95.0 (59807616e 2026-04-14)`: the minor version of a 1.x compiler.
    let minor = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|version| {
            let number = version.split_whitespace().nth(1)?.to_owned();
            let mut parts = number.split('.');
            (parts.next()? == "1").then_some(())?;
            parts.next()?.parse::<u32>().ok()
        });
    if minor.is_some_and(|minor| minor >= AVX512_MINOR) {
        println!("cargo::rustc-cfg=linkscan_avx512");
    }
}
