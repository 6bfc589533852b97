//! The crate's only `unsafe`: a regular file read through a memory map
//! under a read lease ([`map`]), which `codec convert` uses because it
//! measured faster than `read` (docs/results/codec-cli.md, "Decisions and
//! dead ends"). Everything else in the crate is safe code (`#![deny(unsafe_code)]`
//! at the root, allowed only for this module).

pub(crate) mod map;
