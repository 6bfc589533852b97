//! The fast path: utf8-simd's Keiser–Lemire kernel with each encoding's
//! tables ([`utf8_simd::variant`]) over the whole 64-byte blocks, then the
//! scalar DFA ([`crate::scalar`]) from a character boundary at or before
//! where the kernel stopped: for the last bytes, and for the exact error
//! when the kernel found one. The kernel tests its error register every 256
//! bytes, so the scalar pass re-reads at most that much before an error.

use crate::error::{Error, is_lead_surrogate};
use crate::scalar;
use crate::tables::{cesu8, mutf8};
use crate::variant::Variant;
use codec_core::utf8::last_char_start;
use utf8_simd::tables::NibbleTables;
use utf8_simd::variant::{Rules, Tables};

/// Inputs shorter than this go to the scalar DFA alone: the kernel only
/// reads whole 64-byte blocks.
const SHORT: usize = 64;

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
    if input.len() < SHORT {
        return scalar::validate(variant, input);
    }
    match utf8_simd::variant::check_blocks(t, input) {
        Ok(end) => finish(variant, input, end),
        Err(start) => finish(variant, input, start),
    }
}

/// Whether `input` is valid in `variant`.
pub(crate) fn is_valid(variant: Variant, input: &[u8]) -> bool {
    let Some(t) = tables(variant) else {
        return utf8_simd::is_valid(input);
    };
    if input.len() < SHORT {
        return scalar::is_valid(variant, input);
    }
    match utf8_simd::variant::check_blocks(t, input) {
        Ok(end) => scalar::is_valid(variant, &input[restart(input, end)..]),
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
    let t = tables(variant)?;
    let pos = match utf8_simd::variant::check_blocks_with(kernel, t, input)? {
        Ok(end) | Err(end) => end,
    };
    Some(finish(variant, input, pos))
}

/// [`is_valid`] with the named kernel, as [`validate_with`].
pub(crate) fn is_valid_with(
    kernel: &utf8_simd::Kernel,
    variant: Variant,
    input: &[u8],
) -> Option<bool> {
    let t = tables(variant)?;
    Some(
        match utf8_simd::variant::check_blocks_with(kernel, t, input)? {
            Ok(end) => scalar::is_valid(variant, &input[restart(input, end)..]),
            Err(_) => false,
        },
    )
}
