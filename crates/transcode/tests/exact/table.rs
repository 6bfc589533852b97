//! Every row of the crate's table of directions (`transcode::direction`),
//! found by iterating it: each direction's generic forms (strict, partial,
//! and for the lossy ones lossy and lossy partial; the vector forms) against
//! the oracle of its encodings, with every kernel set, on valid and
//! mutated text of lengths around the kernels' blocks. A direction added
//! to the table is checked here with no change to this file (and an
//! encoding the oracle does not know fails here).

use crate::dirs::transcoders;
use crate::harness::{Caps, Item, any_unit, check, expect, lossy_dir, oracle, strict_dir};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use transcode::direction::{self, Direction, Encoding, InputError, Lossy, Unit, Visit};
use transcode::{ErrorKind, Transcoder};

/// Characters of every UTF-8 and UTF-16 length.
const CHARS: &[char] = &[
    'a',
    ' ',
    '\0',
    '\x7F',
    '\u{80}',
    'é',
    '\u{FF}',
    '\u{100}',
    '\u{7FF}',
    '\u{800}',
    '吕',
    '\u{FFFF}',
    '😀',
    '\u{10FFFF}',
];

/// Inputs in encoding `E`: text of each length, valid (characters that `E`
/// cannot hold left out), and the same with one or two units replaced by
/// random ones.
fn inputs<E: Encoding>(rng: &mut StdRng) -> Vec<Vec<E::Unit>> {
    let (_, encode) = oracle::<E>();
    let step = if codec_testdata::emulated() { 7 } else { 1 };
    let mut out = Vec::new();
    for n in (0..=40).step_by(step).chain([63, 64, 65, 100, 129, 200]) {
        for ascii_share in [0u32, 200, 256] {
            let units: Vec<E::Unit> = (0..n)
                .map(|_| match rng.random_range(0..256) < ascii_share {
                    true => char::from(rng.random_range(0x20u8..0x7F)),
                    false => CHARS[rng.random_range(0..CHARS.len())],
                })
                .filter_map(encode)
                .flatten()
                .collect();
            let mut bad = units.clone();
            for _ in 0..rng.random_range(1..=2) {
                if !bad.is_empty() {
                    let at = rng.random_range(0..bad.len());
                    bad[at] = any_unit(rng);
                }
            }
            out.push(units);
            out.push(bad);
        }
    }
    out
}

/// Checks every direction it is given, and lists them.
struct Every {
    ts: Vec<Transcoder>,
    rng: StdRng,
    seen: Vec<&'static str>,
}

impl Every {
    /// The vector forms of `D` on `src`: `convert_vec` against the
    /// oracle's strict conversion (and, for a [`Lossy`] `D`,
    /// `convert_lossy_vec` against its lossy one).
    fn vectors<D: Direction>(&self, src: &[Unit<D::From>], lossy: Option<LossyVec<D>>) {
        let (decode, _) = oracle::<D::From>();
        let (_, encode) = oracle::<D::To>();
        let items: Vec<Item<InputError<D>>> = decode(src);
        let strict = expect(&items, encode, false);
        let whole = expect(&items, encode, true);
        for t in &self.ts {
            let got = t.convert_vec::<D>(src).map_err(|e| (e.read(), *e.kind()));
            let want = match strict.stop {
                None => Ok(strict.out.clone()),
                Some(kind) => Err((strict.steps.last().unwrap().0, kind)),
            };
            assert_eq!(
                got,
                want,
                "{} convert_vec ({}) on {src:X?}",
                D::NAME,
                t.name()
            );
            if let Some(f) = lossy {
                assert_eq!(
                    f(t, src),
                    whole.out,
                    "{} convert_lossy_vec ({})",
                    D::NAME,
                    t.name()
                );
            }
        }
    }
}

type LossyVec<D> =
    fn(&Transcoder, &[Unit<<D as Direction>::From>]) -> Vec<Unit<<D as Direction>::To>>;

impl Visit for Every {
    fn direction<D: Direction>(&mut self) {
        self.seen.push(D::NAME);
        for src in inputs::<D::From>(&mut self.rng) {
            check(&strict_dir::<D>(), &self.ts, &src, Caps::All);
            self.vectors::<D>(&src, None);
        }
    }

    fn lossy<D: Lossy>(&mut self) {
        self.seen.push(D::NAME);
        for src in inputs::<D::From>(&mut self.rng) {
            check(&lossy_dir::<D>(), &self.ts, &src, Caps::All);
            self.vectors::<D>(&src, Some(|t, s| t.convert_lossy_vec::<D>(s)));
        }
    }
}

#[test]
fn every_direction_of_the_table() {
    let mut every = Every {
        ts: transcoders(),
        rng: StdRng::seed_from_u64(0x7AB1E),
        seen: Vec::new(),
    };
    direction::for_each(&mut every);
    // The table's rows, each once: the names are the named functions'.
    let mut names = every.seen.clone();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), every.seen.len(), "{:?}", every.seen);
    for name in [
        "utf8_to_utf16",
        "utf16_to_utf8",
        "utf32_to_latin1",
        "latin1_to_utf32",
    ] {
        assert!(every.seen.contains(&name), "{name} not in {:?}", every.seen);
    }
}

/// `NotLatin1` is the error of exactly the directions without lossy forms,
/// and names the character: a check that the table's `strict` rows are the
/// ones into Latin-1.
#[test]
fn strict_rows_are_the_ones_into_latin1() {
    struct Kinds(Vec<(&'static str, &'static str, bool)>);
    impl Visit for Kinds {
        fn direction<D: Direction>(&mut self) {
            self.0.push((D::NAME, <D::To as Encoding>::NAME, false));
        }
        fn lossy<D: Lossy>(&mut self) {
            self.0.push((D::NAME, <D::To as Encoding>::NAME, true));
        }
    }
    let mut kinds = Kinds(Vec::new());
    direction::for_each(&mut kinds);
    for (name, to, lossy) in kinds.0 {
        assert_eq!(to == "latin1", !lossy, "{name}");
        assert!(name.ends_with(&format!("_to_{to}")), "{name} writes {to}");
    }
    let err = Transcoder::new()
        .convert::<direction::Utf16ToLatin1>(&[0x61, 0x20AC], &mut [0; 4])
        .unwrap_err();
    assert_eq!(*err.kind(), ErrorKind::NotLatin1('€'));
}
