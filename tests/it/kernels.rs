//! Every vector kernel the CPU can run gives the same links as the portable one, on the
//! real corpora and on text dense with dots, ideographic full stops and URL bytes.

use crate::common;

use common::rng::Rng;

use linkscan::internals::Kernel;
use linkscan::{Link, LinkFinder};

fn links(kernel: Kernel, text: &[u8]) -> Vec<Link> {
    LinkFinder::builder()
        .prefilter_kernel(kernel)
        .build()
        .links_bytes(text)
        .collect()
}

fn assert_kernels_agree(name: &str, text: &[u8]) {
    let expected = links(Kernel::portable(), text);
    for kernel in Kernel::available() {
        assert_eq!(
            links(kernel, text),
            expected,
            "{name}: kernel {}",
            kernel.name()
        );
    }
}

#[test]
fn kernels_agree_on_the_corpora() {
    for name in ["email-en.mbox", "email-intl.txt"] {
        let path = common::shared().join("corpus").join(name);
        let bytes =
            std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let n = bytes.len().min(4 << 20);
        assert_kernels_agree(name, &bytes[..n]);
    }
}

#[test]
fn kernels_agree_on_dense_text() {
    let pieces: [&[u8]; 14] = [
        b"example.com/",
        b"wiki/Some_Long-Title.with,soft;bytes!and'more\"/x=1&y",
        b"-_~.,;!'\"abcdefghijklmnopqrstuvwxyz0123456789",
        b"a.b.",
        "。".as_bytes(),
        "ドメイン.みんな".as_bytes(),
        b"x@y.org ",
        b"(",
        b")",
        b"%41",
        b"?q=1&r=2#f:~:text=a,b",
        b" ",
        b"\xE3\x80",
        "普遍适用测试。我爱你/测试".as_bytes(),
    ];
    let mut rng = Rng::new(0x853C_49E6_748F_EA9B);
    for round in 0..300 {
        let mut text = Vec::new();
        let len = 1 + rng.below(400);
        while text.len() < len {
            text.extend_from_slice(pieces[rng.below(pieces.len())]);
        }
        assert_kernels_agree(&format!("round {round}"), &text);
    }
}

/// Where the compiler has the AVX-512 intrinsics (the build script's `linkscan_avx512`)
/// and the CPU has AVX-512 F, BW and VBMI with AVX2, the AVX-512 kernel is listed and
/// chosen (and so compared with the portable one by the tests above); elsewhere it is not
/// listed.
#[test]
#[cfg(all(target_arch = "x86_64", linkscan_avx512))]
fn the_avx512_kernel_is_chosen_where_the_cpu_has_it() {
    let has = std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vbmi");
    let names: Vec<&str> = Kernel::available().iter().map(|k| k.name()).collect();
    assert_eq!(names.contains(&"avx512"), has, "kernels {names:?}");
    if has {
        assert_eq!(Kernel::detect().name(), "avx512");
    }
}
