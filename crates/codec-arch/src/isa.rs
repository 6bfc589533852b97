//! What the CPU has ([`Features`], detected once) and what a kernel needs
//! ([`Isa`]: a level of [`features!`](crate::features!) plus the facts no
//! feature flag states, such as a fast `pext`).

use core::fmt;
use core::sync::atomic::{AtomicU32, Ordering};

/// A set of CPU features: the ones `target_feature` names (those the
/// workspace's levels use), plus [`Features::FAST_PEXT`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Features(u32);

/// The `target_feature` names [`Features::parse`] knows, bit `i` of a set
/// for name `i`.
const NAMES: [&str; 16] = [
    "sse2",
    "ssse3",
    "sse4.1",
    "sse4.2",
    "popcnt",
    "avx",
    "avx2",
    "bmi1",
    "bmi2",
    "avx512f",
    "avx512bw",
    "avx512cd",
    "avx512vl",
    "avx512vbmi",
    "avx512vbmi2",
    "neon",
];

/// Set once the CPU has been asked; never a feature.
const DETECTED: u32 = 1 << 31;

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl Features {
    /// No feature: what the portable kernels need.
    pub const NONE: Features = Features(0);

    /// BMI2 `pext` and `pdep` run in a few cycles: Intel since Haswell, AMD
    /// from Zen 3 (family 0x19) on. AMD's earlier BMI2 CPUs (families
    /// 0x15–0x18, Hygon's included) run them as microcode, 18 to about 300
    /// cycles depending on the mask, many times slower than shifts; other
    /// vendors are assumed slow. No `target_feature` states this: it is
    /// decided once, here, from `cpuid`'s vendor and family.
    pub const FAST_PEXT: Features = Features(1 << 30);

    /// The set a comma-separated `target_feature` list names, at compile
    /// time. Fails to compile (a `const` panic) on a name it does not know.
    #[must_use]
    #[allow(clippy::panic)] // only ever evaluated in `const` items
    pub const fn parse(list: &str) -> Features {
        let bytes = list.as_bytes();
        let mut bits = 0;
        let mut start = 0;
        while start < bytes.len() {
            let mut end = start;
            while end < bytes.len() && bytes[end] != b',' {
                end += 1;
            }
            let (_, rest) = bytes.split_at(start);
            let (name, _) = rest.split_at(end - start);
            let mut i = 0;
            loop {
                if i == NAMES.len() {
                    panic!("a feature name that codec_arch::Features does not know");
                }
                if same(name, NAMES[i].as_bytes()) {
                    bits |= 1 << i;
                    break;
                }
                i += 1;
            }
            start = end + 1;
        }
        Features(bits)
    }

    /// Both sets.
    #[must_use]
    pub const fn union(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }

    /// Whether every feature of `other` is in `self`.
    #[must_use]
    pub const fn contains(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }

    /// The features of this CPU. Asked once (with `cpuid` and `xgetbv` on
    /// x86, which work without `std`), then one relaxed load. On aarch64 NEON is known at compile time.
    #[inline]
    #[must_use]
    pub fn cpu() -> Features {
        static CPU: AtomicU32 = AtomicU32::new(0);
        let bits = CPU.load(Ordering::Relaxed);
        if bits & DETECTED != 0 {
            return Features(bits & !DETECTED);
        }
        let found = detect();
        CPU.store(found.0 | DETECTED, Ordering::Relaxed);
        found
    }
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut set = f.debug_set();
        for (i, name) in NAMES.iter().enumerate() {
            if self.0 & (1 << i) != 0 {
                set.entry(name);
            }
        }
        if self.contains(Features::FAST_PEXT) {
            set.entry(&"fast-pext");
        }
        set.finish()
    }
}

/// Asks the CPU once: `cpuid` leaves 0, 1 and 7, and `xgetbv`'s XCR0 when
/// the OS saves the vector registers (OSXSAVE), whose AVX and AVX-512 state
/// bits the AVX and AVX-512 features also need. Three `cpuid`s in all: in a
/// virtual machine each traps to the hypervisor (about 7 µs on the Intel VM
/// of docs/results), and asking feature by feature (the `cpufeatures`
/// crate, about 40 of them) took 0.29 ms of every process's start.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
#[cold]
fn detect() -> Features {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::{__cpuid, __cpuid_count, _xgetbv};
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};
    // `__cpuid` is safe since Rust 1.90; the workspace supports 1.89.
    #[allow(unused_unsafe)]
    // SAFETY: every x86-64 CPU, and every x86 one Rust's targets run on
    // (i586 and later), has `cpuid`; leaves 0 and 1 always exist, and leaf
    // 7 is asked only when leaf 0 says it exists.
    let (vendor, leaf1, leaf7) = unsafe {
        let v = __cpuid(0);
        let leaf7 = if v.eax >= 7 {
            let r = __cpuid_count(7, 0);
            (r.ebx, r.ecx)
        } else {
            (0, 0)
        };
        ([v.ebx, v.edx, v.ecx], __cpuid(1), leaf7)
    };
    let bit = |reg: u32, i: u32| (reg >> i) & 1 == 1;
    // XSAVE (bit 26) and OSXSAVE (27): `xgetbv` exists and the OS set XCR0.
    let xcr0 = if bit(leaf1.ecx, 26) && bit(leaf1.ecx, 27) {
        // SAFETY: OSXSAVE says `xgetbv` runs; XCR0 is register 0.
        unsafe { _xgetbv(0) }
    } else {
        0
    };
    // The OS saves the SSE and AVX state (XCR0 bits 1, 2), and the
    // AVX-512 opmask and upper ZMM state too (bits 5, 6, 7).
    let ymm = xcr0 & 0b110 == 0b110;
    let zmm = xcr0 & 0b1110_0110 == 0b1110_0110;
    let (b7, c7) = leaf7;
    let table = [
        ("sse2", bit(leaf1.edx, 26)),
        ("ssse3", bit(leaf1.ecx, 9)),
        ("sse4.1", bit(leaf1.ecx, 19)),
        ("sse4.2", bit(leaf1.ecx, 20)),
        ("popcnt", bit(leaf1.ecx, 23)),
        ("avx", ymm && bit(leaf1.ecx, 28)),
        ("avx2", ymm && bit(leaf1.ecx, 28) && bit(b7, 5)),
        ("bmi1", bit(b7, 3)),
        ("bmi2", bit(b7, 8)),
        ("avx512f", zmm && bit(b7, 16)),
        ("avx512bw", zmm && bit(b7, 30)),
        ("avx512cd", zmm && bit(b7, 28)),
        ("avx512vl", zmm && bit(b7, 31)),
        ("avx512vbmi", zmm && bit(c7, 1)),
        ("avx512vbmi2", zmm && bit(c7, 6)),
    ];
    let mut found = Features::NONE;
    for (name, has) in table {
        if has {
            found = found.union(Features::parse(name));
        }
    }
    if found.contains(Features::parse("bmi2")) && fast_pext_vendor(vendor, leaf1.eax) {
        found.union(Features::FAST_PEXT)
    } else {
        found
    }
}

/// The vendor and family test of [`Features::FAST_PEXT`], from `cpuid`
/// leaf 0's vendor registers (ebx, edx, ecx) and leaf 1's `eax`.
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
fn fast_pext_vendor(vendor: [u32; 3], signature: u32) -> bool {
    // "GenuineIntel" and "AuthenticAMD", as the three registers hold them.
    const INTEL: [u32; 3] = [0x756E_6547, 0x4965_6E69, 0x6C65_746E];
    const AMD: [u32; 3] = [0x6874_7541, 0x6974_6E65, 0x444D_4163];
    vendor == INTEL || (vendor == AMD && family(signature) >= 0x19)
}

/// The family of `cpuid` leaf 1's `eax`: bits 8–11, plus the extended
/// family (bits 20–27) when those read 0xF.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "x86")),
    allow(dead_code)
)]
const fn family(signature: u32) -> u32 {
    let base = (signature >> 8) & 0xF;
    if base == 0xF {
        base + ((signature >> 20) & 0xFF)
    } else {
        base
    }
}

/// NEON is part of every aarch64 target but the `softfloat` ones, and
/// known at compile time.
#[cfg(not(any(target_arch = "x86_64", target_arch = "x86")))]
#[cold]
fn detect() -> Features {
    if cfg!(target_feature = "neon") {
        Features::parse("neon")
    } else {
        Features::NONE
    }
}

/// What a kernel needs: the `target_feature` string it is compiled with
/// (from [`features!`](crate::features!)) and the set the CPU must have to
/// run it, which may hold more than the string (a fast `pext`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Isa {
    features: &'static str,
    needs: Features,
}

impl Isa {
    /// Nothing: the portable kernels.
    pub const PORTABLE: Isa = Isa::new("");
    /// The `sse41` level.
    pub const SSE41: Isa = Isa::new(crate::features!(sse41));
    /// The `avx2` level.
    pub const AVX2: Isa = Isa::new(crate::features!(avx2));
    /// The `avx512` level.
    pub const AVX512: Isa = Isa::new(crate::features!(avx512));
    /// The `avx512vbmi` level.
    pub const AVX512VBMI: Isa = Isa::new(crate::features!(avx512vbmi));
    /// The `avx512vbmi2` level.
    pub const AVX512VBMI2: Isa = Isa::new(crate::features!(avx512vbmi2));
    /// The `bmi2` level.
    pub const BMI2: Isa = Isa::new(crate::features!(bmi2));
    /// The `neon` level.
    pub const NEON: Isa = Isa::new(crate::features!(neon));

    /// A kernel compiled with `features` and needing just those.
    #[must_use]
    pub const fn new(features: &'static str) -> Isa {
        Isa {
            features,
            needs: Features::parse(features),
        }
    }

    /// The same, also needing a fast `pext` ([`Features::FAST_PEXT`]).
    #[must_use]
    pub const fn with_fast_pext(self) -> Isa {
        Isa {
            features: self.features,
            needs: self.needs.union(Features::FAST_PEXT),
        }
    }

    /// The `target_feature` names, separated by commas (empty for
    /// [`Isa::PORTABLE`]).
    #[must_use]
    pub const fn features(self) -> &'static str {
        self.features
    }

    /// What the CPU must have.
    #[must_use]
    pub const fn needs(self) -> Features {
        self.needs
    }

    /// Whether this CPU has it (one relaxed load after the first call).
    #[inline]
    #[must_use]
    pub fn is_available(self) -> bool {
        Features::cpu().contains(self.needs)
    }
}

impl fmt::Debug for Isa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Isa")
            .field("features", &self.features)
            .field("needs", &self.needs)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_reads_every_name_to_its_own_bit() {
        for (i, name) in NAMES.iter().enumerate() {
            assert_eq!(Features::parse(name), Features(1 << i), "{name}");
        }
        assert_eq!(Features::parse(""), Features::NONE);
        let two = Features::parse("avx2,bmi2");
        assert!(two.contains(Features::parse("bmi2")));
        assert!(!two.contains(Features::parse("bmi1")));
        assert!(!Features::parse("sse4.2").contains(Features::parse("sse4.1")));
    }

    #[test]
    fn levels_grow_as_documented() {
        let chain = [
            Isa::PORTABLE,
            Isa::SSE41,
            Isa::AVX2,
            Isa::AVX512,
            Isa::AVX512VBMI,
            Isa::AVX512VBMI2,
        ];
        for pair in chain.windows(2) {
            // Every x86 level but SSE4.1 implies the one below through the
            // features a CPU that has it has (AVX2 implies SSSE3 and
            // SSE4.1); the strings themselves name what the compiler needs.
            if pair[0] != Isa::SSE41 {
                assert!(pair[1].needs().contains(pair[0].needs()), "{pair:?}");
            }
            assert_ne!(pair[0].needs(), pair[1].needs());
        }
        assert!(Isa::AVX2.needs().contains(Isa::BMI2.needs()));
        assert!(Isa::SSE41.needs().contains(Features::parse("ssse3")));
        assert!(!Isa::AVX2.needs().contains(Features::FAST_PEXT));
        assert!(
            Isa::AVX2
                .with_fast_pext()
                .needs()
                .contains(Features::FAST_PEXT)
        );
        assert_eq!(Isa::AVX2.with_fast_pext().features(), Isa::AVX2.features());
        assert_eq!(format!("{:?}", Isa::BMI2.needs()), r#"{"bmi2"}"#);
    }

    #[test]
    fn family_reads_the_extended_family() {
        // Zen 3 (family 0x19), Zen 2 (0x17), Haswell (family 6).
        assert_eq!(family(0x00A2_0F10), 0x19);
        assert_eq!(family(0x0087_0F10), 0x17);
        assert_eq!(family(0x0003_06C3), 6);
    }

    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    #[test]
    fn cpu_agrees_with_std() {
        extern crate std;
        let cpu = Features::cpu();
        assert_eq!(cpu, Features::cpu(), "cached");
        macro_rules! check {
            ($($name:tt),*) => {$(
                assert_eq!(
                    cpu.contains(Features::parse($name)),
                    std::is_x86_feature_detected!($name),
                    $name
                );
            )*};
        }
        check!(
            "sse2",
            "ssse3",
            "sse4.1",
            "sse4.2",
            "popcnt",
            "avx",
            "avx2",
            "bmi1",
            "bmi2",
            "avx512f",
            "avx512bw",
            "avx512cd",
            "avx512vl",
            "avx512vbmi",
            "avx512vbmi2"
        );
        if cpu.contains(Features::FAST_PEXT) {
            assert!(cpu.contains(Features::parse("bmi2")));
        }
    }
}
