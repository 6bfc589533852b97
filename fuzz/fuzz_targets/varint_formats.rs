//! Every format of `varint::formats` on arbitrary bytes: the trait's
//! contract (a length from 1 to `MAX_LEN`, the same answer whatever
//! follows, strict a subset of lenient, strict decodes what encode writes),
//! and the bulk iterator, `decode_into`, the `io::Read` adapter and the
//! stream decoder against one value at a time.
#![no_main]

use codec_core::DecodeError;
use fuzz::same;
use libfuzzer_sys::fuzz_target;
use varint::formats::{
    Bijective, Bincode, CborHead, CompactSize, Format, Hpack, Leb128, MsgPack, Prefix, Quic,
    ReadFormat, Sleb128, Sqlite, Vlq, Zigzag, decode_stream,
};

fn check<F: Format<Value: PartialEq + core::fmt::Debug + Default>>(data: &[u8]) {
    let name = F::NAME;
    let lenient = F::decode(data);
    if let Ok((v, n)) = lenient {
        assert!((1..=F::MAX_LEN).contains(&n) && n <= data.len(), "{name}: length {n}");
        // Prefix-free: the value alone decodes the same.
        same(name, data, F::decode(&data[..n]), Ok((v, n)));
    }
    let strict = F::decode_strict(data);
    match strict {
        Ok(ok) => same(name, data, lenient, Ok(ok)),
        Err(DecodeError::NonCanonical) => assert!(lenient.is_ok(), "{name}"),
        Err(e) => same(name, data, lenient, Err(e)),
    }
    // What encode writes decodes strictly to the same value and length.
    if let Ok((v, _)) = lenient {
        let mut buf = [0u8; 32];
        if let Ok(m) = F::try_encode(v, &mut buf) {
            same(name, &buf[..m], F::decode_strict(&buf[..m]), Ok((v, m)));
        }
    }
    // The bulk paths against one value at a time.
    let mut one = Vec::new();
    let mut at = 0;
    let stop = loop {
        if at == data.len() {
            break None;
        }
        match F::decode(&data[at..]) {
            Ok((v, n)) => {
                one.push(v);
                at += n;
            }
            Err(e) => break Some((e, at)),
        }
    };
    let it: Vec<_> = F::iter(data).collect();
    same(name, data, it.iter().filter(|r| r.is_ok()).count(), one.len());
    let mut out = vec![F::Value::default(); one.len() + 1];
    match F::decode_into(data, &mut out) {
        Ok(d) => {
            assert!(stop.is_none(), "{name}");
            same(name, data, &out[..d.count], &one[..]);
        }
        Err(e) => same(name, data, Some((e.error(), e.offset())), stop),
    }
    let mut streamed = Vec::new();
    let r = decode_stream::<F, _, ()>(data, false, |v| {
        streamed.push(v);
        Ok(())
    });
    same(name, data, &streamed, &one);
    same(
        name,
        data,
        r.err().map(|e| e.offset() as usize),
        stop.map(|s| s.1),
    );
    let mut rd = data;
    for v in &one {
        same(name, data, rd.read_format::<F>().ok(), Some(*v));
    }
}

fuzz_target!(|data: &[u8]| {
    check::<Quic>(data);
    check::<Hpack<1>>(data);
    check::<Hpack<5>>(data);
    check::<Hpack<8>>(data);
    check::<Sqlite>(data);
    check::<Bijective>(data);
    check::<CompactSize>(data);
    check::<CborHead>(data);
    check::<MsgPack>(data);
    check::<Bincode>(data);
    check::<Vlq>(data);
    check::<Prefix>(data);
    check::<Leb128<u64>>(data);
    check::<Zigzag<i32>>(data);
    check::<Sleb128<i64>>(data);
});
