//! The kernel sets the transcode tests run, shared by the test binaries
//! (`counts.rs`, `exact/`): one list, one rule for which must be present.

use transcode::Transcoder;

/// Every set of kernels this CPU can run; the SIMD ones must be present on
/// x86-64 and aarch64 unless `TRANSCODE_ALLOW_MISSING` is set, so that a
/// missing kernel cannot pass silently.
pub(crate) fn transcoders() -> Vec<Transcoder> {
    let mut all: Vec<Transcoder> = Transcoder::all().collect();
    if std::env::var_os("TRANSCODE_ALLOW_MISSING").is_none() {
        let needed: &[&str] = if cfg!(target_arch = "x86_64") {
            &["sse4.1", "avx2"]
        } else if cfg!(target_arch = "aarch64") {
            &["neon"]
        } else {
            &[]
        };
        for name in needed {
            assert!(
                all.iter().any(|t| t.name() == *name),
                "the {name} kernels are not available on this CPU"
            );
        }
    }
    assert_eq!(all.last().map(Transcoder::name), Some("portable"));
    // Under emulation (aarch64 under qemu, `cargo xtask cross`) the
    // portable table is left out: the NEON table's entries that have no
    // NEON kernel are the portable table's, so they are tested through it,
    // and the rest of the portable table is the scalar code the native
    // run tests. That halves the slowest step of the lane.
    if codec_testdata::emulated() && all.len() > 1 {
        all.pop();
    }
    all
}
