//! The fast path: utf8-simd's Keiser–Lemire kernel with each encoding's
//! tables ([`utf8_simd::variant`]) over the whole 64-byte blocks, then the
//! scalar DFA ([`crate::scalar`]) from a character boundary at or before
//! where the kernel stopped: for the last bytes, and for the exact error
//! when the kernel found one. The kernel tests its error register every 256
//! bytes, so the scalar pass re-reads at most that much before an error.
//!
//! CESU-8 and MUTF-8 first run utf8-simd's BMP check
//! ([`utf8_simd::variant::bmp_str`]), as their decoders do: most text has
//! no surrogate, no `C0 80` and no `00`, and is then UTF-8 without 4-byte
//! forms, which that check accepts at the speed of the decoders (its own
//! loop and tables: `00` is a pair class there, not a test of each byte,
//! and nothing of the pairing rules is in its registers). Where it stops,
//! everything before is valid and ends at a character boundary after no
//! surrogate, so the variant kernel takes the rest on its own. Text whose
//! first group holds a surrogate pays one failed group. (MUTF-8 validation
//! went from 0.91x to 1.15x UTF-8's AVX2 kernel on the lipsum texts;
//! docs/results/utf8-variants.md, "Decisions and dead ends".)
//!
//! WTF-8 first runs UTF-8's own validation, for the same reason: UTF-8 is
//! WTF-8 without surrogates, and the variant kernel takes the rest from
//! where it stops (0.80-0.87x -> 0.99-1.01x UTF-8's speed on the lipsum
//! texts).

use crate::error::{Error, is_lead_surrogate};
use crate::scalar;
use crate::tables::{cesu8, mutf8};
use crate::variant::Variant;
use codec_core::utf8::last_char_start;
use utf8_simd::tables::NibbleTables;
use utf8_simd::variant::{Nul, Rules, Tables};

const CESU8: Tables = Tables {
    nibbles: NibbleTables {
        byte_1_high: cesu8::BYTE_1_HIGH,
        byte_1_low: cesu8::BYTE_1_LOW,
        byte_2_high: cesu8::BYTE_2_HIGH,
    },
    rules: Rules::Paired,
};

const MUTF8: Tables = Tables {
    nibbles: NibbleTables {
        byte_1_high: mutf8::BYTE_1_HIGH,
        byte_1_low: mutf8::BYTE_1_LOW,
        byte_2_high: mutf8::BYTE_2_HIGH,
    },
    rules: Rules::PairedModifiedNul,
};

/// WTF-8 reads UTF-8's tables, `SURROGATE` as the pairing marker.
const WTF8: Tables = Tables {
    nibbles: utf8_simd::tables::UTF8,
    rules: Rules::Unpaired,
};

/// The kernel's table set for `variant` (UTF-8 has its own kernel).
pub(crate) const fn tables(variant: Variant) -> Option<&'static Tables> {
    match variant {
        Variant::Utf8 => None,
        Variant::Cesu8 => Some(&CESU8),
        Variant::Mutf8 => Some(&MUTF8),
        Variant::Wtf8 => Some(&WTF8),
    }
}

/// What utf8-simd's BMP check makes of `00` for `variant`, if the variant
/// takes that check first (CESU-8 and MUTF-8: their text without
/// supplementary characters and, for MUTF-8, without U+0000, is UTF-8
/// without 4-byte forms, and without `00`).
pub(crate) const fn bmp_nul(variant: Variant) -> Option<Nul> {
    match variant {
        Variant::Cesu8 => Some(Nul::Allowed),
        Variant::Mutf8 => Some(Nul::Forbidden),
        Variant::Utf8 | Variant::Wtf8 => None,
    }
}

/// Where the first pass stops in `input` (`input.len()` if it accepts all
/// of it), dispatched or with `kernel` (0 if that one cannot run: the
/// variant kernel then checks it all): the BMP check for CESU-8 and MUTF-8,
/// and for WTF-8 UTF-8's own validation (UTF-8 is WTF-8 without
/// surrogates, so where it stops everything before is valid WTF-8 and ends
/// at a character boundary after no lead surrogate, from which the variant
/// kernel takes the rest on its own). (WTF-8 through the variant kernel
/// alone ran at 0.80-0.87x UTF-8's validation on every lipsum text;
/// docs/results/utf8-variants.md, "Decisions and dead ends".)
fn first_pass_end(variant: Variant, input: &[u8], kernel: Option<&utf8_simd::Kernel>) -> usize {
    if variant == Variant::Wtf8 {
        let utf8 = match kernel {
            Some(k) => match k.try_validate(input) {
                Some(answer) => answer,
                // The kernel cannot run: nothing checked.
                None => return 0,
            },
            None => utf8_simd::validate(input),
        };
        return utf8.map_or_else(|e| e.valid_up_to().min(input.len()), |()| input.len());
    }
    let Some(nul) = bmp_nul(variant) else {
        return 0;
    };
    let checked = match kernel {
        Some(k) => utf8_simd::variant::bmp_str_with(k, input, nul).unwrap_or(Err(0)),
        None => utf8_simd::variant::bmp_str(input, nul),
    };
    checked.map_or_else(|pos| pos.min(input.len()), str::len)
}

/// The variant kernel's answer over the whole blocks of `rest`, dispatched
/// or with `kernel` (`Ok(0)`, "nothing checked", if that one cannot run:
/// the scalar pass then checks it all).
fn blocks(t: &Tables, rest: &[u8], kernel: Option<&utf8_simd::Kernel>) -> Result<usize, usize> {
    match kernel {
        Some(k) => utf8_simd::variant::check_blocks_with(k, t, rest).unwrap_or(Ok(0)),
        None => utf8_simd::variant::check_blocks(t, rest),
    }
}

/// Whether `kernel` can run the variant checks here (`None` from the
/// `_with` entries if not).
fn runs(kernel: &utf8_simd::Kernel) -> bool {
    kernel.is_available() && utf8_simd::variant::has_variant_entry(kernel)
}

/// Where the scalar pass restarts, given that `input[..pos]` is a prefix of
/// valid text: the start of the last character before `pos`
/// ([`last_char_start`]), or of the lead surrogate before that character,
/// whose pair (CESU-8, MUTF-8) or context (WTF-8) the scalar pass must see.
pub(crate) fn restart(input: &[u8], pos: usize) -> usize {
    let start = last_char_start(input, pos);
    match start.checked_sub(3) {
        Some(lead) if is_lead_surrogate(&input[lead..]) => lead,
        _ => start,
    }
}

/// The exact answer from the kernel's: the scalar pass from the restart
/// point before `pos`.
fn finish(variant: Variant, input: &[u8], pos: usize) -> Result<(), Error> {
    let from = restart(input, pos);
    scalar::validate(variant, &input[from..]).map_err(|e| e.offset_by(from))
}

/// `Ok(())` if `input` is valid in `variant`, else the first error.
pub(crate) fn validate(variant: Variant, input: &[u8]) -> Result<(), Error> {
    let Some(t) = tables(variant) else {
        return utf8_simd::validate(input).map_err(Error::from_utf8);
    };
    if short_ascii(variant, input) {
        return Ok(());
    }
    // Short input too: the first pass has a word path for fewer than 64
    // bytes (the scalar DFA it replaced here took 2 ns a byte of non-ASCII
    // text, 3-4x `simd_cesu8::decode_strict` on 32-63 bytes); the variant
    // kernel reads only whole blocks, and the scalar pass does the rest.
    let from = first_pass_end(variant, input, None);
    if from == input.len() {
        return Ok(());
    }
    validate_from(variant, t, input, from, None)
}

/// Whether `input` is short ASCII that `variant` accepts (without `00`
/// where its BMP check forbids it, [`bmp_nul`]): valid at once, before the
/// first pass's chain of calls, which cost short ASCII strings 2-3 ns more
/// than the scalar DFA's word loop it replaced (9.1 against 6.6 ns on 32
/// bytes, Zen 4).
#[inline]
fn short_ascii(variant: Variant, input: &[u8]) -> bool {
    if input.len() >= 64 {
        return false;
    }
    if bmp_nul(variant) == Some(Nul::Forbidden) {
        // 01..=7F, one pass that vectorizes (`contains(&0)` after
        // `is_ascii` cost 4 ns more on 32 bytes).
        input.iter().fold(0, |m, &b| m.max(b.wrapping_sub(1))) < 0x7F
    } else {
        input.is_ascii()
    }
}

/// [`validate`] of `input` from `from`, where the first pass stopped
/// ([`first_pass_end`]; 0 for none): the variant kernel (dispatched, or
/// `kernel`) and the scalar pass over `input[from..]`, which is valid on
/// its own exactly where `input` is.
fn validate_from(
    variant: Variant,
    t: &Tables,
    input: &[u8],
    from: usize,
    kernel: Option<&utf8_simd::Kernel>,
) -> Result<(), Error> {
    let rest = input.get(from..).unwrap_or_default();
    if rest.is_empty() {
        return Ok(());
    }
    let pos = match blocks(t, rest, kernel) {
        Ok(end) | Err(end) => end,
    };
    finish(variant, rest, pos).map_err(|e| e.offset_by(from))
}

/// [`validate`] of `input` whose bytes before `from` the BMP check
/// accepted, for the decoders, which ran that check themselves (`kernel`:
/// the one they ran, else the dispatched one).
#[cfg(feature = "alloc")]
pub(crate) fn validate_after_bmp(
    variant: Variant,
    input: &[u8],
    from: usize,
    kernel: Option<&utf8_simd::Kernel>,
) -> Result<(), Error> {
    match tables(variant) {
        Some(t) => validate_from(variant, t, input, from, kernel),
        None => validate(variant, input),
    }
}

/// Whether `input` is valid in `variant`.
pub(crate) fn is_valid(variant: Variant, input: &[u8]) -> bool {
    let Some(t) = tables(variant) else {
        return utf8_simd::is_valid(input);
    };
    if short_ascii(variant, input) {
        return true;
    }
    // Short input too, as in `validate`.
    let from = first_pass_end(variant, input, None);
    from == input.len() || is_valid_from(variant, t, input, from, None)
}

/// [`is_valid`] of `input` from `from`, as [`validate_from`].
fn is_valid_from(
    variant: Variant,
    t: &Tables,
    input: &[u8],
    from: usize,
    kernel: Option<&utf8_simd::Kernel>,
) -> bool {
    let rest = input.get(from..).unwrap_or_default();
    if rest.is_empty() {
        return true;
    }
    match blocks(t, rest, kernel) {
        Ok(end) => scalar::is_valid(variant, &rest[restart(rest, end)..]),
        Err(_) => false,
    }
}

/// [`validate`] with the named kernel of utf8-simd's registry (for tests
/// and benchmarks): `None` if it has no variant entry point or this CPU
/// cannot run it.
pub(crate) fn validate_with(
    kernel: &utf8_simd::Kernel,
    variant: Variant,
    input: &[u8],
) -> Option<Result<(), Error>> {
    let t = tables(variant).filter(|_| runs(kernel))?;
    let from = first_pass_end(variant, input, Some(kernel));
    Some(validate_from(variant, t, input, from, Some(kernel)))
}

/// [`is_valid`] with the named kernel, as [`validate_with`].
pub(crate) fn is_valid_with(
    kernel: &utf8_simd::Kernel,
    variant: Variant,
    input: &[u8],
) -> Option<bool> {
    let t = tables(variant).filter(|_| runs(kernel))?;
    let from = first_pass_end(variant, input, Some(kernel));
    Some(is_valid_from(variant, t, input, from, Some(kernel)))
}
