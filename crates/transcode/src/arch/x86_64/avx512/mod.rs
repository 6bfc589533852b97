//! The AVX-512 kernels (F, BW and VL, with AVX2, BMI1, BMI2 and POPCNT), one
//! file per family (see `arch`'s docs). A family without an AVX-512 kernel
//! uses the AVX2 one: the table falls back to the AVX2 table's entries.

pub(crate) mod count;
pub(crate) mod latin1;
pub(crate) mod utf32;
