#![doc = include_str!("../README.md")]
//!
//! - **MSRV** 1.89 (the workspace's). **no_std**: yes, without the default
//!   `std` feature (and allocation-free without `alloc`).
//! - **Unsafe**: only in the private `arch` module, for the SIMD kernels
//!   and the calls into them after run-time CPU detection; every block
//!   carries a `// SAFETY:` comment, every kernel is tested against the
//!   scalar code and on guard pages. Everything else is safe code
//!   (`#![deny(unsafe_code)]` at the root).
//!
//! A varint stores 7 bits of the value per byte, least significant group
//! first; the top bit of each byte (`0x80`) says another byte follows. 300
//! is `AC 02`: `0101100` with the continuation bit, then `0000010`.
//!
//! # Example
//!
//! ```
//! use varint::{DecodeError, Varint};
//!
//! let mut buf = [0u8; u64::MAX_LEN];
//! let n = varint::encode(300u64, &mut buf);
//! assert_eq!(&buf[..n], [0xAC, 0x02]);
//! assert_eq!(varint::encoded_len(300u64), n);
//! assert_eq!(varint::decode::<u64>(&buf[..n]), Ok((300, 2)));
//!
//! // The errors say what went wrong.
//! assert_eq!(varint::decode::<u64>(&[0xAC]), Err(DecodeError::Truncated));
//! assert_eq!(varint::decode::<u32>(&[0x80, 0x80, 0x80, 0x80, 0x10]), Err(DecodeError::Overflow));
//! // Padded encodings: accepted by protobuf runtimes, rejected by strict mode.
//! assert_eq!(varint::decode::<u64>(&[0x80, 0x00]), Ok((0, 2)));
//! assert_eq!(varint::decode_strict::<u64>(&[0x80, 0x00]), Err(DecodeError::NonCanonical));
//!
//! // sint64: zigzag, then varint.
//! let n = varint::encode_signed(-150i64, &mut buf);
//! assert_eq!(varint::decode_signed::<i64>(&buf[..n]), Ok((-150, 2)));
//! ```
//!
//! # API
//!
//! | | |
//! |---|---|
//! | [`encode`], [`try_encode`], [`encoded_len`] | one value into a buffer (panicking, or returning [`BufferTooSmall`]) and its length |
//! | [`decode`], [`decode_strict`] | one value from the start of a buffer: `(value, bytes taken)` or a [`DecodeError`] |
//! | [`encode_signed`], [`decode_signed`], … | the same for signed integers through [`zigzag`] (protobuf `sint32`/`sint64`) |
//! | [`decode_into`], [`decode_into_strict`], [`decode_to_vec`] (a new `Vec`), [`decode_into_vec`] (appends), [`iter`] | many consecutive varints (SIMD for `u64`, `u32`, `usize`) |
//! | [`encode_slice`], [`encode_slice_to_vec`] (a new `Vec`), [`encode_slice_into_vec`] (appends), [`encoded_len_slice`] | many values into one buffer, and its size (SIMD for `u64`, `u32`, `usize`) |
//! | [`sleb128`] | signed LEB128 (DWARF, WebAssembly, DEX): `encode`, `decode`, `decode_strict`, … for `i16` to `i128` |
//! | [`ReadVarint`], [`WriteVarint`] | one value from a `std::io::Read` (telling a clean end from a cut-off varint), into a `Write` |
//! | `BufVarint`, `PutVarint` | one value from a `bytes::Buf`, into a `bytes::BufMut`, advancing them (feature `bytes`) |
//! | [`kernels`], [`KernelCodec`] | the SIMD kernels compiled in, and the bulk functions with a chosen one |
//! | [`Varint::MAX_LEN`] | the longest encoding of each type |
//! | [`formats`] | the other formats under one [`formats::Format`] trait: QUIC, HPACK/QPACK, SQLite, git and Bitcoin Core's `VARINT`, Bitcoin's CompactSize, CBOR heads, MessagePack integers, bincode 2, MIDI's VLQ and a prefix varint |
//!
//! The functions are generic over the sealed trait [`Varint`]; the type is
//! usually inferred, or named with a turbofish: `decode::<u32>(buf)`.
//!
//! # Exactness
//!
//! The rules are those of protobuf (protowire, prost) and Go's
//! `encoding/binary`:
//!
//! - A value of type `T` takes at most `T::MAX_LEN` bytes (`u16`: 3,
//!   `u32`: 5, `u64`: 10, `u128`: 19), and the last allowed byte may carry
//!   only the bits left of the width (`u16`: ≤ `0x03`, `u32`: ≤ `0x0F`,
//!   `u64`: ≤ `0x01`, `u128`: ≤ `0x03`). A continuation bit on it, or a
//!   larger value, is [`DecodeError::Overflow`]: `FF×9 02` and `80×10` for
//!   `u64`. (Some crates drop the excess bits of `FF×9 02` silently; this
//!   one does not.)
//! - Input that ends before the terminating byte is
//!   [`DecodeError::Truncated`]: more input could complete it.
//! - Lenient decoding accepts padded encodings (`80 00` is 0), as every
//!   protobuf runtime does. Strict decoding rejects a multi-byte encoding
//!   whose last byte is `0x00` as [`DecodeError::NonCanonical`], so it
//!   accepts exactly what [`encode`] produces.
//! - No decoder looks at a byte past `T::MAX_LEN`, reads outside its slice,
//!   panics or loops without bound, whatever the input.
//! - On error, [`decode`] has consumed nothing (the varint begins at
//!   `buf[0]`); bulk decoders report the offset where the failing varint
//!   begins ([`BulkError`], [`Iter::offset`]); the `std::io` readers have consumed
//!   the bytes they read, at most `MAX_LEN`.
//!
//! The bulk kernels decode only varints that are well-formed for the type
//! and stop in front of anything else, which the scalar decoder then
//! decodes or reports: every bulk result (values, count, stop offset and
//! error kind) is the one-at-a-time decoder's.
//!
//! The tests replay every row of protobuf-go's and Go's `encoding/binary`
//! test vectors and the DWARF 5 and WebAssembly LEB128 examples (in
//! `testdata/conformance/`), compare with a reference decoder on every
//! input of up to three bytes and on random inputs, check that strict
//! decoding accepts exactly the output of `encode`, run every kernel
//! against the scalar decoder with every kind of error at every offset
//! around the window size, and read inputs that end at a guard page.
//!
//! # Other formats
//!
//! [`formats`] has the variable-length integers of other systems, each with
//! its specification's rules for the shortest form, the longest encoding
//! and the range, under one trait: `decode`, `decode_strict`, `try_encode`,
//! `encoded_len`, `MAX_LEN`, the bulk functions, and the `std::io` and
//! `bytes` adapters.
//!
//! | format | used by |
//! |---|---|
//! | [`Quic`](formats::Quic) | QUIC (RFC 9000 §16); bulk decoding with SIMD kernels on x86-64 |
//! | [`Hpack<N>`](formats::Hpack) | HPACK and QPACK (RFC 7541 §5.1) |
//! | [`Sqlite`](formats::Sqlite) | SQLite records |
//! | [`Bijective`](formats::Bijective) | git pack offsets, Bitcoin Core's `VARINT` |
//! | [`CompactSize`](formats::CompactSize) | Bitcoin |
//! | [`CborHead`](formats::CborHead) | CBOR (RFC 8949) |
//! | [`MsgPack`](formats::MsgPack) | MessagePack |
//! | [`Bincode`](formats::Bincode) | bincode 2 |
//! | [`Vlq`](formats::Vlq) | MIDI files |
//! | [`Prefix`](formats::Prefix) | a prefix varint (length in the first byte) |
//! | [`Leb128<T>`](formats::Leb128), [`Zigzag<S>`](formats::Zigzag), [`Sleb128<S>`](formats::Sleb128) | this crate's own functions, under the trait |
//!
//! ```
//! use varint::formats::{DecodeError, Format, Hpack, Quic, Vlq};
//!
//! // RFC 9000 A.1: 15293 in two bytes; 37 padded to two is not the
//! // shortest form.
//! assert_eq!(Quic::decode(&[0x7b, 0xbd]), Ok((15293, 2)));
//! assert_eq!(Quic::decode_strict(&[0x40, 0x25]), Err(DecodeError::NonCanonical));
//!
//! // RFC 7541 C.1.2: 1337 with a 5-bit prefix.
//! let mut buf = [0u8; 11];
//! let n = Hpack::<5>::encode(1337, &mut buf);
//! assert_eq!(&buf[..n], [0x1f, 0x9a, 0x0a]);
//!
//! // MIDI: at most four bytes.
//! assert_eq!(Vlq::decode(&[0xff, 0xff, 0xff, 0x7f]), Ok((0x0fff_ffff, 4)));
//! assert_eq!(Vlq::decode(&[0xff, 0xff, 0xff, 0xff]), Err(DecodeError::Overflow));
//! ```
//!
//! # Protobuf `int32`, `int64` and `uint32`
//!
//! Protobuf writes an `int32` (and `int64`, `enum`) as the 64-bit two's
//! complement, so a negative `int32` takes 10 bytes on the wire, and a
//! reader must truncate a 64-bit varint to 32 bits. Decode `u64`, then cast:
//!
//! ```
//! let mut buf = [0u8; 10];
//! let n = varint::encode(-1i32 as i64 as u64, &mut buf); // writing an int32
//! assert_eq!(n, 10);
//! let (raw, len) = varint::decode::<u64>(&buf[..n]).unwrap();
//! assert_eq!((raw as i32, len), (-1, 10)); // reading it: truncate
//! // `decode::<u32>` would reject those 10 bytes as an overflow.
//! assert!(varint::decode::<u32>(&buf[..n]).is_err());
//! ```
//!
//! `uint32` is the same: protobuf runtimes read a `u64` and truncate, so use
//! `decode::<u64>(..).0 as u32` to be as lenient as they are, and
//! `decode::<u32>` to reject values that do not fit. `sint32`/`sint64` use
//! zigzag: [`encode_signed`], [`decode_signed`].
//!
//! # Performance
//!
//! One value: decoding takes one compare for a one-byte value and two for a
//! two-byte one; longer `u64` values are decoded from one 8-byte load with
//! no length-dependent branch. Encoding writes one- and two-byte values
//! directly and 3 to 8 bytes with two overlapping stores, no loop.
//!
//! Many values: the bulk functions run a SIMD kernel ([`kernels`]: on
//! x86-64 AVX-512 VBMI2, AVX-512, AVX2 with or without a fast BMI2 `pext`,
//! or SSE4.1, chosen once at run time; NEON on aarch64; the portable scalar
//! loop elsewhere). Decoding finds every varint end of a
//! 64-byte window with two `movemask`s and decodes each varint from a word
//! at its start, so no value waits for the length of the one before; with
//! AVX-512 VBMI2 it decodes eight varints at a time in the lanes of a
//! register (`vpcompressb`, `vpermb`), and with a fast `pext` eight one- or
//! two-byte varints with one `pshufb`. On the Xeon it was first tuned on,
//! that is about 6× prost's loop on protobuf-like data, 3× on uniformly
//! random lengths and 10–14× on one-byte values; on AMD Zen 4, 4.1–4.6×,
//! 3.8× and 14× (`docs/results/varint.md`). Encoding packs runs of one-byte
//! values and writes the rest without a branch on their length.
//!
//! Measurements against prost, integer-encoding, varint-simd (also built
//! with `-C target-feature=+avx2,+bmi2`), `leb128` and a plain loop, the
//! reasoning for AMD Zen 3, and the approaches tried and dropped, are in
//! `docs/results/varint.md`.
//!
//! # Crate features
//!
//! - `std` (default): the [`ReadVarint`] and [`WriteVarint`] traits, and
//!   for every format `formats::ReadFormat`, `formats::WriteFormat` and
//!   `formats::decode_stream`. Implies `alloc`.
//! - `alloc`: [`decode_to_vec`], [`decode_into_vec`], [`encode_slice_to_vec`],
//!   [`encode_slice_into_vec`] and `Format::encode_slice_to_vec`.
//! - `bytes`: the `BufVarint` and `PutVarint` traits over the `bytes`
//!   crate's `Buf` and `BufMut`, and `formats::BufFormat` and
//!   `formats::PutFormat` for every format (works without `std`).
//!
//! Without `std` and `alloc` the crate is `#![no_std]` and
//! allocation-free; the kernels are still chosen at run time (the
//! `codec-arch` crate reads `cpuid` without `std`).
//!
//! # References
//!
//! - Protocol Buffers, "Encoding", section "Base 128 Varints"
//!   (<https://protobuf.dev/programming-guides/encoding/#varints>).
//! - DWARF Debugging Information Format, Version 5, section 7.6
//!   (unsigned and signed LEB128).
//! - WebAssembly Core Specification, section 5.2.2 "Integers" (the limits
//!   of signed and unsigned LEB128 of each width).
//! - Jeff Plaisance, Nathan Kurz, Daniel Lemire, "Vectorized VByte
//!   Decoding", 2015 (arXiv:1503.07387): decoding many varints from masks
//!   of their continuation bits, which the bulk kernels build on.
// docs.rs builds with `--cfg docsrs` on nightly: every item behind a Cargo
// feature is marked with it.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![no_std]
#![deny(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// The SIMD kernels: the only module allowed `unsafe`.
#[allow(unsafe_code)]
mod arch;
#[cfg(feature = "bytes")]
mod buf;
mod bulk;
mod bulk_encode;
mod decode;
mod encode;
pub mod formats;
pub mod group_varint;
mod int;
#[cfg(feature = "std")]
mod io;
mod scalar;
pub mod sleb128;
pub mod streamvbyte;

#[cfg(feature = "bytes")]
pub use buf::{BufVarint, PutVarint};
pub use codec_core::{BufferTooSmall, DecodeError};

pub use arch::shuffle::{ShuffleCodec, ShuffleKernel, shuffle_kernels};
pub use arch::{Kernel, KernelCodec, chosen_kernel, kernels};
pub use bulk::{BulkError, Decoded, Iter, decode_into, decode_into_strict, iter, iter_strict};
#[cfg(feature = "alloc")]
pub use bulk::{decode_into_vec, decode_to_vec};
pub use bulk_encode::{encode_slice, encoded_len_slice};
#[cfg(feature = "alloc")]
pub use bulk_encode::{encode_slice_into_vec, encode_slice_to_vec};
pub use decode::{decode, decode_signed, decode_signed_strict, decode_strict};
pub use encode::{encode, encode_signed, encoded_len, try_encode, try_encode_signed};
pub use int::Varint;
#[cfg(feature = "std")]
pub use io::{ReadVarint, WriteVarint};
/// The zigzag mapping's trait, which bounds the signed functions
/// ([`encode_signed`], [`decode_signed`], …); re-exported so callers need no
/// direct dependency on `zigzag` to name it.
pub use zigzag::ZigZag;

/// `#[must_use]` is on `encode` and friends: the functions whose answer is
/// the reason to call them. Each block below must fail to
/// compile with `unused_must_use` denied, so removing one of the attributes
/// fails `cargo test --doc`. (`Result`-returning functions, `try_encode` and
/// the decoders, are `#[must_use]` through `Result`.)
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// varint::encode(300u64, &mut [0u8; 10]);
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// varint::encode_signed(-3i64, &mut [0u8; 10]);
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// varint::encoded_len(300u64);
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// varint::encoded_len_slice(&[300u64]);
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// varint::sleb128::encode(-3i64, &mut [0u8; 10]);
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// varint::sleb128::encoded_len(-3i64);
/// ```
///
/// And each compiles once its answer is used:
///
/// ```
/// #![deny(unused_must_use)]
/// let mut buf = [0u8; 10];
/// let _ = varint::encode(300u64, &mut buf);
/// let _ = varint::encode_signed(-3i64, &mut buf);
/// let _ = varint::encoded_len(300u64);
/// let _ = varint::encoded_len_slice(&[300u64]);
/// let _ = varint::sleb128::encode(-3i64, &mut buf);
/// let _ = varint::sleb128::encoded_len(-3i64);
/// ```
#[cfg(doctest)]
struct MustUse;
