//! The exactness suite: every conversion, count and stream of the crate,
//! with every set of kernels this CPU can run, against the standard
//! library. See `harness.rs` for the oracle and what is compared.
// Test code: clippy.toml exempts #[test] functions from the no-panic lints,
// but not the helpers of an integration test, which may panic too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod dirs;
mod harness;
#[path = "../common/kernels.rs"]
mod kernels;

mod blocks;
mod boundaries;
mod differential;
mod exhaustive;
mod guard;
mod named;
mod quick;
mod sentinel;
mod stream;
mod table;
