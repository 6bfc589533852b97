//! x86-64 kernels, all instances of the generic kernel in `arch::kernel`:
//! [`sse41`] (four 16-byte registers per window), [`avx2`] (two 32-byte
//! registers), [`avx2::pext`] (the same, packing with BMI2 `pext` and
//! spreading with `pdep`), [`avx512`] (the `pext` kernel plus a slice
//! length compiled with AVX-512, vectorised with `vplzcntq`) and
//! [`avx512vbmi2`] (the `avx512` kernel decoding eight varints at a time in
//! the lanes of a 512-bit register).

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod avx512vbmi2;
pub(crate) mod shuffle;
pub(crate) mod sse41;

pub(crate) use super::{entry_points, registry_entry};

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
