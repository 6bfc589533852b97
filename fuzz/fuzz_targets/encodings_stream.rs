//! The encodings crate on any bytes, in any encoding and error mode: a
//! `Decoder` fed in chunks of any size gives the one-shot text (or the same
//! first error, offset, line and column); its UTF-16 output is that text's
//! UTF-16; text that decodes strictly encodes again without an error in
//! the lossy modes, and what encodes strictly decodes back to a text that
//! encodes to the same bytes. The Unicode forms' pivot decoder gives the
//! same text (or first error offset) at every chunking. A decoder called
//! again after its last chunk does not panic. The input as UTF-8 into a
//! single-byte page through a `Converter` (whose checked dense encoders
//! take bytes that may not be UTF-8) equals decoding it and encoding the
//! text, with the decoder's first error.
#![no_main]

use encodings::pivot::{self, Form, Pivot};
use encodings::{ConvertError, Converter, DecodeMode, Decoder, EncodeMode, Encoding};
use fuzz::{same, split_control};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let ([pick, chunk, mode], input) = split_control::<3>(data);
    let all: Vec<Encoding> = Encoding::all().collect();
    let e = all[usize::from(pick) % all.len()];
    let mode = [DecodeMode::Strict, DecodeMode::Replace, DecodeMode::Skip][usize::from(mode % 3)];
    let chunk = 1 + usize::from(chunk % 64);

    let whole = e.decode_to_string(input, mode);
    let mut d = Decoder::new(e, mode);
    let mut text = String::new();
    let mut chunked = Ok(());
    let pieces: Vec<&[u8]> = input.chunks(chunk).collect();
    for (i, piece) in pieces.iter().enumerate() {
        chunked = d.decode_into_string(piece, &mut text, i + 1 == pieces.len());
        if chunked.is_err() {
            break;
        }
    }
    if pieces.is_empty() {
        chunked = d.decode_into_string(&[], &mut text, true);
    }
    match (&whole, &chunked) {
        (Ok(w), Ok(())) => same(e.name(), input, &text, w),
        (Err(w), Err(c)) => same(
            e.name(),
            input,
            (c.offset(), c.line(), c.column()),
            (w.offset(), w.line(), w.column()),
        ),
        _ => panic!("{}: one-shot {whole:?}, chunks of {chunk}: {chunked:?}", e.name()),
    }
    // Against `last`'s word: no panic.
    let _ = d.decode_into_string(input, &mut text, true);

    if e.is_single_byte() {
        let mut before = String::new();
        let decoded = Decoder::new(Encoding::UTF_8, mode).decode_into_string(input, &mut before, true);
        let want = e.encode_to_vec(&before, EncodeMode::Replace).ok();
        let mut c = Converter::new(Encoding::UTF_8, e, mode, EncodeMode::Replace);
        let mut out = Vec::new();
        let mut converted = Ok(());
        for (i, piece) in pieces.iter().enumerate() {
            converted = c.convert_into_vec(piece, &mut out, i + 1 == pieces.len());
            if converted.is_err() {
                break;
            }
        }
        if pieces.is_empty() {
            converted = c.convert_into_vec(&[], &mut out, true);
        }
        same("UTF-8 into a single-byte page", input, Some(out), want);
        let offset = |r: &Result<(), ConvertError>| match r {
            Ok(()) => None,
            Err(ConvertError::Decode(d)) => Some(d.offset()),
            Err(other) => panic!("{}: {other:?}", e.name()),
        };
        same("its error", input, offset(&converted), decoded.err().map(|d| d.offset()));
    }

    if let Ok(w) = &whole {
        let units = e.decode_to_utf16_vec(input, mode);
        same("UTF-16 output", input, units.ok(), Some(w.encode_utf16().collect::<Vec<u16>>()));
        for m in [EncodeMode::Replace, EncodeMode::Skip, EncodeMode::Ncr] {
            assert!(e.encode_to_vec(w, m).is_ok(), "{} {m:?}", e.name());
        }
        if let (Ok(bytes), false) = (e.encode_to_vec(w, EncodeMode::Strict), e.name() == "replacement")
        {
            let back = e.decode_to_string(&bytes, DecodeMode::Strict);
            let again = back.as_ref().ok().map(|b| e.encode_to_vec(b, EncodeMode::Strict).ok());
            same("strict round trip", input, again, Some(Some(bytes)));
        }
    }

    if let Some(form) = Form::of(e) {
        let lossy = !matches!(mode, DecodeMode::Strict);
        // Each chunk goes in after what the last call left unconsumed (an
        // unfinished character), as the decoder's contract asks.
        let run = |size: usize| -> Result<(String, usize), u64> {
            let mut d = pivot::Decoder::new(form, lossy);
            let mut out = Pivot::Text(String::new());
            let mut carry = Vec::new();
            let pieces: Vec<&[u8]> = input.chunks(size).collect();
            if pieces.is_empty() {
                d.decode(&[], true, &mut out).map_err(|e| e.offset)?;
            }
            for (i, piece) in pieces.iter().enumerate() {
                carry.extend_from_slice(piece);
                let n = d
                    .decode(&carry, i + 1 == pieces.len(), &mut out)
                    .map_err(|e| e.offset)?;
                carry.drain(..n);
            }
            match out {
                Pivot::Text(t) => Ok((t, carry.len())),
                _ => Err(u64::MAX),
            }
        };
        same("pivot chunking", input, run(chunk), run(input.len().max(1)));
    }
});
