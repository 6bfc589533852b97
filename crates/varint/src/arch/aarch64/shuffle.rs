//! The Stream VByte and Group Varint kernel on aarch64: the generic kernels
//! of `arch::shuffle` on the [`Neon`](codec_arch::aarch64::Neon) token, one
//! `tbl` per group of four values (an index of 16 or more selects zero, as
//! the table's `0x80` does for `pshufb`). NEON is part of the target here
//! (see `neon.rs`).

crate::arch::shuffle::shuffle_entry_points!(neon, codec_arch::aarch64::Neon::new());
