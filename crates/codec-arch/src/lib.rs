//! The arch foundation of the varcodecs codecs: the layer between
//! `codec-core` and the crates with SIMD kernels (utf8-dfa, utf8-simd,
//! utf8-variants, transcode, varint, encodings). Internal: its API follows
//! what those crates need.
//!
//! - [`Features`]: what this CPU has, asked once (with `cpuid` and `xgetbv`
//!   read directly, three leaves in all, so also without `std`) and cached;
//!   including the one fact no feature flag states, whether `pext` is fast
//!   ([`Features::FAST_PEXT`]: slow on AMD before Zen 3).
//! - [`features!`] and [`enable!`]: the `#[target_feature]` sets of the
//!   workspace, each written once; [`Isa`]: such a set as a kernel's need.
//! - [`Simd`]: the token-based vector trait (tokens `x86_64::Sse41`,
//!   `x86_64::Avx2`, `x86_64::Avx512` on x86-64, `aarch64::Neon` on
//!   aarch64), and
//!   [`tables`], the left-packing tables its operations and kernels share.
//! - [`Entry`] and [`Dispatch`]: the one registry entry (name, ISA, entry
//!   points) and the one dispatch shape (the first entry this CPU can run,
//!   cached in an `AtomicPtr`).
//!
//! memchr's `arch` folder (`vector.rs`, `unsafe_ifunc!`) is the model.
//!
//! # Example
//!
//! A kernel table of one crate, and its dispatch:
//!
//! ```
//! use codec_arch::{Dispatch, Entry, Isa};
//!
//! /// The entry points of one kernel.
//! struct Fns {
//!     /// `unsafe`: the SIMD ones need their CPU features.
//!     sum: unsafe fn(&[u8]) -> u64,
//! }
//!
//! fn sum_portable(s: &[u8]) -> u64 {
//!     s.iter().map(|&b| u64::from(b)).sum()
//! }
//!
//! #[cfg(target_arch = "x86_64")]
//! codec_arch::enable! { avx2;
//!     /// The same loop, compiled for AVX2 (the compiler vectorises it).
//!     fn sum_avx2(s: &[u8]) -> u64 {
//!         s.iter().map(|&b| u64::from(b)).sum()
//!     }
//! }
//!
//! static KERNELS: &[Entry<Fns>] = &[
//!     #[cfg(target_arch = "x86_64")]
//!     Entry::new("avx2", Isa::AVX2, Fns { sum: sum_avx2 }),
//!     Entry::new("portable", Isa::PORTABLE, Fns { sum: sum_portable }),
//! ];
//! static CHOSEN: Dispatch<Entry<Fns>> = Dispatch::new(KERNELS);
//!
//! fn sum(s: &[u8]) -> u64 {
//!     let kernel = CHOSEN.get();
//!     // SAFETY: `Dispatch` returns only an entry whose ISA this CPU has.
//!     unsafe { (kernel.get().sum)(s) }
//! }
//!
//! assert_eq!(sum(&[1, 2, 3, 250]), 256);
//! println!("summing with {} ({})", CHOSEN.get().name(), CHOSEN.get().features());
//! ```
//!
//! # Safety model
//!
//! A `#[target_feature]` function is safe to define and, since Rust 1.86,
//! safe to call from a function with the same features; from anywhere else
//! the call is `unsafe`, and its proof is an [`Entry`] whose
//! [`is_available`](Entry::is_available) said yes, which [`Dispatch`] and
//! the crates' checked constructors (`Avx2::new() -> Option<Self>`) hold.
//! Inside a kernel, a vector token ([`Simd`]) proves the features to
//! the operations, which are therefore safe except for their memory
//! accesses.

#![cfg_attr(not(test), no_std)]

#[macro_use]
mod features;
mod dispatch;
mod isa;
pub mod simd;
#[cfg(test)]
mod simd_tests;
pub mod tables;

#[cfg(target_arch = "aarch64")]
pub mod aarch64;
#[cfg(target_arch = "x86_64")]
pub mod x86_64;

pub use dispatch::{Dispatch, Entry, Registered};
pub use isa::{Features, Isa};
pub use simd::Simd;
