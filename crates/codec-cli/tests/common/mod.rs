//! What several test files share.

/// splitmix64: a small deterministic generator, so a failure replays.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// UTF-8 made of pieces that stress region cuts and read boundaries:
/// truncated sequences, runs of continuation bytes, 4-byte characters.
#[allow(dead_code)] // Not every test file that shares this module uses it.
pub(crate) fn random_input(rng: &mut Rng, len: usize) -> Vec<u8> {
    const PIECES: &[&[u8]] = &[
        b"a",
        b"\n",
        b"z\n",
        "\u{e9}".as_bytes(),
        "\u{20ac}".as_bytes(),
        "\u{5415}".as_bytes(),
        "\u{1F600}".as_bytes(),
        b"\x80",
        b"\xbf\x80\x80\x80\x80",
        b"\xe2\x82",
        b"\xf0\x9f\x98",
        b"\xf0\x9f",
        b"\xc0\xaf",
        b"\xed\xa0\x80",
        b"\xe0\x80\x80",
        b"\xf4\x90\x80\x80",
        b"\xff",
        b"\xf5",
    ];
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        out.extend_from_slice(PIECES[rng.below(PIECES.len() as u64) as usize]);
    }
    out
}
