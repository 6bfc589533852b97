//! Every [`Simd`] operation of every token this CPU runs, against a scalar
//! model of its docs: one test body ([`check`]) for all tokens, so that a
//! NEON operation (tested under qemu) and an x86 one answer the same.

use crate::simd::{Simd, load4};

/// The widest register, in bytes.
const MAX: usize = 64;

/// A small xorshift generator: the tests need no statistical quality, only
/// many distinct inputs, reproducibly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A byte, often one at an edge of the operations (signs, surrogates).
    fn byte(&mut self) -> u8 {
        const EDGES: [u8; 12] = [
            0, 1, 0x7F, 0x80, 0x81, 0xFF, 0xD8, 0xDB, 0xDC, 0xDF, 0xF8, 0xFC,
        ];
        let r = self.next();
        if r.is_multiple_of(3) {
            EDGES[(r >> 8) as usize % EDGES.len()]
        } else {
            (r >> 16) as u8
        }
    }

    fn bytes(&mut self) -> [u8; MAX] {
        core::array::from_fn(|_| self.byte())
    }
}

fn u16s(b: &[u8]) -> impl Iterator<Item = u16> + '_ {
    b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]))
}

fn u32s(b: &[u8]) -> impl Iterator<Item = u32> + '_ {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

fn from16(v: impl Iterator<Item = u16>) -> Vec<u8> {
    v.flat_map(u16::to_le_bytes).collect()
}

fn from32(v: impl Iterator<Item = u32>) -> Vec<u8> {
    v.flat_map(u32::to_le_bytes).collect()
}

fn mask(b: bool) -> u8 {
    if b { 0xFF } else { 0 }
}

/// The model of a lane-wise operation on 16-bit lanes.
fn map16(a: &[u8], b: &[u8], f: impl Fn(u16, u16) -> u16) -> Vec<u8> {
    from16(u16s(a).zip(u16s(b)).map(|(x, y)| f(x, y)))
}

/// The model of a lane-wise operation on 32-bit lanes.
fn map32(a: &[u8], b: &[u8], f: impl Fn(u32, u32) -> u32) -> Vec<u8> {
    from32(u32s(a).zip(u32s(b)).map(|(x, y)| f(x, y)))
}

/// The model of a lane-wise operation on 64-bit lanes.
fn map64(a: &[u8], b: &[u8], f: impl Fn(u64, u64) -> u64) -> Vec<u8> {
    let lanes = |x: &[u8]| -> Vec<u64> {
        x.chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    lanes(a)
        .into_iter()
        .zip(lanes(b))
        .flat_map(|(x, y)| f(x, y).to_le_bytes())
        .collect()
}

/// `packus_epi16`'s saturation: signed 16 bits to unsigned 8.
fn sat8(x: u16) -> u8 {
    (x as i16).clamp(0, 255) as u8
}

/// `packus_epi32`'s saturation: signed 32 bits to unsigned 16.
fn sat16(x: u32) -> u16 {
    (x as i32).clamp(0, 0xFFFF) as u16
}

/// The bits of a movemask, one per lane of `w` bytes.
fn bits(a: &[u8], w: usize) -> u64 {
    a.chunks_exact(w)
        .enumerate()
        .map(|(i, c)| u64::from(c[w - 1] >> 7) << i)
        .sum()
}

/// An operation's name, its result, and the model of one lane of it.
type Case<S, T> = (&'static str, <S as Simd>::V, fn(T, T) -> T);

/// Checks every operation of `s` on `rounds` random inputs.
fn check<S: Simd>(s: S, seed: u64, rounds: usize) {
    let n = S::BYTES;
    let mut rng = Rng(seed);
    let get = |v: S::V| -> Vec<u8> {
        let mut out = [0u8; MAX];
        // SAFETY: `out` holds `MAX >= BYTES` bytes.
        unsafe { s.store(out.as_mut_ptr(), v) };
        out[..n].to_vec()
    };
    let base = s.base();
    let get_base = |v: <S::Base as Simd>::V| -> Vec<u8> {
        let mut out = [0u8; MAX];
        // SAFETY: as above, for the 16-byte base register.
        unsafe { base.store(out.as_mut_ptr(), v) };
        out[..16].to_vec()
    };
    assert_eq!(<S::Base as Simd>::BYTES, 16);

    for round in 0..rounds {
        let (ab, bb, cb, db) = (rng.bytes(), rng.bytes(), rng.bytes(), rng.bytes());
        let (a, b, c, d) = (&ab[..n], &bb[..n], &cb[..n], &db[..n]);
        // SAFETY: each array holds `MAX >= BYTES` bytes.
        let [va, vb, vc, _] = unsafe {
            [
                s.load(ab.as_ptr()),
                s.load(bb.as_ptr()),
                s.load(cb.as_ptr()),
                s.load(db.as_ptr()),
            ]
        };
        let ctx = |op: &str| format!("{op}, round {round}, {n}-byte token");
        assert_eq!(get(va), a, "{}", ctx("load/store"));
        let mut half = [0xA5u8; MAX];
        // SAFETY: `half` holds `MAX >= BYTES / 2` bytes.
        unsafe { s.store_half(half.as_mut_ptr(), va) };
        assert_eq!(half[..n / 2], a[..n / 2], "{}", ctx("store_half"));
        assert!(
            half[n / 2..].iter().all(|&x| x == 0xA5),
            "{}",
            ctx("store_half")
        );

        // Constants.
        assert_eq!(get(s.zero()), vec![0; n], "{}", ctx("zero"));
        let x = rng.next();
        assert_eq!(
            get(s.splat8(x as u8)),
            vec![x as u8; n],
            "{}",
            ctx("splat8")
        );
        assert_eq!(
            get(s.splat16(x as u16)),
            from16((0..n / 2).map(|_| x as u16)),
            "{}",
            ctx("splat16")
        );
        assert_eq!(
            get(s.splat32(x as u32)),
            from32((0..n / 4).map(|_| x as u32)),
            "{}",
            ctx("splat32")
        );
        assert_eq!(
            get(s.splat64(x)),
            (0..n / 8)
                .flat_map(|_| x.to_le_bytes())
                .collect::<Vec<u8>>(),
            "{}",
            ctx("splat64")
        );
        assert_eq!(
            s.first32(va),
            u32::from_le_bytes([a[0], a[1], a[2], a[3]]),
            "{}",
            ctx("first32")
        );
        let t: [u8; 16] = core::array::from_fn(|i| ab[i]);
        let want: Vec<u8> = (0..n).map(|i| t[i % 16]).collect();
        assert_eq!(get(s.broadcast16(&t)), want, "{}", ctx("broadcast16"));
        for k in 0..=n {
            let want: Vec<u8> = (0..n).map(|i| mask(i >= k)).collect();
            assert_eq!(get(s.mask_from(k)), want, "{}", ctx("mask_from"));
        }

        // Bitwise and lane-wise arithmetic.
        let zip8 = |f: &dyn Fn(u8, u8) -> u8| -> Vec<u8> {
            a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect()
        };
        assert_eq!(get(s.and(va, vb)), zip8(&|x, y| x & y), "{}", ctx("and"));
        assert_eq!(get(s.or(va, vb)), zip8(&|x, y| x | y), "{}", ctx("or"));
        assert_eq!(get(s.xor(va, vb)), zip8(&|x, y| x ^ y), "{}", ctx("xor"));
        assert_eq!(
            get(s.andnot(va, vb)),
            zip8(&|x, y| !x & y),
            "{}",
            ctx("andnot")
        );
        assert_eq!(
            get(s.add8(va, vb)),
            zip8(&u8::wrapping_add),
            "{}",
            ctx("add8")
        );
        assert_eq!(
            get(s.sub8(va, vb)),
            zip8(&u8::wrapping_sub),
            "{}",
            ctx("sub8")
        );
        assert_eq!(
            get(s.add_sat_u8(va, vb)),
            zip8(&u8::saturating_add),
            "{}",
            ctx("add_sat_u8")
        );
        assert_eq!(
            get(s.sub_sat_u8(va, vb)),
            zip8(&u8::saturating_sub),
            "{}",
            ctx("sub_sat_u8")
        );
        assert_eq!(get(s.max_u8(va, vb)), zip8(&u8::max), "{}", ctx("max_u8"));
        assert_eq!(
            get(s.min_i8(va, vb)),
            zip8(&|x, y| (x as i8).min(y as i8) as u8),
            "{}",
            ctx("min_i8")
        );
        assert_eq!(
            get(s.gt_i8(va, vb)),
            zip8(&|x, y| mask(x as i8 > y as i8)),
            "{}",
            ctx("gt_i8")
        );
        assert_eq!(
            get(s.eq8(va, vb)),
            zip8(&|x, y| mask(x == y)),
            "{}",
            ctx("eq8")
        );
        let cases16: [Case<S, u16>; 6] = [
            ("add16", s.add16(va, vb), u16::wrapping_add),
            ("sub16", s.sub16(va, vb), u16::wrapping_sub),
            (
                "eq16",
                s.eq16(va, vb),
                |x, y| if x == y { 0xFFFF } else { 0 },
            ),
            ("gt_i16", s.gt_i16(va, vb), |x, y| {
                if x as i16 > y as i16 { 0xFFFF } else { 0 }
            }),
            ("max_i16", s.max_i16(va, vb), |x, y| {
                (x as i16).max(y as i16) as u16
            }),
            ("min_u16", s.min_u16(va, vb), u16::min),
        ];
        for (op, got, f) in cases16 {
            assert_eq!(get(got), map16(a, b, f), "{}", ctx(op));
        }
        let cases32: [Case<S, u32>; 5] = [
            ("add32", s.add32(va, vb), u32::wrapping_add),
            ("sub32", s.sub32(va, vb), u32::wrapping_sub),
            (
                "eq32",
                s.eq32(va, vb),
                |x, y| if x == y { u32::MAX } else { 0 },
            ),
            ("gt_i32", s.gt_i32(va, vb), |x, y| {
                if x as i32 > y as i32 { u32::MAX } else { 0 }
            }),
            ("max_u32", s.max_u32(va, vb), u32::max),
        ];
        for (op, got, f) in cases32 {
            assert_eq!(get(got), map32(a, b, f), "{}", ctx(op));
        }
        // Half of the 64-bit lanes equal, the rest random.
        let mut eqb = b.to_vec();
        for lane in (0..n).step_by(16) {
            eqb[lane..lane + 8].copy_from_slice(&a[lane..lane + 8]);
        }
        // SAFETY: `eqb` holds `BYTES` bytes.
        let veq = unsafe { s.load(eqb.as_ptr()) };
        assert_eq!(
            get(s.eq64(va, veq)),
            map64(a, &eqb, |x, y| if x == y { u64::MAX } else { 0 }),
            "{}",
            ctx("eq64")
        );

        // Shifts, by a few counts each.
        macro_rules! shifts {
            ($($n:literal)*) => {$(
                assert_eq!(get(s.shl16::<$n>(va)), map16(a, a, |x, _| x << $n), "{}", ctx("shl16"));
                assert_eq!(get(s.shr16::<$n>(va)), map16(a, a, |x, _| x >> $n), "{}", ctx("shr16"));
                assert_eq!(get(s.shl32::<$n>(va)), map32(a, a, |x, _| x << $n), "{}", ctx("shl32"));
                assert_eq!(get(s.shr32::<$n>(va)), map32(a, a, |x, _| x >> $n), "{}", ctx("shr32"));
                assert_eq!(get(s.shr64::<$n>(va)), map64(a, a, |x, _| x >> $n), "{}", ctx("shr64"));
            )*};
        }
        shifts!(1 2 4 6 8 10 12 15);
        assert_eq!(
            get(s.shr64::<30>(va)),
            map64(a, a, |x, _| x >> 30),
            "{}",
            ctx("shr64")
        );
        macro_rules! byte_shifts {
            ($($n:literal)*) => {$(
                assert_eq!(get(s.shr8::<$n>(va)), zip8(&|x, _| x >> $n), "{}", ctx("shr8"));
            )*};
        }
        byte_shifts!(1 2 3 4 5 7);
        let counts: Vec<u8> = from32(u32s(c).map(|x| (x % 4) * 8));
        // SAFETY: `counts` holds `BYTES` bytes.
        let vbits = unsafe { s.load(counts.as_ptr()) };
        assert_eq!(
            get(s.shr32_bytes(va, vbits)),
            map32(a, &counts, |x, k| x >> k),
            "{}",
            ctx("shr32_bytes")
        );

        // Shuffles and blends, within 16-byte lanes.
        let want: Vec<u8> = (0..n)
            .map(|i| {
                let idx = b[i];
                if idx & 0x80 != 0 {
                    0
                } else {
                    a[i / 16 * 16 + usize::from(idx & 15)]
                }
            })
            .collect();
        assert_eq!(get(s.shuffle8(va, vb)), want, "{}", ctx("shuffle8"));
        let want: Vec<u8> = (0..n)
            .map(|i| if c[i] & 0x80 != 0 { b[i] } else { a[i] })
            .collect();
        assert_eq!(get(s.blendv8(va, vb, vc)), want, "{}", ctx("blendv8"));
        macro_rules! alignr {
            ($($n:literal)*) => {$(
                let want: Vec<u8> = (0..n)
                    .map(|i| {
                        let (lane, j) = (i / 16 * 16, i % 16 + $n);
                        if j < 16 { b[lane + j] } else { a[lane + j - 16] }
                    })
                    .collect();
                assert_eq!(get(s.alignr8::<$n>(va, vb)), want, "{}", ctx("alignr8"));
            )*};
        }
        alignr!(0 1 4 8 12 15);

        // Tests and masks.
        let any = a.iter().zip(b).any(|(&x, &y)| x & y != 0);
        assert_eq!(s.test_any(va, vb), any, "{}", ctx("test_any"));
        let sparse: Vec<u8> = a.iter().zip(b).map(|(&x, &y)| x & y & c[0]).collect();
        // SAFETY: `sparse` holds `BYTES` bytes.
        let vs = unsafe { s.load(sparse.as_ptr()) };
        let any = sparse.iter().any(|&x| x != 0);
        assert_eq!(s.test_any(vs, vs), any, "{}", ctx("test_any (sparse)"));
        assert!(!s.test_any(va, s.zero()), "{}", ctx("test_any (zero)"));
        assert_eq!(s.movemask8(va), bits(a, 1), "{}", ctx("movemask8"));
        assert_eq!(s.movemask16(va), bits(a, 2), "{}", ctx("movemask16"));
        assert_eq!(s.movemask32(va), bits(a, 4), "{}", ctx("movemask32"));

        // Widening and narrowing.
        // SAFETY: `ab` holds `MAX >= BYTES` bytes.
        let w = unsafe { s.load_widen8to16(ab.as_ptr()) };
        assert_eq!(
            get(w),
            from16(a[..n / 2].iter().map(|&x| x.into())),
            "{}",
            ctx("load_widen8to16")
        );
        // SAFETY: as above.
        let w = unsafe { s.load_widen8to32(ab.as_ptr()) };
        assert_eq!(
            get(w),
            from32(a[..n / 4].iter().map(|&x| x.into())),
            "{}",
            ctx("load_widen8to32")
        );
        // SAFETY: as above.
        let w = unsafe { s.load_widen8to64(ab.as_ptr()) };
        let want: Vec<u8> = a[..n / 8]
            .iter()
            .flat_map(|&x| u64::from(x).to_le_bytes())
            .collect();
        assert_eq!(get(w), want, "{}", ctx("load_widen8to64"));
        // The narrowings, on lanes where every width agrees (the docs): the
        // random ones cleared of their top bit, and ones below 256.
        let top16 = |x: &[u8]| from16(u16s(x).map(|u| u & 0x7FFF));
        let top32 = |x: &[u8], m: u32| from32(u32s(x).map(|u| u & m));
        for (x, y) in [
            (top16(a), top16(b)),
            (from16(u16s(a).map(|u| u & 0xFF)), top16(b)),
        ] {
            // SAFETY: both hold `BYTES` bytes.
            let (vx, vy) = unsafe { (s.load(x.as_ptr()), s.load(y.as_ptr())) };
            let want: Vec<u8> = u16s(&x).chain(u16s(&y)).map(sat8).collect();
            assert_eq!(get(s.narrow16(vx, vy)), want, "{}", ctx("narrow16"));
        }
        for m in [0x7FFF, 0xFF, 0x1FF] {
            let q = [top32(a, m), top32(b, m), top32(c, m), top32(d, m)];
            // SAFETY: each holds `BYTES` bytes.
            let [wa, wb, wc, wd] = q.each_ref().map(|x| unsafe { s.load(x.as_ptr()) });
            let want: Vec<u8> = q
                .iter()
                .flat_map(|x| u32s(x).collect::<Vec<_>>())
                .map(|x| sat8(sat16(x)))
                .collect();
            assert_eq!(get(s.narrow32(wa, wb, wc, wd)), want, "{}", ctx("narrow32"));
        }
        for m in [0x7FFF_FFFF, 0xFFFF, 0x1_FFFF] {
            let (x, y) = (top32(a, m), top32(b, m));
            // SAFETY: both hold `BYTES` bytes.
            let (vx, vy) = unsafe { (s.load(x.as_ptr()), s.load(y.as_ptr())) };
            let want = from16(u32s(&x).chain(u32s(&y)).map(sat16));
            assert_eq!(get(s.narrow32to16(vx, vy)), want, "{}", ctx("narrow32to16"));
        }
        let (lo, hi) = s.widen16to32(va);
        let halves: Vec<u16> = u16s(a).collect();
        assert_eq!(
            get(lo),
            from32(halves[..n / 4].iter().map(|&x| x.into())),
            "{}",
            ctx("widen16to32 lo")
        );
        assert_eq!(
            get(hi),
            from32(halves[n / 4..].iter().map(|&x| x.into())),
            "{}",
            ctx("widen16to32 hi")
        );

        // Memory: compress, windows, groups.
        let m = rng.next();
        let mut out = [0xAAu8; MAX];
        // SAFETY: `out` holds `MAX >= BYTES` bytes.
        unsafe { s.compress32(va, m, out.as_mut_ptr()) };
        let kept: Vec<u8> = a
            .chunks_exact(4)
            .enumerate()
            .filter(|(i, _)| m & (1 << i) != 0)
            .flat_map(|(_, c)| c.to_vec())
            .collect();
        assert_eq!(out[..kept.len()], kept[..], "{}", ctx("compress32"));
        let src: Vec<u8> = (0..4 * MAX).map(|_| rng.byte()).collect();
        for r in 0..3 {
            // SAFETY: `src` holds `4 * MAX >= (r + 1) * BYTES / 4 + 16`
            // bytes, and at least 32.
            let got = get(unsafe { s.windows32(src.as_ptr(), r) });
            let at = r * n / 4;
            let want = from32((0..n / 4).map(|k| {
                u32::from_be_bytes([
                    src[at + k],
                    src[at + k + 1],
                    src[at + k + 2],
                    src[at + k + 3],
                ])
            }));
            assert_eq!(got, want, "{}", ctx("windows32"));
        }
        // SAFETY: `src` holds more than `max(BYTES, 32)` bytes.
        let got = get(unsafe { s.groups3(src.as_ptr()) });
        let want = from32(
            (0..n / 4).map(|k| u32::from_be_bytes([0, src[3 * k], src[3 * k + 1], src[3 * k + 2]])),
        );
        assert_eq!(got, want, "{}", ctx("groups3"));
        // SAFETY: `src` holds `4 * MAX >= 4 * BYTES` bytes.
        let four = unsafe { load4(s, src.as_ptr()) };
        for (k, v) in four.into_iter().enumerate() {
            assert_eq!(get(v), src[k * n..(k + 1) * n], "{}", ctx("load4"));
        }

        // Lanes.
        for k in 0..n / 16 {
            assert_eq!(
                get_base(s.lane(va, k)),
                a[16 * k..16 * k + 16],
                "{}",
                ctx("lane")
            );
        }

        // Sums.
        let sum8: u64 = a.iter().map(|&x| u64::from(x)).sum();
        let sum16: u64 = u16s(a).map(u64::from).sum();
        let sum32: u64 = u32s(a).map(u64::from).sum();
        assert_eq!(s.sum8(va), sum8, "{}", ctx("sum8"));
        assert_eq!(s.sum16(va), sum16, "{}", ctx("sum16"));
        assert_eq!(s.sum32(va), sum32, "{}", ctx("sum32"));

        // UTF-16 facts, on units that often are surrogates.
        let units: Vec<u8> = from16(u16s(a).zip(u16s(b)).map(|(x, y)| match y % 4 {
            0 => 0xD800 | (x & 0x7FF),
            1 => 0xDC00 | (x & 0x3FF),
            _ => x,
        }));
        let next: Vec<u8> =
            from16(u16s(c).map(|y| if y % 2 == 0 { 0xDC00 | (y & 0x3FF) } else { y }));
        // SAFETY: both hold `BYTES` bytes.
        let (vu, vn) = unsafe { (s.load(units.as_ptr()), s.load(next.as_ptr())) };
        let lead = |x: u32| x & 0xFC00 == 0xD800;
        let trail = |x: u32| x & 0xFC00 == 0xDC00;
        let want: u64 = u16s(&units)
            .enumerate()
            .map(|(i, x)| u64::from(x & 0xF800 == 0xD800) << i)
            .sum();
        assert_eq!(s.surrogates16(vu), want, "{}", ctx("surrogates16"));
        let want: u64 = u16s(&units)
            .zip(u16s(&next))
            .enumerate()
            .map(|(i, (x, y))| u64::from(lead(x.into()) && trail(y.into())) << i)
            .sum();
        assert_eq!(s.pair_starts16(vu, vn), want, "{}", ctx("pair_starts16"));
        // As 32-bit lanes: the low unit of each, zero-extended.
        let v32: Vec<u8> = from32(u32s(&units).map(|x| x & 0xFFFF));
        let n32: Vec<u8> = from32(u32s(&next).map(|x| x & 0xFFFF));
        // SAFETY: both hold `BYTES` bytes.
        let (vv, vx) = unsafe { (s.load(v32.as_ptr()), s.load(n32.as_ptr())) };
        let pair = |v: u32, x: u32| {
            if lead(v) {
                (v << 10)
                    .wrapping_add(x)
                    .wrapping_add(0x1_0000u32.wrapping_sub(0xD800 << 10).wrapping_sub(0xDC00))
            } else {
                v
            }
        };
        let want = map32(&v32, &n32, pair);
        assert_eq!(
            get(s.pair_values32(vv, vx)),
            want,
            "{}",
            ctx("pair_values32")
        );
        let leads: u64 = u32s(&v32)
            .enumerate()
            .map(|(i, x)| u64::from(lead(x)) << i)
            .sum();
        assert_eq!(
            get(s.pair_values32_at(vv, vx, leads)),
            want,
            "{}",
            ctx("pair_values32_at")
        );
    }
}

/// The number of random rounds per token: fewer under emulation.
const ROUNDS: usize = 2000;

#[cfg(target_arch = "x86_64")]
#[test]
fn x86_tokens_match_the_scalar_model() {
    use crate::Isa;
    use crate::x86_64::{Avx2, Avx512, Sse41};
    let mut ran = 0;
    if Isa::SSE41.is_available() {
        // SAFETY: the CPU has the token's features (checked above).
        check(unsafe { Sse41::new() }, 1, ROUNDS);
        ran += 1;
    }
    if Isa::AVX2.is_available() {
        // SAFETY: as above.
        check(unsafe { Avx2::new() }, 2, ROUNDS);
        ran += 1;
    }
    if Isa::AVX512.is_available() {
        // SAFETY: as above.
        check(unsafe { Avx512::new() }, 3, ROUNDS);
        ran += 1;
    }
    println!("{ran} x86 tokens checked");
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
#[test]
fn neon_token_matches_the_scalar_model() {
    // SAFETY: NEON is enabled at compile time (the `cfg` above).
    check(unsafe { crate::aarch64::Neon::new() }, 4, ROUNDS);
}
