//! Varint and zigzag decoding against a reference model written from the
//! specification, for every width; strict against lenient; the bulk decoders,
//! the iterator and the `io::Read` extension against one-at-a-time decoding.
#![no_main]

use codec_core::DecodeError;
use fuzz::same;
use libfuzzer_sys::fuzz_target;
use varint::Varint;

/// The reference: LEB128 for a `bits`-wide unsigned type, written for
/// clarity. At most `ceil(bits / 7)` bytes; the last allowed byte must set
/// neither the continuation bit nor any bit at or above `bits`; running out
/// of input first is `Truncated`.
fn model(buf: &[u8], bits: u32) -> Result<(u128, usize), DecodeError> {
    let max_len = bits.div_ceil(7) as usize;
    let mut value = 0u128;
    for i in 0..max_len {
        let Some(&b) = buf.get(i) else {
            return Err(DecodeError::Truncated);
        };
        let last = i == max_len - 1;
        if last && (b & 0x80 != 0 || u32::from(b) >> (bits - 7 * i as u32) != 0) {
            return Err(DecodeError::Overflow);
        }
        value |= u128::from(b & 0x7F) << (7 * i);
        if b & 0x80 == 0 {
            return Ok((value, i + 1));
        }
    }
    Err(DecodeError::Overflow)
}

/// Strict is the model plus "a multi-byte encoding must not end in 0x00".
fn strict_model(buf: &[u8], bits: u32) -> Result<(u128, usize), DecodeError> {
    match model(buf, bits) {
        Ok((_, n)) if n > 1 && buf[n - 1] == 0 => Err(DecodeError::NonCanonical),
        other => other,
    }
}

fn check<T: Varint + Into<u128>>(data: &[u8], bits: u32) {
    let name = std::any::type_name::<T>();
    let lenient = varint::decode::<T>(data);
    same(
        &format!("decode::<{name}>"),
        data,
        lenient.map(|(v, n)| (v.into(), n)),
        model(data, bits),
    );
    let strict = varint::decode_strict::<T>(data);
    same(
        &format!("decode_strict::<{name}>"),
        data,
        strict.map(|(v, n)| (v.into(), n)),
        strict_model(data, bits),
    );
    // Strict accepts exactly what encode produces.
    if let Ok((v, n)) = lenient {
        let mut buf = [0u8; 19];
        let m = varint::encode(v, &mut buf);
        same(
            &format!("strict <=> canonical, {name}"),
            data,
            strict.is_ok(),
            buf[..m] == data[..n],
        );
        same(
            &format!("encoded_len::<{name}>"),
            data,
            varint::encoded_len(v),
            m,
        );
    }
    // Bulk decoding agrees with decoding one value at a time.
    let mut one_by_one = Vec::new();
    let mut at = 0;
    let stop = loop {
        if at == data.len() {
            break None;
        }
        match varint::decode::<T>(&data[at..]) {
            Ok((v, n)) => {
                one_by_one.push(v);
                at += n;
            }
            Err(e) => break Some((e, at)),
        }
    };
    let iterated: Vec<Result<T, DecodeError>> = varint::iter::<T>(data).collect();
    let mut expect: Vec<Result<T, DecodeError>> = one_by_one.iter().copied().map(Ok).collect();
    if let Some((e, _)) = stop {
        expect.push(Err(e));
    }
    same(&format!("iter::<{name}>"), data, iterated, expect);
    let ended = stop.map(|(err, at)| (err, at, one_by_one.len()));
    let mut values = Vec::new();
    match varint::decode_into_vec::<T>(data, &mut values) {
        Ok(count) => same(
            &format!("decode_into_vec::<{name}>"),
            data,
            (count, values, None),
            (one_by_one.len(), one_by_one.clone(), ended),
        ),
        Err(e) => {
            same(
                &format!("decode_into_vec::<{name}> error"),
                data,
                Some((e.error(), e.offset(), e.count())),
                ended,
            );
            same(
                &format!("decode_into_vec::<{name}> values"),
                data,
                &values[..],
                &one_by_one[..],
            );
        }
    }
    let mut out = vec![T::default(); one_by_one.len() + 1];
    match varint::decode_into::<T>(data, &mut out) {
        Ok(d) => same(
            &format!("decode_into::<{name}>"),
            data,
            (d.count, d.bytes, &out[..d.count.min(out.len())], None),
            (one_by_one.len(), data.len(), &one_by_one[..], ended),
        ),
        Err(e) => {
            same(
                &format!("decode_into::<{name}> error"),
                data,
                Some((e.error(), e.offset(), e.count())),
                ended,
            );
            same(
                &format!("decode_into::<{name}> values"),
                data,
                &out[..e.count().min(out.len())],
                &one_by_one[..],
            );
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check::<u16>(data, 16);
    check::<u32>(data, 32);
    check::<u64>(data, 64);
    check::<u128>(data, 128);
    same(
        "decode::<usize>",
        data,
        varint::decode::<usize>(data).map(|(v, n)| (v as u64, n)),
        varint::decode::<u64>(data),
    );

    // Signed: zigzag over the unsigned decode, and zigzag round trips.
    same(
        "decode_signed::<i64>",
        data,
        varint::decode_signed::<i64>(data),
        varint::decode::<u64>(data).map(|(v, n)| (zigzag::decode(v), n)),
    );
    same(
        "decode_signed::<i32>",
        data,
        varint::decode_signed::<i32>(data),
        varint::decode::<u32>(data).map(|(v, n)| (zigzag::decode(v), n)),
    );
    let mut w = [0u8; 16];
    let k = data.len().min(16);
    w[..k].copy_from_slice(&data[..k]);
    let x = i128::from_le_bytes(w);
    same("zigzag i128", data, zigzag::decode(zigzag::encode(x)), x);
    let x64 = x as i64;
    same("zigzag i64", data, zigzag::decode(zigzag::encode(x64)), x64);
    same(
        "zigzag i64 formula",
        data,
        zigzag::encode(x64),
        ((x64 << 1) ^ (x64 >> 63)) as u64,
    );
    let mut buf = [0u8; 10];
    let n = varint::encode_signed(x64, &mut buf);
    same(
        "signed round trip",
        data,
        varint::decode_signed::<i64>(&buf[..n]),
        Ok((x64, n)),
    );

    // The io::Read extension reads the same value and never more bytes
    // than the value's encoding.
    use varint::ReadVarint;
    let mut reader = data;
    match (reader.read_varint::<u64>(), varint::decode::<u64>(data)) {
        (Ok(v), Ok((w, n))) => {
            same("read_varint value", data, v, w);
            same("read_varint consumed", data, data.len() - reader.len(), n);
        }
        (Err(e), Err(DecodeError::Truncated)) => same(
            "read_varint truncated",
            data,
            e.kind(),
            std::io::ErrorKind::UnexpectedEof,
        ),
        (Err(e), Err(_)) => same(
            "read_varint invalid",
            data,
            e.kind(),
            std::io::ErrorKind::InvalidData,
        ),
        (got, want) => panic!("read_varint {got:?} but decode {want:?} on {data:02X?}"),
    }
});
