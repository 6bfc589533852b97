//! x86-64 kernels, all instances of the generic kernel in `arch::kernel`:
//! [`sse41`] (four 16-byte registers per window), [`avx2`] (two 32-byte
//! registers), [`avx2::pext`] (the same, packing with BMI2 `pext` and
//! spreading with `pdep`) and [`avx512`] (the `pext` kernel plus a slice
//! length compiled with AVX-512, vectorised with `vplzcntq`).

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse41;

/// Stamps out the four `#[target_feature]` entry points of one [`Isa`]
/// (`u64` and `u32`, lenient and strict). They are safe functions (Rust
/// 1.86): only a caller that has not proven the features needs `unsafe`.
///
/// [`Isa`]: crate::arch::kernel::Isa
macro_rules! entry_points {
    ($isa:ty, $features:literal) => {
        /// The kernel into `u64`s, lenient; see `arch::kernel::decode`.
        #[target_feature(enable = $features)]
        pub(crate) fn decode_u64(input: &[u8], out: &mut [u64]) -> (usize, usize) {
            // SAFETY: this function is compiled with the features `$isa`
            // needs, and callable only where the CPU has them.
            unsafe { $crate::arch::kernel::decode::<$isa, u64, false>(input, out) }
        }

        /// The kernel into `u64`s, strict.
        #[target_feature(enable = $features)]
        pub(crate) fn decode_u64_strict(input: &[u8], out: &mut [u64]) -> (usize, usize) {
            // SAFETY: as in `decode_u64`.
            unsafe { $crate::arch::kernel::decode::<$isa, u64, true>(input, out) }
        }

        /// The kernel into `u32`s, lenient.
        #[target_feature(enable = $features)]
        pub(crate) fn decode_u32(input: &[u8], out: &mut [u32]) -> (usize, usize) {
            // SAFETY: as in `decode_u64`.
            unsafe { $crate::arch::kernel::decode::<$isa, u32, false>(input, out) }
        }

        /// The kernel into `u32`s, strict.
        #[target_feature(enable = $features)]
        pub(crate) fn decode_u32_strict(input: &[u8], out: &mut [u32]) -> (usize, usize) {
            // SAFETY: as in `decode_u64`.
            unsafe { $crate::arch::kernel::decode::<$isa, u32, true>(input, out) }
        }

        /// The encoding kernel for `u64`s; see `arch::kernel::encode`.
        ///
        /// # Safety
        ///
        /// `out` holds the encoding of `values`.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn encode_u64(values: &[u64], out: &mut [u8]) -> (usize, usize) {
            // SAFETY: the features as in `decode_u64`; the room is the
            // caller's promise.
            unsafe { $crate::arch::kernel::encode::<$isa, u64>(values, out) }
        }

        /// The encoding kernel for `u32`s.
        ///
        /// # Safety
        ///
        /// `out` holds the encoding of `values`.
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn encode_u32(values: &[u32], out: &mut [u8]) -> (usize, usize) {
            // SAFETY: as in `encode_u64`.
            unsafe { $crate::arch::kernel::encode::<$isa, u32>(values, out) }
        }

        /// The summed encoded length of `u64`s, vectorised for `$features`.
        #[target_feature(enable = $features)]
        pub(crate) fn len_u64(values: &[u64]) -> usize {
            $crate::arch::kernel::encoded_len(values)
        }

        /// The summed encoded length of `u32`s.
        #[target_feature(enable = $features)]
        pub(crate) fn len_u32(values: &[u32]) -> usize {
            $crate::arch::kernel::encoded_len(values)
        }
    };
}
pub(crate) use entry_points;

/// The registry entry (`arch::Kernel`) of a module that `entry_points!`
/// stamped: its name, features, detection and the four entry points.
macro_rules! kernel {
    ($name:literal, $features:literal, $detect:expr) => {
        $crate::arch::Kernel {
            name: $name,
            features: $features,
            detect: $detect,
            entries: $crate::arch::Entries {
                u64_lenient: decode_u64,
                u64_strict: decode_u64_strict,
                u32_lenient: decode_u32,
                u32_strict: decode_u32_strict,
                encode_u64,
                encode_u32,
                len_u64,
                len_u32,
            },
        }
    };
}
pub(crate) use kernel;

/// Whether BMI2 `pext` is fast here: on Intel (3 cycles since Haswell) and
/// on AMD from family 0x19 (Zen 3) on. AMD's earlier BMI2 CPUs (families
/// 0x15–0x18, Hygon's included) run it as microcode, at 18 to about 300
/// cycles depending on the mask, which would make the `pext` kernel many
/// times slower than the shift kernel there. Other vendors: assumed slow.
pub(crate) fn fast_pext() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    /// 0: not asked yet, 1: slow, 2: fast. `cpuid` is slow itself (a VM
    /// exit under a hypervisor, microseconds), so it is asked once.
    static FAST: AtomicU8 = AtomicU8::new(0);
    match FAST.load(Ordering::Relaxed) {
        0 => {
            let fast = ask_cpuid();
            FAST.store(1 + u8::from(fast), Ordering::Relaxed);
            fast
        }
        known => known == 2,
    }
}

/// The vendor and family test of [`fast_pext`], by `cpuid`.
#[cold]
fn ask_cpuid() -> bool {
    // `__cpuid` is safe since Rust 1.90; the workspace supports 1.89.
    #[allow(unused_unsafe)]
    // SAFETY: `cpuid` exists on every x86-64 CPU; leaves 0 and 1 always.
    let (vendor, signature) = unsafe {
        let v = core::arch::x86_64::__cpuid(0);
        ([v.ebx, v.edx, v.ecx], core::arch::x86_64::__cpuid(1).eax)
    };
    // "GenuineIntel" and "AuthenticAMD", as the three registers hold them.
    const INTEL: [u32; 3] = [0x756E_6547, 0x4965_6E69, 0x6C65_746E];
    const AMD: [u32; 3] = [0x6874_7541, 0x6974_6E65, 0x444D_4163];
    // The family: bits 8–11, plus the extended family (bits 20–27) when
    // those read 0xF.
    let base = (signature >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((signature >> 20) & 0xFF)
    } else {
        base
    };
    vendor == INTEL || (vendor == AMD && family >= 0x19)
}
