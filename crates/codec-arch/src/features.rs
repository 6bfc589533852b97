//! The `#[target_feature]` sets of the workspace's kernels, each written
//! once, in `with_features!`.
//!
//! `#[target_feature(enable = ...)]` accepts only a string literal, not a
//! macro call (rustc: "macro calls are not allowed here"), so a set cannot
//! be a `const` or a macro named inside the attribute. Instead
//! [`enable!`](crate::enable!) emits the attribute itself on the items it wraps, and
//! [`features!`](crate::features!) gives the same literal as a `&'static str` (for
//! [`Isa`](crate::Isa) and the kernels' `features()`). Both go through
//! `with_features!`, the only place the strings are spelled.
//!
//! | level | features |
//! |---|---|
//! | `sse41` | SSSE3, SSE4.1, POPCNT (every x86-64 CPU from Nehalem) |
//! | `avx2` | AVX2, BMI1, BMI2, POPCNT (Intel from Haswell, AMD from Excavator) |
//! | `avx512` | AVX-512 F, BW, CD, VL, and `avx2`'s (Intel from Skylake-X, AMD from Zen 4) |
//! | `avx512vbmi` | AVX-512 VBMI, and `avx512`'s (Intel from Cannon Lake, AMD from Zen 4) |
//! | `avx512vbmi2` | AVX-512 VBMI and VBMI2, and `avx512`'s (Intel from Ice Lake, AMD from Zen 4) |
//! | `bmi2` | BMI2 alone (utf8-dfa's scalar pass with `shrx`) |
//! | `neon` | NEON (aarch64) |

/// Calls the macro `$callback` of this crate with the feature string of
/// `$level` (see the module docs), then the rest of the arguments.
///
/// The one place the feature strings are written. Use [`enable!`](crate::enable!) or
/// [`features!`](crate::features!) rather than this.
#[doc(hidden)]
#[macro_export]
macro_rules! with_features {
    (sse41, $cb:ident $(, $($rest:tt)*)?) => {
        $crate::$cb! { "ssse3,sse4.1,popcnt" $(, $($rest)*)? }
    };
    (avx2, $cb:ident $(, $($rest:tt)*)?) => {
        $crate::$cb! { "avx2,bmi1,bmi2,popcnt" $(, $($rest)*)? }
    };
    (avx512, $cb:ident $(, $($rest:tt)*)?) => {
        $crate::$cb! { "avx512f,avx512bw,avx512cd,avx512vl,avx2,bmi1,bmi2,popcnt" $(, $($rest)*)? }
    };
    (avx512vbmi, $cb:ident $(, $($rest:tt)*)?) => {
        $crate::$cb! {
            "avx512f,avx512bw,avx512cd,avx512vl,avx512vbmi,avx2,bmi1,bmi2,popcnt"
            $(, $($rest)*)?
        }
    };
    (avx512vbmi2, $cb:ident $(, $($rest:tt)*)?) => {
        $crate::$cb! {
            "avx512f,avx512bw,avx512cd,avx512vl,avx512vbmi,avx512vbmi2,avx2,bmi1,bmi2,popcnt"
            $(, $($rest)*)?
        }
    };
    (bmi2, $cb:ident $(, $($rest:tt)*)?) => {
        $crate::$cb! { "bmi2" $(, $($rest)*)? }
    };
    (neon, $cb:ident $(, $($rest:tt)*)?) => {
        $crate::$cb! { "neon" $(, $($rest)*)? }
    };
}

/// The feature string of a level, as a `&'static str` literal: the one that
/// [`enable!`](crate::enable!) puts in `#[target_feature(enable = ...)]`.
///
/// ```
/// assert_eq!(codec_arch::features!(avx2), "avx2,bmi1,bmi2,popcnt");
/// ```
#[macro_export]
macro_rules! features {
    ($level:ident) => {
        $crate::with_features!($level, __literal)
    };
}

/// Puts `#[target_feature(enable = "<the level's features>")]` on each item
/// (usually functions) it wraps. Levels: see the module docs.
///
/// ```
/// # #[cfg(target_arch = "x86_64")] {
/// codec_arch::enable! { avx2;
///     /// Compiled for AVX2: safe to call only where the CPU has it.
///     fn ones(x: u64) -> u32 {
///         x.count_ones()
///     }
/// }
/// if codec_arch::Isa::AVX2.is_available() {
///     // SAFETY: the CPU has every feature of the `avx2` level.
///     assert_eq!(unsafe { ones(0b1011) }, 3);
/// }
/// # }
/// ```
#[macro_export]
macro_rules! enable {
    ($level:ident; $($items:tt)*) => {
        $crate::with_features!($level, __target_feature, $($items)*);
    };
}

/// The literal, for [`features!`](crate::features!).
#[doc(hidden)]
#[macro_export]
macro_rules! __literal {
    ($features:literal) => {
        $features
    };
}

/// The attribute on each item, for [`enable!`](crate::enable!).
#[doc(hidden)]
#[macro_export]
macro_rules! __target_feature {
    ($features:literal, $($item:item)*) => {
        $( #[target_feature(enable = $features)] $item )*
    };
}
