//! The Stream VByte and Group Varint kernels: one table-driven shuffle per
//! group of four `u32`s (`pshufb` on x86-64, `tbl` on aarch64), written
//! once over codec-arch's [`Simd`] on a 16-byte token (`Sse41`, also in
//! the AVX2 instance, and `Neon`), with their own list of kernels
//! ([`shuffle_kernels`]) of the LEB128 kernels' registry type and dispatch
//! (`arch/mod.rs`, `codec_arch`). The same table holds the QUIC varint bulk
//! decoders (`x86_64/quic.rs`, pointer doubling with `pshufb`; the scalar
//! loop on other targets), which share its instruction sets.
//!
//! Every kernel is exact at the end of its slices: a 16-byte load happens
//! only while 16 bytes (17 for Group Varint, whose tag comes first) remain
//! from the group's start, and a 16-byte store only while the output holds
//! 16 bytes there *and* at least 12 more values follow, whose encoding then
//! covers every byte the store wrote past the group (each value takes at
//! least one byte in the standard layout). The scalar code in
//! `crate::streamvbyte` and `crate::group_varint` does the rest, so every
//! answer, error included, is the scalar one's.

use core::fmt;

use codec_arch::{Dispatch, Entry, Isa, Simd};

use crate::{BulkError, Decoded};

pub(crate) mod tables;

use tables::{CODES, DECODE_0124, DECODE_1234, ENCODE_1234, LEN_0124, LEN_1234};

/// A [`Simd`] token of 16-byte registers (its own [`Simd::Base`]), read as
/// four `u32` lanes, little-endian: lane 0 is bytes 0–3. The kernels'
/// operations on such a register are the functions below, each a few
/// `Simd` operations.
#[cfg_attr(
    not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon")
    )),
    allow(dead_code)
)]
pub(crate) trait Simd16: Simd<Base = Self> {}
impl<S: Simd<Base = S>> Simd16 for S {}

/// Byte `i` of the result is byte `pattern[i]` of `v`, or 0 if that index
/// has its top bit set.
#[inline(always)]
fn lookup<S: Simd16>(s: S, v: S::V, pattern: &[u8; 16]) -> S::V {
    s.shuffle8(v, s.broadcast16(pattern))
}

/// The `shuffle8` pattern that puts lane 3 in every lane.
const LANE3: [u8; 16] = [
    12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15,
];

/// Lane 3 (off the hot loops: once a call).
#[inline(always)]
fn last<S: Simd16>(s: S, v: S::V) -> u32 {
    let mut b = [0u8; 16];
    // SAFETY: `b` is 16 writable bytes, `BYTES` for a 16-byte token.
    unsafe { s.store(b.as_mut_ptr(), v) };
    u32::from_le_bytes([b[12], b[13], b[14], b[15]])
}

/// Zigzag decoding of each lane: `(x >> 1) ^ -(x & 1)`.
#[inline(always)]
fn unzigzag<S: Simd16>(s: S, v: S::V) -> S::V {
    let sign = s.sub32(s.zero(), s.and(v, s.splat32(1)));
    s.xor(s.shr32::<1>(v), sign)
}

/// Zigzag encoding of each lane: `(x << 1) ^ (x >> 31)`, arithmetic (the
/// sign is the mask of `0 > x`).
#[inline(always)]
fn zigzag<S: Simd16>(s: S, v: S::V) -> S::V {
    s.xor(s.shl32::<1>(v), s.gt_i32(s.zero(), v))
}

/// The running sum of the lanes plus lane 3 of `prev` (wrapping): the
/// lanes moved up by one, then by two, added.
#[inline(always)]
fn prefix_sum<S: Simd16>(s: S, v: S::V, prev: S::V) -> S::V {
    let v = s.add32(v, s.alignr8::<12>(v, s.zero()));
    let v = s.add32(v, s.alignr8::<8>(v, s.zero()));
    s.add32(v, lookup(s, prev, &LANE3))
}

/// Each lane minus the one before it, lane 0 minus lane 3 of `prev`
/// (`alignr8` gives `[prev[3], v[0], v[1], v[2]]`).
#[inline(always)]
fn delta<S: Simd16>(s: S, v: S::V, prev: S::V) -> S::V {
    s.sub32(v, s.alignr8::<12>(v, prev))
}

/// The standard layout's control byte of the four lanes: code `bytes - 1`
/// of each, lane 0 in the low bits. Bit `4i + k` of the movemask says byte
/// `k` of lane `i` is zero; [`CODES`] turns each half (two lanes) into
/// their codes.
#[inline(always)]
fn control<S: Simd16>(s: S, v: S::V) -> u8 {
    let zero = s.movemask8(s.eq8(v, s.zero()));
    CODES[(zero & 0xFF) as usize] | CODES[((zero >> 8) & 0xFF) as usize] << 4
}

/// The 16 bytes at `p` widened to 16 lanes, four registers (the decoding
/// of four groups of one-byte values, control byte 0).
///
/// # Safety
///
/// 16 readable bytes at `p`.
#[inline(always)]
unsafe fn widen<S: Simd16>(s: S, p: *const u8) -> [S::V; 4] {
    // SAFETY: each load reads 4 of the 16 bytes the caller promises.
    unsafe {
        [
            s.load_widen8to32(p),
            s.load_widen8to32(p.add(4)),
            s.load_widen8to32(p.add(8)),
            s.load_widen8to32(p.add(12)),
        ]
    }
}

/// Stream VByte decoding of whole groups: `ctrl` holds one control byte per
/// group, `data` the data stream from the first group's bytes on. Returns
/// `(groups, data bytes, last value)`; stops when fewer than 16 data bytes
/// remain, at the end of `ctrl`, or when `out` has no room for 4 values.
#[inline(always)]
pub(crate) fn svb_decode<S: Simd16, const Z124: bool, const ZZ: bool, const DELTA: bool>(
    s: S,
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u32],
    prev: u32,
) -> (usize, usize, u32) {
    let (table, lens) = if Z124 {
        (&DECODE_0124, &LEN_0124)
    } else {
        (&DECODE_1234, &LEN_1234)
    };
    let groups = ctrl.len().min(out.len() / 4);
    let (mut g, mut pos) = (0, 0);
    let mut p = s.splat32(prev);
    // SAFETY: invariant `pos <= data.len()`: a step of eight groups adds at
    // most 128 after checking that 128 bytes remain (group `k`'s 16 bytes
    // start at most `16k` after `pos`, so all are inside `data`), a single
    // step at most 16 after checking 16. The stores write values `4g..4(g +
    // k)` after checking `g + k <= groups <= out.len() / 4`; the control
    // bytes read (8 at `g` after checking `g + 8 <= groups`) are below
    // `groups <= ctrl.len()`.
    unsafe {
        // Eight groups a step: one 8-byte load of control bytes and one
        // bound check for all of them.
        while g + 8 <= groups && data.len() - pos >= 128 {
            let word = u64::from_le_bytes(ctrl.as_ptr().add(g).cast::<[u8; 8]>().read());
            let dst = out.as_mut_ptr().add(4 * g).cast::<u8>();
            if !Z124 && word == 0 {
                // 32 one-byte values (small values, or small deltas):
                // widened, no shuffle. 32 bytes read of the 128 checked.
                for half in 0..2 {
                    let vs = widen(s, data.as_ptr().add(pos + 16 * half));
                    for (j, v) in vs.into_iter().enumerate() {
                        finish::<S, ZZ, DELTA>(s, v, dst.add(64 * half + 16 * j), &mut p);
                    }
                }
                pos += 32;
            } else {
                for k in 0..8 {
                    let c = (word >> (8 * k)) as u8 as usize;
                    let v = lookup(s, s.load(data.as_ptr().add(pos)), &table[c]);
                    finish::<S, ZZ, DELTA>(s, v, dst.add(16 * k), &mut p);
                    pos += usize::from(lens[c]);
                }
            }
            g += 8;
        }
        while g < groups && data.len() - pos >= 16 {
            let c = usize::from(ctrl[g]);
            let v = lookup(s, s.load(data.as_ptr().add(pos)), &table[c]);
            finish::<S, ZZ, DELTA>(s, v, out.as_mut_ptr().add(4 * g).cast(), &mut p);
            pos += usize::from(lens[c]);
            g += 1;
        }
    }
    (g, pos, if DELTA { last(s, p) } else { prev })
}

/// The options (zigzag, then delta from lane 3 of `p`) on one decoded
/// group, stored at `dst`.
///
/// # Safety
///
/// 16 writable bytes at `dst`.
#[inline(always)]
unsafe fn finish<S: Simd16, const ZZ: bool, const DELTA: bool>(
    s: S,
    mut v: S::V,
    dst: *mut u8,
    p: &mut S::V,
) {
    if ZZ {
        v = unzigzag(s, v);
    }
    if DELTA {
        v = prefix_sum(s, v, *p);
        *p = v;
    }
    // SAFETY: the caller's promise.
    unsafe { s.store(dst, v) }
}

/// Stream VByte encoding (standard layout) of whole groups: control bytes
/// into `ctrl`, data into `data`. Returns `(groups, data bytes, last
/// value)`; stops 12 values before the end of `values` (see the module
/// docs), at the end of `ctrl`, or when `data` has less than 16 bytes left.
#[inline(always)]
pub(crate) fn svb_encode<S: Simd16, const ZZ: bool, const DELTA: bool>(
    s: S,
    values: &[u32],
    ctrl: &mut [u8],
    data: &mut [u8],
    prev: u32,
) -> (usize, usize, u32) {
    let groups = (values.len().saturating_sub(12) / 4).min(ctrl.len());
    let (mut g, mut pos) = (0, 0);
    let mut p = s.splat32(prev);
    // SAFETY: the load reads values `4g..4g + 4`, inside `values` as `g <
    // values.len() / 4`; `pos <= data.len()` holds as in `svb_decode`, so
    // the store writes inside `data`.
    unsafe {
        while g < groups && data.len() - pos >= 16 {
            let raw = s.load(values.as_ptr().add(4 * g).cast());
            let mut v = raw;
            if DELTA {
                v = delta(s, v, p);
                p = raw;
            }
            if ZZ {
                v = zigzag(s, v);
            }
            let c = control(s, v);
            ctrl[g] = c;
            s.store(
                data.as_mut_ptr().add(pos),
                lookup(s, v, &ENCODE_1234[usize::from(c)]),
            );
            pos += usize::from(LEN_1234[usize::from(c)]);
            g += 1;
        }
    }
    (g, pos, if DELTA { last(s, p) } else { prev })
}

/// Group Varint decoding of whole groups (tag byte, then the data of four
/// values): `(groups, bytes)`; stops when fewer than 17 bytes remain or
/// `out` has no room for 4 values.
#[inline(always)]
pub(crate) fn gv_decode<S: Simd16>(s: S, input: &[u8], out: &mut [u32]) -> (usize, usize) {
    let groups = out.len() / 4;
    let (mut g, mut pos) = (0, 0);
    // SAFETY: `pos <= input.len()` as in `svb_decode` (each step adds at
    // most 17 after checking that 17 bytes remain), so the tag and the
    // 16-byte load at `pos + 1` are inside `input`; the store as in
    // `svb_decode`.
    unsafe {
        while g < groups && input.len() - pos >= 17 {
            let c = usize::from(input[pos]);
            let v = lookup(s, s.load(input.as_ptr().add(pos + 1)), &DECODE_1234[c]);
            s.store(out.as_mut_ptr().add(4 * g).cast(), v);
            g += 1;
            if c == 0 {
                // Four one-byte values: the next tag is 5 bytes on, known
                // without waiting for this tag's length from the table, so
                // a predicted branch lets runs of small values overlap.
                pos += 5;
            } else {
                pos += 1 + usize::from(LEN_1234[c]);
            }
        }
    }
    (g, pos)
}

/// Group Varint encoding of whole groups: `(groups, bytes)`; stops 12
/// values before the end of `values` or when `out` has less than 17 bytes
/// left.
#[inline(always)]
pub(crate) fn gv_encode<S: Simd16>(s: S, values: &[u32], out: &mut [u8]) -> (usize, usize) {
    let groups = values.len().saturating_sub(12) / 4;
    let (mut g, mut pos) = (0, 0);
    // SAFETY: as in `svb_encode`, with the tag at `pos` and the 16-byte
    // store at `pos + 1`, inside `out` as 17 bytes remain.
    unsafe {
        while g < groups && out.len() - pos >= 17 {
            let v = s.load(values.as_ptr().add(4 * g).cast());
            let c = control(s, v);
            out[pos] = c;
            s.store(
                out.as_mut_ptr().add(pos + 1),
                lookup(s, v, &ENCODE_1234[usize::from(c)]),
            );
            pos += 1 + usize::from(LEN_1234[usize::from(c)]);
            g += 1;
        }
    }
    (g, pos)
}

/// Stamps out the `#[target_feature]` entry points of one instruction set
/// (`$level`, as `codec_arch::enable!` names it) over the 16-byte token
/// `$token` makes inside them, and the [`Entries`] holding them.
macro_rules! shuffle_entry_points {
    ($level:ident, $token:expr) => {
        codec_arch::enable! { $level;
            fn svb_decode<const Z124: bool, const ZZ: bool, const DELTA: bool>(
                ctrl: &[u8],
                data: &[u8],
                out: &mut [u32],
                prev: u32,
            ) -> (usize, usize, u32) {
                $crate::arch::shuffle::svb_decode::<_, Z124, ZZ, DELTA>($token, ctrl, data, out, prev)
            }
        }

        codec_arch::enable! { $level;
            fn svb_encode<const ZZ: bool, const DELTA: bool>(
                values: &[u32],
                ctrl: &mut [u8],
                data: &mut [u8],
                prev: u32,
            ) -> (usize, usize, u32) {
                $crate::arch::shuffle::svb_encode::<_, ZZ, DELTA>($token, values, ctrl, data, prev)
            }
        }

        codec_arch::enable! { $level;
            fn gv_decode(input: &[u8], out: &mut [u32]) -> (usize, usize) {
                $crate::arch::shuffle::gv_decode($token, input, out)
            }
        }

        codec_arch::enable! { $level;
            fn gv_encode(values: &[u32], out: &mut [u8]) -> (usize, usize) {
                $crate::arch::shuffle::gv_encode($token, values, out)
            }
        }

        /// The entry points, indexed as `arch::shuffle::Entries` says.
        pub(crate) const ENTRIES: $crate::arch::shuffle::Entries = $crate::arch::shuffle::Entries {
            svb_decode: [
                svb_decode::<false, false, false>,
                svb_decode::<false, false, true>,
                svb_decode::<false, true, false>,
                svb_decode::<false, true, true>,
                svb_decode::<true, false, false>,
                svb_decode::<true, false, true>,
                svb_decode::<true, true, false>,
                svb_decode::<true, true, true>,
            ],
            svb_encode: [
                svb_encode::<false, false>,
                svb_encode::<false, true>,
                svb_encode::<true, false>,
                svb_encode::<true, true>,
            ],
            gv_decode,
            gv_encode,
            // The QUIC kernels are x86-64 only: `KERNELS` sets them there.
            quic_decode: [$crate::arch::shuffle::no_quic_decode; 2],
        };
    };
}
#[cfg_attr(
    not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon")
    )),
    allow(unused_imports)
)]
pub(crate) use shuffle_entry_points;

/// Stream VByte decoding: `(ctrl, data, out, prev) -> (groups, bytes, prev)`.
pub(crate) type SvbDecode = unsafe fn(&[u8], &[u8], &mut [u32], u32) -> (usize, usize, u32);
/// Stream VByte encoding: `(values, ctrl, data, prev) -> (groups, bytes, prev)`.
pub(crate) type SvbEncode = unsafe fn(&[u32], &mut [u8], &mut [u8], u32) -> (usize, usize, u32);
/// Group Varint decoding: `(input, out) -> (groups, bytes)`.
pub(crate) type GvDecode = unsafe fn(&[u8], &mut [u32]) -> (usize, usize);
/// Group Varint encoding: `(values, out) -> (groups, bytes)`.
pub(crate) type GvEncode = unsafe fn(&[u32], &mut [u8]) -> (usize, usize);
/// QUIC varint decoding: `(input, out) -> (bytes, count)`.
pub(crate) type QuicDecode = unsafe fn(&[u8], &mut [u64]) -> (usize, usize);

/// A kernel's entry points. `unsafe` because the x86 ones need their CPU
/// features; each is memory-safe on any slices.
pub(crate) struct Entries {
    /// Indexed by `4 * zero124 + 2 * zigzag + delta`.
    pub(crate) svb_decode: [SvbDecode; 8],
    /// Standard layout only, indexed by `2 * zigzag + delta`.
    pub(crate) svb_encode: [SvbEncode; 4],
    pub(crate) gv_decode: GvDecode,
    pub(crate) gv_encode: GvEncode,
    /// QUIC varints, lenient then strict (`x86_64/quic.rs`).
    pub(crate) quic_decode: [QuicDecode; 2],
}

super::registry_type!(
    /// One Stream VByte, Group Varint and QUIC varint kernel: its name
    /// (`"avx2"`, `"sse4.1"`, `"neon"`, `"portable"`), the CPU features it
    /// needs, and its entry points. The list of them is [`shuffle_kernels`].
    ///
    /// ```
    /// for kernel in varint::shuffle_kernels() {
    ///     println!("{} ({}): {}", kernel.name(), kernel.features(), kernel.is_available());
    /// }
    /// ```
    ShuffleKernel,
    Entries
);

impl ShuffleKernel {
    /// The kernel as a codec, if this CPU can run it.
    #[must_use]
    pub fn codec(&'static self) -> Option<ShuffleCodec> {
        self.is_available().then_some(ShuffleCodec(self))
    }
}

/// Does nothing: the scalar code does all the work.
fn no_svb_decode(_: &[u8], _: &[u8], _: &mut [u32], prev: u32) -> (usize, usize, u32) {
    (0, 0, prev)
}
fn no_svb_encode(_: &[u32], _: &mut [u8], _: &mut [u8], prev: u32) -> (usize, usize, u32) {
    (0, 0, prev)
}
fn no_gv_decode(_: &[u8], _: &mut [u32]) -> (usize, usize) {
    (0, 0)
}
fn no_gv_encode(_: &[u32], _: &mut [u8]) -> (usize, usize) {
    (0, 0)
}
pub(crate) fn no_quic_decode(_: &[u8], _: &mut [u64]) -> (usize, usize) {
    (0, 0)
}

/// The portable kernel: the scalar loops, no kernel at all.
const PORTABLE: ShuffleKernel = ShuffleKernel(Entry::new(
    "portable",
    Isa::PORTABLE,
    Entries {
        svb_decode: [no_svb_decode; 8],
        svb_encode: [no_svb_encode; 4],
        gv_decode: no_gv_decode,
        gv_encode: no_gv_encode,
        quic_decode: [no_quic_decode; 2],
    },
));

/// Every shuffle kernel compiled for this target, fastest first.
#[cfg(target_arch = "x86_64")]
static KERNELS: [ShuffleKernel; 3] = [
    ShuffleKernel(Entry::new(
        "avx2",
        Isa::AVX2,
        Entries {
            quic_decode: super::x86_64::quic::avx2::QUIC,
            ..super::x86_64::shuffle::avx2::ENTRIES
        },
    )),
    ShuffleKernel(Entry::new(
        "sse4.1",
        Isa::SSE41,
        Entries {
            quic_decode: super::x86_64::quic::sse41::QUIC,
            ..super::x86_64::shuffle::sse41::ENTRIES
        },
    )),
    PORTABLE,
];

/// Every shuffle kernel compiled for this target: NEON is part of the
/// target (chosen at compile time, as the LEB128 kernels are).
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
static KERNELS: [ShuffleKernel; 2] = [
    ShuffleKernel(Entry::new(
        "neon",
        Isa::NEON,
        super::aarch64::shuffle::ENTRIES,
    )),
    PORTABLE,
];

/// Every shuffle kernel compiled for this target.
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_feature = "neon")
)))]
static KERNELS: [ShuffleKernel; 1] = [PORTABLE];

/// Every Stream VByte and Group Varint kernel compiled into this crate for
/// the target, fastest first, whether or not this CPU can run it; the last
/// one, `portable` (the scalar code), runs everywhere. The functions of
/// [`streamvbyte`](crate::streamvbyte) and
/// [`group_varint`](crate::group_varint), and QUIC's
/// [`decode_into`](crate::formats::Format::decode_into), use the first one
/// this CPU can run.
///
/// ```
/// let values = [1, 300, 70_000, 1 << 30, 5];
/// for kernel in varint::shuffle_kernels() {
///     if let Some(codec) = kernel.codec() {
///         let svb = varint::streamvbyte::StreamVByte::new().with_codec(codec);
///         let bytes = svb.encode_to_vec(&values);
///         assert_eq!(svb.decode_to_vec(&bytes, values.len()), Ok(values.to_vec()));
///     }
/// }
/// assert_eq!(varint::shuffle_kernels().last().map(|k| k.name()), Some("portable"));
/// ```
#[must_use]
pub fn shuffle_kernels() -> &'static [ShuffleKernel] {
    &KERNELS
}

/// A [`ShuffleKernel`] this CPU can run: [`ShuffleCodec::new`] picks the
/// best, [`ShuffleKernel::codec`] a given one.
#[derive(Clone, Copy)]
pub struct ShuffleCodec(&'static ShuffleKernel);

impl fmt::Debug for ShuffleCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ShuffleCodec").field(&self.0.name()).finish()
    }
}

impl Default for ShuffleCodec {
    fn default() -> Self {
        Self::new()
    }
}

impl ShuffleCodec {
    /// The first kernel of [`shuffle_kernels`] this CPU can run, chosen
    /// once and cached.
    #[must_use]
    #[inline]
    pub fn new() -> Self {
        ShuffleCodec(CHOSEN.get())
    }

    /// The kernel this codec runs.
    #[must_use]
    pub const fn kernel(&self) -> &'static ShuffleKernel {
        self.0
    }

    /// Stream VByte decoding with the mode's entry point.
    #[inline]
    pub(crate) fn svb_decode(
        self,
        mode: usize,
        ctrl: &[u8],
        data: &[u8],
        out: &mut [u32],
        prev: u32,
    ) -> (usize, usize, u32) {
        // SAFETY: a `ShuffleCodec` is made only for a kernel whose
        // `is_available` returned true: this CPU has its features. The
        // entry points are memory-safe on any slices.
        unsafe { (self.0.entries().svb_decode[mode & 7])(ctrl, data, out, prev) }
    }

    /// Stream VByte encoding (standard layout) with the mode's entry point.
    #[inline]
    pub(crate) fn svb_encode(
        self,
        mode: usize,
        values: &[u32],
        ctrl: &mut [u8],
        data: &mut [u8],
        prev: u32,
    ) -> (usize, usize, u32) {
        // SAFETY: as in `svb_decode`.
        unsafe { (self.0.entries().svb_encode[mode & 3])(values, ctrl, data, prev) }
    }

    /// Group Varint decoding.
    #[inline]
    pub(crate) fn gv_decode(self, input: &[u8], out: &mut [u32]) -> (usize, usize) {
        // SAFETY: as in `svb_decode`.
        unsafe { (self.0.entries().gv_decode)(input, out) }
    }

    /// Decodes consecutive QUIC varints (RFC 9000 §16) from `input` into
    /// `out`, leniently, with this kernel: the same answer as
    /// [`Quic::decode_into`](crate::formats::Format::decode_into), which
    /// runs the dispatched kernel, on every input.
    ///
    /// # Errors
    ///
    /// The first value that fails to decode ([`BulkError`]); `out` is
    /// written only below the count returned (or the error's count).
    ///
    /// ```
    /// use varint::formats::{Format, Quic};
    ///
    /// let bytes = Quic::encode_slice_to_vec(&[37, 15_293, 494_878_333, 1 << 61]).unwrap();
    /// for kernel in varint::shuffle_kernels() {
    ///     if let Some(codec) = kernel.codec() {
    ///         let mut out = [0u64; 4];
    ///         let done = codec.quic_decode_into(&bytes, &mut out).unwrap();
    ///         assert_eq!((done.count, done.bytes), (4, bytes.len()));
    ///         assert_eq!(out, [37, 15_293, 494_878_333, 1 << 61]);
    ///     }
    /// }
    /// ```
    pub fn quic_decode_into(self, input: &[u8], out: &mut [u64]) -> Result<Decoded, BulkError> {
        self.quic::<false>(input, out)
    }

    /// As [`quic_decode_into`](Self::quic_decode_into), strictly (only the
    /// shortest form): the same answer as
    /// [`Quic::decode_into_strict`](crate::formats::Format::decode_into_strict).
    ///
    /// # Errors
    ///
    /// As [`quic_decode_into`](Self::quic_decode_into), also for
    /// [`DecodeError::NonCanonical`](crate::DecodeError::NonCanonical).
    pub fn quic_decode_into_strict(
        self,
        input: &[u8],
        out: &mut [u64],
    ) -> Result<Decoded, BulkError> {
        self.quic::<true>(input, out)
    }

    /// The kernel over whole windows, then the scalar loop on the rest,
    /// which also reports any error (the kernel stops in front of one).
    #[inline]
    fn quic<const STRICT: bool>(self, input: &[u8], out: &mut [u64]) -> Result<Decoded, BulkError> {
        use crate::formats::{Format, Quic, decode_into_with};
        // SAFETY: as in `svb_decode`.
        let (at, count) =
            unsafe { (self.0.entries().quic_decode[usize::from(STRICT)])(input, out) };
        let (input, out) = (&input[at..], &mut out[count..]);
        let rest = if STRICT {
            decode_into_with(input, out, Quic::decode_strict)
        } else {
            decode_into_with(input, out, Quic::decode)
        };
        match rest {
            Ok(d) => Ok(Decoded {
                count: count + d.count,
                bytes: at + d.bytes,
            }),
            Err(e) => Err(BulkError::new(
                e.error(),
                at + e.offset(),
                count + e.count(),
            )),
        }
    }

    /// Group Varint encoding.
    #[inline]
    pub(crate) fn gv_encode(self, values: &[u32], out: &mut [u8]) -> (usize, usize) {
        // SAFETY: as in `svb_decode`.
        unsafe { (self.0.entries().gv_encode)(values, out) }
    }
}

/// The first kernel of `KERNELS` this CPU can run, chosen once and cached.
static CHOSEN: Dispatch<ShuffleKernel> = Dispatch::new(&KERNELS);
