//! The proofs of the issue: utf8-table against std (strict mode), against an
//! encoder-based oracle (legacy mode), exhaustively where the space allows,
//! on the conformance corpora, and with quickcheck.
//!
//! One test binary with a module per subject, to keep link time down.
//! `#[ignore]`d (run them with `cargo test -p utf8-table -- --ignored`):
//! `legacy::every_legacy_value_round_trips` (2^31 values).
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod encode;
mod iter;
mod legacy;
mod oracle;
mod strict;
