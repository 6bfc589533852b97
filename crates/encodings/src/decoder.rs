//! [`Decoder`]: any encoding to UTF-8 (or UTF-16), in chunks.
//!
//! Each encoding has a step that decodes a prefix of what it is given and
//! says how much it consumed; what it leaves (an unfinished character,
//! code unit or surrogate pair: at most [`CARRY`] bytes) the decoder keeps
//! and puts in front of the next chunk, so callers may cut their input
//! anywhere. encoding_rs keeps its own state, so its step consumes all.

use crate::error::{DecodeError, DecodeErrorKind};
use crate::lines::Lines;
use crate::registry::{Kind, Order};
use crate::single_byte;
use crate::{DecodeMode, Encoding};
use codec_core::utf16::Endianness;
use utf8_variants::{Variant, cesu8, mutf8};

/// The most bytes a step leaves unconsumed when more input may follow.
const CARRY: usize = 8;

/// Units of UTF-16 zeroed per call of encoding_rs's decoder: enough for
/// its loops, small enough that the zeros match the text's length.
const UTF16_WINDOW: usize = 8192;

/// A streaming decoder from one encoding to UTF-8 or UTF-16.
///
/// Bounded memory: besides the output, it holds at most 8 bytes of a
/// character split between chunks (and encoding_rs's state for the
/// multi-byte encodings). Errors name their byte offset in the whole
/// input, and its line and column.
///
/// ```
/// use encodings::{DecodeMode, Decoder, Encoding};
///
/// let koi8 = Encoding::for_label("KOI8-R").unwrap();
/// let mut d = Decoder::new(koi8, DecodeMode::Strict);
/// let mut text = String::new();
/// for chunk in [&b"\xF0\xD2\xC9"[..], b"\xD7\xC5\xD4"] {
///     d.decode_into_string(chunk, &mut text, false).unwrap();
/// }
/// d.decode_into_string(b"", &mut text, true).unwrap();
/// assert_eq!(text, "Привет");
/// ```
#[derive(Debug)]
pub struct Decoder {
    encoding: Encoding,
    mode: DecodeMode,
    /// The absolute offset of the next byte a step is given.
    offset: u64,
    /// Bytes left by the last step, to go in front of the next chunk.
    carry: Vec<u8>,
    /// The byte order of UTF-16/UTF-32 once known.
    order: Option<Endianness>,
    /// The length of the BOM that `UTF-16`/`UTF-32` consumed at the start.
    pub(crate) bom_consumed: usize,
    /// Where the output stands (for errors' line and column).
    position: Lines,
    legacy: Option<encoding_rs::Decoder>,
    utf7: crate::utf7::Utf7Decoder,
    /// The error a strict decoder stopped at: returned again if it is used.
    failed: Option<DecodeError>,
    /// The decoded text of a UTF-16 output call.
    scratch: String,
    /// CP1255 and CP1258: the character that waits for a mark (glibc's
    /// buffered letter), not yet written.
    held: Option<char>,
    /// The last bytes given to encoding_rs, whose malformed sequences may
    /// begin in an earlier chunk: an error quotes them from here.
    history: Vec<u8>,
}

/// A decode failure inside a step: `at` is relative to the step's input.
struct Bad {
    at: isize,
    len: usize,
    kind: DecodeErrorKind,
}

impl Decoder {
    /// A decoder at the start of an input in `encoding`.
    #[must_use]
    pub fn new(encoding: Encoding, mode: DecodeMode) -> Decoder {
        let order = match encoding.kind() {
            Kind::Utf16(Order::Fixed(o)) | Kind::Utf32(Order::Fixed(o)) | Kind::Ucs2(o) => Some(o),
            _ => None,
        };
        let legacy = match encoding.kind() {
            Kind::Legacy(e) => Some(e.new_decoder_without_bom_handling()),
            _ => None,
        };
        Decoder {
            encoding,
            mode,
            offset: 0,
            carry: Vec::new(),
            order,
            bom_consumed: 0,
            position: Lines::default(),
            legacy,
            utf7: crate::utf7::Utf7Decoder::default(),
            failed: None,
            scratch: String::new(),
            history: Vec::new(),
            held: None,
        }
    }

    /// A decoder for a region of an input that starts at byte `offset`,
    /// cut where [`Encoding::cut_near`] allows: its errors name offsets in
    /// the whole input (their line and column count from the region's
    /// start). `head` is the start of the whole input, from which `UTF-16`
    /// and `UTF-32` take their byte order (a region never starts with a
    /// BOM of its own).
    #[must_use]
    pub fn resume(encoding: Encoding, mode: DecodeMode, offset: u64, head: &[u8]) -> Decoder {
        let mut d = Decoder::new(encoding, mode);
        d.offset = offset;
        if offset > 0
            && matches!(
                encoding.kind(),
                Kind::Utf16(_) | Kind::Utf32(_) | Kind::Ucs2(_)
            )
        {
            d.order = Some(crate::cut::sniffed(encoding, head));
        }
        d
    }

    /// This decoder without the lines and columns of its errors: their
    /// [`line`](DecodeError::line) and [`column`](DecodeError::column)
    /// read 0, their offsets stay exact, and the pass that counts newlines
    /// (about a tenth of a single-byte page's decoding) is skipped. For a
    /// caller that can find the line from the offset when it needs it, as
    /// `codec convert` does by converting the file again up to the error.
    ///
    /// ```
    /// use encodings::{DecodeMode, Decoder, Encoding};
    ///
    /// let cp1253 = Encoding::for_label("windows-1253").unwrap();
    /// let mut d = Decoder::new(cp1253, DecodeMode::Strict).without_positions();
    /// let mut text = String::new();
    /// let err = d.decode_into_string(b"ab\ncd\xAA", &mut text, true).unwrap_err(); // 0xAA: undefined
    /// assert_eq!((err.offset(), err.line(), err.column()), (5, 0, 0));
    /// ```
    #[must_use]
    pub fn without_positions(mut self) -> Decoder {
        self.position.skip();
        self
    }

    /// The encoding decoded.
    #[must_use]
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The bytes of input consumed so far (those held back between chunks
    /// excluded).
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Decodes `src`, the next chunk of the input, appending the text to
    /// `dst`. `last` says no more input follows: then an unfinished
    /// character at the end is an error (or one U+FFFD).
    ///
    /// # Errors
    ///
    /// In [`DecodeMode::Strict`], the first invalid sequence, with `dst`
    /// holding exactly the text before it (glibc's CP1255 and CP1258: but
    /// for a letter waiting for a mark right before it, which glibc's iconv
    /// does not write either). The decoder is then spent: later calls
    /// return the same error.
    pub fn decode_into_string(
        &mut self,
        src: &[u8],
        dst: &mut String,
        last: bool,
    ) -> Result<(), DecodeError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if let Kind::SingleByte(page) = self.encoding.kind() {
            return self.single_byte_utf8(page, src, dst, last);
        }
        if let Kind::Latin1 = self.encoding.kind() {
            crate::arch::latin1_to_utf8(src, dst);
            self.latin1_done(src);
            return Ok(());
        }
        let start = dst.len();
        let result = self.run(src, dst, last);
        let produced = &dst.as_bytes()[start..];
        match result {
            Ok(()) => {
                if last {
                    self.end_positions();
                } else if self.tracks_position() {
                    self.position.advance_text(produced);
                }
                Ok(())
            }
            Err((bad, bytes)) => {
                self.position.advance_text(produced);
                let e = DecodeError {
                    encoding: self.encoding,
                    kind: bad.kind,
                    offset: self.offset.saturating_add_signed(bad.at as i64),
                    bytes,
                    line: self.position.line(),
                    column: self.position.column(),
                };
                self.failed = Some(e.clone());
                Err(e)
            }
        }
    }

    /// Whether the line and column are kept: only a strict decoder reports
    /// them (in its error), so the other modes skip the passes that count
    /// them.
    /// Whether this is a UTF-8 decoder that has not failed: once it holds
    /// nothing of an earlier chunk ([`utf8_needs`](Decoder::utf8_needs)
    /// 0), a chunk of valid UTF-8 decodes to itself.
    pub(crate) fn utf8_open(&self) -> bool {
        matches!(self.encoding.kind(), Kind::Utf8) && self.failed.is_none()
    }

    /// How many more bytes the character a UTF-8 decoder holds from the
    /// last chunk wants, by its lead (at least 1 while it holds any).
    pub(crate) fn utf8_needs(&self) -> usize {
        let width: usize = match self.carry.first() {
            None => return 0,
            Some(0xE0..=0xEF) => 3,
            Some(0xF0..=0xF7) => 4,
            Some(_) => 2,
        };
        width.saturating_sub(self.carry.len()).max(1)
    }

    /// Moves past `text`, a chunk of valid UTF-8 given to a UTF-8 decoder
    /// that holds nothing, and used where it lies (its
    /// offset and lines as a decode of it would leave them).
    pub(crate) fn pass_valid(&mut self, text: &[u8]) {
        self.offset += text.len() as u64;
        if self.tracks_position() {
            self.position.advance_text(text);
        }
    }

    fn tracks_position(&self) -> bool {
        matches!(self.mode, DecodeMode::Strict) && self.position.counts()
    }

    /// After the last chunk decoded without error: no input follows, so
    /// no error to name a line in, and its lines are not counted (a pass
    /// over the chunk); a call after it, against `last`'s word, reports
    /// line and column 0.
    fn end_positions(&mut self) {
        self.position.skip();
    }

    /// The rest of `src` after its run of ASCII at the start, which a
    /// strict decoder on an ASCII-compatible page appends to `dst` itself
    /// (`append`: copied or widened), counting its lines on the way (as
    /// the strict encoder does: counted over the input afterwards, they
    /// cost as much as the copy); other decoders take all of `src`.
    fn counted_ascii_run<'a, D: ?Sized>(
        &mut self,
        page: &single_byte::SingleByte,
        src: &'a [u8],
        dst: &mut D,
        append: impl FnOnce(&[u8], &mut D, u8) -> crate::arch::Counted,
    ) -> &'a [u8] {
        if !(page.ascii_compatible() && self.tracks_position()) {
            return src;
        }
        let (n, newlines, last) = append(src, dst, b'\n');
        self.offset += n as u64;
        advance_counted(&mut self.position, n, newlines, last);
        &src[n..]
    }

    /// As [`Decoder::decode_into_string`], appending UTF-16 code units.
    ///
    /// # Errors
    ///
    /// As [`Decoder::decode_into_string`]; `dst` then holds the units of the
    /// text before the error.
    pub fn decode_into_utf16_vec(
        &mut self,
        src: &[u8],
        dst: &mut Vec<u16>,
        last: bool,
    ) -> Result<(), DecodeError> {
        if let Kind::SingleByte(page) = self.encoding.kind()
            && self.failed.is_none()
        {
            return self.single_byte_utf16(page, src, dst, last);
        }
        if let Kind::Legacy(_) = self.encoding.kind()
            && self.failed.is_none()
        {
            return self.legacy_utf16(src, dst, last);
        }
        if let Kind::Latin1 = self.encoding.kind() {
            // Every byte is a character: no error, no carry. The single-byte
            // kernels with the identity table write straight into `dst`'s
            // spare capacity (transcode's Latin-1 kernel needs initialised
            // units: zeroing them first cost a third of the time).
            let n = crate::arch::decode_to_utf16(&single_byte::LATIN1, src, dst);
            dst.extend(src[n..].iter().map(|&b| u16::from(b)));
            self.latin1_done(src);
            return Ok(());
        }
        let mut text = core::mem::take(&mut self.scratch);
        text.clear();
        let result = self.decode_into_string(src, &mut text, last);
        // Through transcode's UTF-8 -> UTF-16 kernel (`encode_utf16` goes a
        // character at a time): at most one unit a byte of UTF-8.
        let start = dst.len();
        dst.resize(start + text.len(), 0);
        match transcode::str_to_utf16(&text, &mut dst[start..]) {
            Ok(n) => dst.truncate(start + n),
            Err(_) => {
                dst.truncate(start);
                dst.extend(text.encode_utf16());
            }
        }
        self.scratch = text;
        result
    }

    /// Counts what a Latin-1 decoder has read. It never fails, so no error
    /// will name a line and column: they are not counted (that pass took
    /// as long as decoding ASCII text).
    fn latin1_done(&mut self, src: &[u8]) {
        self.offset += src.len() as u64;
    }

    /// A single-byte page straight to UTF-16 (the table-lookup kernel's
    /// own output; a single-byte decoder holds no carry).
    fn single_byte_utf16(
        &mut self,
        page: &single_byte::SingleByte,
        src: &[u8],
        dst: &mut Vec<u16>,
        last: bool,
    ) -> Result<(), DecodeError> {
        let src =
            self.counted_ascii_run(page, src, dst, crate::arch::append_ascii_widened_counting);
        self.single_byte(
            page,
            src,
            dst,
            |dst, run| crate::arch::decode_to_utf16(page, run, dst),
            |dst| dst.push(0xFFFD),
            last,
        )
    }

    /// The multi-byte legacy encodings straight to UTF-16 through
    /// encoding_rs (no UTF-8 detour), as [`Decoder::legacy`] and
    /// [`Decoder::step_checked`] do for UTF-8.
    fn legacy_utf16(
        &mut self,
        src: &[u8],
        dst: &mut Vec<u16>,
        last: bool,
    ) -> Result<(), DecodeError> {
        let Some(mut decoder) = self.legacy.take() else {
            return Ok(());
        };
        let start = dst.len();
        let mut pos = 0;
        let result = loop {
            // A window at a time: the zeros written first are about what
            // the text needs, not the worst case of a unit a byte (CJK
            // text is about half that; zeroing the worst case cost
            // Shift_JIS -> UTF-16 3% of its time).
            let need = decoder
                .max_utf16_buffer_length(src.len() - pos)
                .unwrap_or(src.len() - pos + 16)
                .min(UTF16_WINDOW);
            let at = dst.len();
            dst.resize(at + need, 0);
            let (result, read, written) =
                decoder.decode_to_utf16_without_replacement(&src[pos..], &mut dst[at..], last);
            dst.truncate(at + written);
            pos += read;
            match result {
                encoding_rs::DecoderResult::InputEmpty => break Ok(()),
                encoding_rs::DecoderResult::OutputFull => {}
                encoding_rs::DecoderResult::Malformed(len, after) => match self.mode {
                    DecodeMode::Strict => {
                        // The malformed bytes end `after` bytes before
                        // `pos` (they may have begun in an earlier chunk).
                        break Err(Bad {
                            at: pos as isize - after as isize - isize::from(len),
                            len: usize::from(len),
                            kind: DecodeErrorKind::Invalid,
                        });
                    }
                    DecodeMode::Replace => dst.push(0xFFFD),
                    DecodeMode::Skip => {}
                },
            }
        };
        self.legacy = Some(self.legacy_after(decoder, last && result.is_ok()));
        if last && result.is_ok() {
            self.end_positions();
        } else if self.tracks_position() {
            advance_units(&mut self.position, &dst[start..]);
        }
        match result {
            Ok(()) => {
                self.offset += src.len() as u64;
                let tail = &src[src.len().saturating_sub(CARRY)..];
                self.history.extend_from_slice(tail);
                let excess = self.history.len().saturating_sub(CARRY);
                self.history.drain(..excess);
                Ok(())
            }
            Err(bad) => {
                let mut seen = core::mem::take(&mut self.history);
                let held = seen.len() as isize;
                let end = bad.len.saturating_add_signed(bad.at).min(src.len());
                seen.extend_from_slice(&src[..end]);
                let from = usize::try_from(held + bad.at).unwrap_or(0).min(seen.len());
                let to = (from + bad.len).min(seen.len()).min(from + 8);
                let e = DecodeError {
                    encoding: self.encoding,
                    kind: bad.kind,
                    offset: self.offset.saturating_add_signed(bad.at as i64),
                    bytes: seen[from..to].to_vec(),
                    line: self.position.line(),
                    column: self.position.column(),
                };
                self.failed = Some(e.clone());
                Err(e)
            }
        }
    }

    /// A single-byte page to UTF-8, without a second pass over the output
    /// for lines and columns.
    fn single_byte_utf8(
        &mut self,
        page: &single_byte::SingleByte,
        src: &[u8],
        dst: &mut String,
        last: bool,
    ) -> Result<(), DecodeError> {
        let kernel = single_byte::kernel();
        let src = self.counted_ascii_run(page, src, dst, crate::arch::append_ascii_counting_str);
        self.single_byte(
            page,
            src,
            dst,
            |dst, run| match (kernel.decode)(page, run, dst) {
                Ok(()) => run.len(),
                Err(at) => at,
            },
            |dst| dst.push('\u{FFFD}'),
            last,
        )
    }

    /// The single-byte pages: `decode` appends the longest prefix of its
    /// input without an undefined byte and returns its length; `replace`
    /// appends U+FFFD. Every byte is one character, so the line and column
    /// come from the input bytes.
    fn single_byte<D>(
        &mut self,
        page: &single_byte::SingleByte,
        src: &[u8],
        dst: &mut D,
        mut decode: impl FnMut(&mut D, &[u8]) -> usize,
        mut replace: impl FnMut(&mut D),
        last: bool,
    ) -> Result<(), DecodeError> {
        let newline = page.newline();
        let mut i = 0;
        let mut failed = None;
        while i < src.len() {
            let n = decode(dst, &src[i..]);
            if last && i + n == src.len() {
                self.end_positions();
            } else if self.tracks_position() {
                advance_single_byte(&mut self.position, &src[i..i + n], newline);
            }
            i += n;
            if i == src.len() {
                break;
            }
            match self.mode {
                DecodeMode::Strict => {
                    failed = Some(i);
                    break;
                }
                DecodeMode::Replace => replace(dst),
                DecodeMode::Skip => {}
            }
            i += 1;
        }
        let Some(at) = failed else {
            self.offset += src.len() as u64;
            return Ok(());
        };
        let e = DecodeError {
            encoding: self.encoding,
            kind: DecodeErrorKind::Invalid,
            offset: self.offset + at as u64,
            bytes: vec![src[at]],
            line: self.position.line(),
            column: self.position.column(),
        };
        self.offset += at as u64;
        self.failed = Some(e.clone());
        Err(e)
    }

    /// Decodes the carry and `src` through the encoding's step.
    fn run(&mut self, mut src: &[u8], dst: &mut String, last: bool) -> Result<(), (Bad, Vec<u8>)> {
        if !self.carry.is_empty() {
            // The carry and the head of `src` together: the step consumes at
            // least the carry unless `src` ends first.
            let take = src.len().min(2 * CARRY);
            let mut joined = core::mem::take(&mut self.carry);
            let held = joined.len();
            joined.extend_from_slice(&src[..take]);
            let n = self.step_checked(&joined, last && take == src.len(), dst)?;
            if n < held {
                joined.drain(..n);
                self.carry = joined;
                return Ok(());
            }
            src = &src[n - held..];
        }
        let n = self.step_checked(src, last, dst)?;
        self.carry.clear();
        self.carry.extend_from_slice(&src[n..]);
        Ok(())
    }

    /// One step, advancing the offset past what it consumed.
    fn step_checked(
        &mut self,
        input: &[u8],
        last: bool,
        dst: &mut String,
    ) -> Result<usize, (Bad, Vec<u8>)> {
        match self.step(input, last, dst) {
            Ok(n) => {
                self.offset += n as u64;
                if matches!(self.encoding.kind(), Kind::Legacy(_)) {
                    let tail = &input[input.len().saturating_sub(CARRY)..];
                    self.history.extend_from_slice(tail);
                    let excess = self.history.len().saturating_sub(CARRY);
                    self.history.drain(..excess);
                }
                Ok(n)
            }
            Err(bad) => {
                // Quote the bytes from the held ones of earlier chunks and
                // this input.
                let mut seen = core::mem::take(&mut self.history);
                let held = seen.len() as isize;
                let end = bad.len.saturating_add_signed(bad.at).min(input.len());
                seen.extend_from_slice(&input[..end]);
                let from = usize::try_from(held + bad.at).unwrap_or(0).min(seen.len());
                let to = (from + bad.len).min(seen.len()).min(from + 8);
                Err((bad, seen[from..to].to_vec()))
            }
        }
    }

    /// Handles one invalid piece at `at` of `len` bytes: an error when
    /// strict, else one U+FFFD or nothing.
    fn bad(
        &self,
        at: usize,
        len: usize,
        kind: DecodeErrorKind,
        dst: &mut String,
    ) -> Result<(), Bad> {
        match self.mode {
            DecodeMode::Strict => Err(Bad {
                at: at as isize,
                len,
                kind,
            }),
            DecodeMode::Replace => {
                dst.push('\u{FFFD}');
                Ok(())
            }
            DecodeMode::Skip => Ok(()),
        }
    }

    fn step(&mut self, input: &[u8], last: bool, dst: &mut String) -> Result<usize, Bad> {
        match self.encoding.kind() {
            Kind::Utf8 => self.utf8(input, last, dst),
            Kind::Latin1 => {
                crate::arch::latin1_to_utf8(input, dst);
                Ok(input.len())
            }
            Kind::Ascii => {
                let mut i = 0;
                while i < input.len() {
                    let run = crate::ascii_prefix(&input[i..]);
                    if let Ok(s) = core::str::from_utf8(&input[i..i + run]) {
                        dst.push_str(s);
                    }
                    i += run;
                    if i < input.len() {
                        self.bad(i, 1, DecodeErrorKind::Invalid, dst)?;
                        i += 1;
                    }
                }
                Ok(input.len())
            }
            Kind::SingleByte(page) => {
                let kernel = single_byte::kernel();
                let mut i = 0;
                while let Err(at) = (kernel.decode)(page, &input[i..], dst) {
                    self.bad(i + at, 1, DecodeErrorKind::Invalid, dst)?;
                    i += at + 1;
                }
                Ok(input.len())
            }
            Kind::Utf16(_) | Kind::Ucs2(_) => self.utf16(input, last, dst),
            Kind::Utf32(_) => self.utf32(input, last, dst),
            Kind::Cesu8 => self.variant(Variant::Cesu8, input, last, dst),
            Kind::Mutf8 => self.variant(Variant::Mutf8, input, last, dst),
            Kind::Wtf8 => self.variant(Variant::Wtf8, input, last, dst),
            Kind::Utf7 => {
                let mode = self.mode;
                let mut bad = None;
                let n =
                    self.utf7.decode(
                        input,
                        last,
                        dst,
                        &mut |at, len, dst: &mut String| match mode {
                            DecodeMode::Strict => {
                                bad = Some(Bad {
                                    at: at as isize,
                                    len,
                                    kind: DecodeErrorKind::Invalid,
                                });
                                false
                            }
                            DecodeMode::Replace => {
                                dst.push('\u{FFFD}');
                                true
                            }
                            DecodeMode::Skip => true,
                        },
                    );
                match bad {
                    Some(b) => Err(b),
                    None => Ok(n),
                }
            }
            Kind::Legacy(_) => self.legacy(input, last, dst),
            Kind::Composing(comp) => self.composing(comp, input, last, dst),
        }
    }

    /// glibc's CP1255 and CP1258: the page's kernel between mark bytes;
    /// a letter that may take a mark is held (not written) until the next
    /// byte says, and at a mark it is composed with it where they compose.
    /// As glibc: an undefined byte skipped (`-c`) leaves the letter held,
    /// and a strict error drops it. Everything is consumed: the letter is
    /// held as a character, not as bytes.
    fn composing(
        &mut self,
        comp: &crate::compose::Composition,
        input: &[u8],
        last: bool,
        dst: &mut String,
    ) -> Result<usize, Bad> {
        let kernel = single_byte::kernel();
        let mut i = 0;
        while i < input.len() {
            let end = comp.next_mark(input, i);
            // The bytes before the mark, through the kernel; each stretch
            // between undefined bytes ends the held letter and may hold
            // its own last one.
            while i < end {
                if comp.page.decode_byte(input[i]).is_some() {
                    if let Some(h) = self.held.take() {
                        dst.push(h);
                    }
                    // A short stretch (between marks, in Vietnamese) a
                    // byte at a time: the kernel's setup costs more.
                    let n = if end - i < 16 {
                        let mut n = 0;
                        while let Some(c) =
                            input[i..end].get(n).and_then(|&b| comp.page.decode_byte(b))
                        {
                            dst.push(c);
                            n += 1;
                        }
                        n
                    } else {
                        match (kernel.decode)(comp.page, &input[i..end], dst) {
                            Ok(()) => end - i,
                            Err(at) => at,
                        }
                    };
                    i += n;
                    if let Some(c) = dst.chars().next_back()
                        && comp.holds(c)
                    {
                        dst.pop();
                        self.held = Some(c);
                    }
                    continue;
                }
                match self.mode {
                    DecodeMode::Strict => {
                        self.held = None;
                        return Err(Bad {
                            at: i as isize,
                            len: 1,
                            kind: DecodeErrorKind::Invalid,
                        });
                    }
                    DecodeMode::Replace => {
                        if let Some(h) = self.held.take() {
                            dst.push(h);
                        }
                        dst.push('\u{FFFD}');
                    }
                    DecodeMode::Skip => {}
                }
                i += 1;
            }
            let Some(&b) = input.get(end) else { break };
            let Some(mark) = comp.page.decode_byte(b) else {
                break;
            };
            // The held letter and the mark composed, where they compose;
            // else both as they are.
            let composed = match self.held.take() {
                Some(h) => {
                    let c = comp.compose(h, mark);
                    if c.is_none() {
                        dst.push(h);
                    }
                    c
                }
                None => None,
            };
            match composed {
                Some(c) if comp.composes_further(c) => self.held = Some(c),
                Some(c) => dst.push(c),
                None => dst.push(mark),
            }
            i = end + 1;
        }
        if last && let Some(h) = self.held.take() {
            dst.push(h);
        }
        Ok(input.len())
    }

    fn utf8(&mut self, input: &[u8], last: bool, dst: &mut String) -> Result<usize, Bad> {
        utf8_chunk(input, last, dst, |at, len, e, dst| {
            let kind = match e.error_len() {
                Some(_) => DecodeErrorKind::Invalid,
                None => DecodeErrorKind::Incomplete,
            };
            self.bad(at, len, kind, dst)
        })
    }

    /// The byte order of UTF-16/UTF-32 input (units of `unit` bytes), and
    /// how many BOM bytes to skip: named, or from a BOM (consumed;
    /// little-endian without one). `None` until a whole unit has arrived.
    fn sniff(&mut self, input: &[u8], last: bool, unit: usize) -> Option<(Endianness, usize)> {
        if let Some(o) = self.order {
            return Some((o, 0));
        }
        if input.len() < unit && !last {
            return None;
        }
        let (order, skip) = match (unit, input) {
            (2, [0xFF, 0xFE, ..]) => (Endianness::Little, 2),
            (2, [0xFE, 0xFF, ..]) => (Endianness::Big, 2),
            (4, [0xFF, 0xFE, 0, 0, ..]) => (Endianness::Little, 4),
            (4, [0, 0, 0xFE, 0xFF, ..]) => (Endianness::Big, 4),
            _ => (Endianness::Little, 0),
        };
        self.order = Some(order);
        self.bom_consumed = skip;
        Some((order, skip))
    }

    fn utf16(&mut self, input: &[u8], last: bool, dst: &mut String) -> Result<usize, Bad> {
        let Some((order, skip)) = self.sniff(input, last, 2) else {
            return Ok(0);
        };
        let ucs2 = matches!(self.encoding.kind(), Kind::Ucs2(_));
        let unit = |i: usize| {
            let b = [input[i], input[i + 1]];
            match order {
                Endianness::Little => u16::from_le_bytes(b),
                Endianness::Big => u16::from_be_bytes(b),
            }
        };
        // The fast path: all of it valid.
        let even = skip + (input.len() - skip) / 2 * 2;
        let mut end = even;
        if !last && !ucs2 && end >= skip + 2 && (0xD800..0xDC00).contains(&unit(end - 2)) {
            end -= 2;
        }
        if !ucs2
            // The mark was sniffed above; a U+FEFF further on is text.
            && let Ok(text) = transcode::utf16_bytes_to_string(
                &input[skip..end],
                transcode::ByteOrder::new(order, transcode::BomMode::Keep),
            )
        {
            dst.push_str(&text);
            return self.utf16_tail(input, end, last, dst);
        }
        let mut i = skip;
        while i + 2 <= end {
            let u = unit(i);
            if (0xD800..0xDC00).contains(&u) && !ucs2 && i + 4 <= end {
                let t = unit(i + 2);
                if (0xDC00..0xE000).contains(&t) {
                    let c = 0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(t) - 0xDC00);
                    dst.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                    i += 4;
                    continue;
                }
            }
            match char::from_u32(u32::from(u)) {
                Some(c) => dst.push(c),
                None => self.bad(i, 2, DecodeErrorKind::Invalid, dst)?,
            }
            i += 2;
        }
        self.utf16_tail(input, end, last, dst)
    }

    /// After the whole units up to `end`: at the end of the input, a lead
    /// surrogate cut off and an odd byte are one unfinished character.
    fn utf16_tail(
        &mut self,
        input: &[u8],
        end: usize,
        last: bool,
        dst: &mut String,
    ) -> Result<usize, Bad> {
        if !last || end == input.len() {
            return Ok(end);
        }
        self.bad(end, input.len() - end, DecodeErrorKind::Incomplete, dst)?;
        Ok(input.len())
    }

    fn utf32(&mut self, input: &[u8], last: bool, dst: &mut String) -> Result<usize, Bad> {
        let Some((order, skip)) = self.sniff(input, last, 4) else {
            return Ok(0);
        };
        let whole = skip + (input.len() - skip) / 4 * 4;
        let mut i = skip;
        while i < whole {
            let b = [input[i], input[i + 1], input[i + 2], input[i + 3]];
            let u = match order {
                Endianness::Little => u32::from_le_bytes(b),
                Endianness::Big => u32::from_be_bytes(b),
            };
            match char::from_u32(u) {
                Some(c) => dst.push(c),
                None => self.bad(i, 4, DecodeErrorKind::Invalid, dst)?,
            }
            i += 4;
        }
        if !last || whole == input.len() {
            return Ok(whole);
        }
        self.bad(whole, input.len() - whole, DecodeErrorKind::Incomplete, dst)?;
        Ok(input.len())
    }

    /// CESU-8, MUTF-8 or WTF-8, validated by utf8-variants; each invalid
    /// piece (as the crate's `decode_lossy` cuts them) is one error. WTF-8's
    /// lone surrogates are valid WTF-8 but have no UTF-8 form: each is one
    /// invalid piece here.
    fn variant(
        &mut self,
        variant: Variant,
        input: &[u8],
        last: bool,
        dst: &mut String,
    ) -> Result<usize, Bad> {
        variant_chunk(
            variant,
            input,
            last,
            dst,
            |pos, valid, dst| self.push_variant(variant, pos, valid, dst),
            |at, len, e, dst| {
                let kind = match e.error_len() {
                    Some(_) => DecodeErrorKind::Invalid,
                    None => DecodeErrorKind::Incomplete,
                };
                self.bad(at, len, kind, dst)
            },
        )
    }

    fn push_variant(
        &self,
        variant: Variant,
        pos: usize,
        valid: &[u8],
        dst: &mut String,
    ) -> Result<(), Bad> {
        match variant {
            Variant::Cesu8 => {
                if let Ok(t) = cesu8::decode(valid) {
                    dst.push_str(&t);
                }
                Ok(())
            }
            Variant::Mutf8 => {
                if let Ok(t) = mutf8::decode(valid) {
                    dst.push_str(&t);
                }
                Ok(())
            }
            _ => {
                let mut i = 0;
                while i < valid.len() {
                    match utf8_simd::from_utf8(&valid[i..]) {
                        Ok(s) => {
                            dst.push_str(s);
                            break;
                        }
                        Err(e) => {
                            // Valid WTF-8 that is not UTF-8: a lone
                            // surrogate, 3 bytes.
                            let at = i + e.valid_up_to();
                            push_valid(dst, &valid[i..at]);
                            self.bad(pos + at, 3, DecodeErrorKind::Invalid, dst)?;
                            i = at + 3;
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// The multi-byte legacy encodings, through encoding_rs (which keeps a
    /// split character itself, so everything is consumed).
    fn legacy(&mut self, input: &[u8], last: bool, dst: &mut String) -> Result<usize, Bad> {
        let Some(mut decoder) = self.legacy.take() else {
            return Ok(input.len());
        };
        let mut pos = 0;
        let result = loop {
            let need = decoder
                .max_utf8_buffer_length_without_replacement(input.len() - pos)
                .unwrap_or(4 * (input.len() - pos) + 16);
            dst.reserve(need);
            let (result, read) =
                decoder.decode_to_string_without_replacement(&input[pos..], dst, last);
            pos += read;
            match result {
                encoding_rs::DecoderResult::InputEmpty => break Ok(input.len()),
                encoding_rs::DecoderResult::OutputFull => {}
                encoding_rs::DecoderResult::Malformed(len, after) => {
                    // The malformed bytes end `after` bytes before `pos`
                    // (they may have begun in an earlier chunk).
                    let at = pos as isize - after as isize - isize::from(len);
                    if let Err(mut b) = self.bad(0, usize::from(len), DecodeErrorKind::Invalid, dst)
                    {
                        b.at = at;
                        break Err(b);
                    }
                }
            }
        };
        self.legacy = Some(self.legacy_after(decoder, last && result.is_ok()));
        result
    }

    /// The legacy decoder to keep after a call: after the last chunk, a
    /// new one (encoding_rs's panics if used after it has finished, and a
    /// call after the last, against `last`'s word, must not panic).
    fn legacy_after(&self, decoder: encoding_rs::Decoder, ended: bool) -> encoding_rs::Decoder {
        match self.encoding.kind() {
            Kind::Legacy(e) if ended => e.new_decoder_without_bom_handling(),
            _ => decoder,
        }
    }
}

/// Moves `lines` past well-formed UTF-16 `units` (a low surrogate is not
/// a character of its own); newlines go through
/// [`Lines::advance_valid`] as ASCII stand-ins.
fn advance_units(lines: &mut Lines, units: &[u16]) {
    const NEWLINES: [u8; 256] = [b'\n'; 256];
    let chars = |units: &[u16]| {
        units
            .iter()
            .filter(|&&u| !(0xDC00..0xE000).contains(&u))
            .count() as u64
    };
    match units.iter().rposition(|&u| u == 0x0A) {
        Some(last) => {
            let mut newlines = units[..=last].iter().filter(|&&u| u == 0x0A).count();
            while newlines > 0 {
                let n = newlines.min(NEWLINES.len());
                lines.advance_valid(&NEWLINES[..n]);
                newlines -= n;
            }
            lines.columns += chars(&units[last + 1..]);
        }
        None => lines.columns += chars(units),
    }
}

/// Moves `lines` past `bytes` of a single-byte page, one character each,
/// whose newline is the byte `newline` (None: the page has none): a count
/// over `bytes`, not a pass over the output. Newlines go through
/// [`Lines::advance_valid`] as ASCII stand-ins.
pub(crate) fn advance_single_byte(lines: &mut Lines, bytes: &[u8], newline: Option<u8>) {
    let last = newline.and_then(|nl| memchr::memrchr(nl, bytes));
    let newlines = match (last, newline) {
        (Some(last), Some(nl)) => crate::arch::count_byte(&bytes[..=last], nl),
        _ => 0,
    };
    advance_counted(lines, bytes.len(), newlines, last);
}

/// Moves `lines` past `len` characters of which `newlines` are newlines,
/// the last at index `last`.
pub(crate) fn advance_counted(lines: &mut Lines, len: usize, newlines: usize, last: Option<usize>) {
    const NEWLINES: [u8; 256] = [b'\n'; 256];
    let columns = match last {
        Some(last) => {
            let mut newlines = newlines;
            while newlines > 0 {
                let n = newlines.min(NEWLINES.len());
                lines.advance_valid(&NEWLINES[..n]);
                newlines -= n;
            }
            len - last - 1
        }
        None => len,
    };
    lines.columns += columns as u64;
}

/// Appends the valid UTF-8 of `input` to `dst`, handing each invalid
/// sequence to `bad` (its offset in `input`, its length, and the error:
/// `error_len()` is `None` for a character left unfinished by the last
/// chunk), which writes its replacement or returns the error. A character
/// left unfinished by another chunk is not taken (it waits for the next).
/// Returns the bytes of `input` taken. The UTF-8 loop of both [`Decoder`]
/// and [`crate::pivot`]'s decoder, which differ only in `bad`.
pub(crate) fn utf8_chunk<E>(
    input: &[u8],
    last: bool,
    dst: &mut String,
    mut bad: impl FnMut(usize, usize, &utf8_simd::Utf8Error, &mut String) -> Result<(), E>,
) -> Result<usize, E> {
    let mut pos = 0;
    while pos < input.len() {
        // One pass: validation and the `&str` together.
        match utf8_simd::from_utf8(&input[pos..]) {
            Ok(valid) => {
                dst.push_str(valid);
                return Ok(input.len());
            }
            Err(e) => {
                let at = pos + e.valid_up_to();
                push_valid(dst, &input[pos..at]);
                let Some(len) = bad_len(e.error_len(), at, input.len(), last) else {
                    return Ok(at);
                };
                bad(at, len, &e, dst)?;
                pos = at + len;
            }
        }
    }
    Ok(input.len())
}

/// The length of the bad sequence at `at` of a chunk of `len` bytes, from
/// the validator's `error_len` (`None`: unfinished at the chunk's end):
/// the rest of the chunk where it is unfinished in the `last` one, `None`
/// where it is unfinished in another (the next chunk may finish it).
fn bad_len(error_len: Option<usize>, at: usize, len: usize, last: bool) -> Option<usize> {
    match error_len {
        Some(n) => Some(n),
        None if last => Some(len - at),
        None => None,
    }
}

/// [`utf8_chunk`] for CESU-8, MUTF-8 or WTF-8 (validated by utf8-variants):
/// each valid stretch handed to `push` with its offset, each invalid piece
/// (as the crate's `decode_lossy` cuts them) to `bad`. The loop of both
/// [`Decoder`] and [`crate::pivot`]'s decoder, which differ in where the
/// text goes and in what an error does.
pub(crate) fn variant_chunk<D: ?Sized, E>(
    variant: Variant,
    input: &[u8],
    last: bool,
    dst: &mut D,
    mut push: impl FnMut(usize, &[u8], &mut D) -> Result<(), E>,
    mut bad: impl FnMut(usize, usize, &utf8_variants::Error, &mut D) -> Result<(), E>,
) -> Result<usize, E> {
    let mut pos = 0;
    while pos < input.len() {
        let rest = &input[pos..];
        let error = variant.validate(rest).err();
        let valid = error.map_or(rest.len(), |e| e.valid_up_to());
        // WTF-8 allows a lead surrogate at the end, but not before a trail
        // surrogate: one that ends what is valid so far waits for the next
        // chunk, unless an error follows it in this one. (CESU-8 and MUTF-8
        // report it as unfinished themselves.)
        let at_end = error.is_none_or(|e| e.error_len().is_none());
        if variant == Variant::Wtf8
            && !last
            && at_end
            && matches!(rest[..valid], [.., 0xED, 0xA0..=0xAF, 0x80..=0xBF])
        {
            push(pos, &rest[..valid - 3], dst)?;
            return Ok(pos + valid - 3);
        }
        push(pos, &rest[..valid], dst)?;
        let Some(e) = error else { break };
        let at = pos + valid;
        let Some(len) = bad_len(e.error_len(), at, input.len(), last) else {
            return Ok(at);
        };
        bad(at, len, &e, dst)?;
        pos = at + len;
    }
    Ok(input.len())
}

/// Appends `valid` (checked again: this crate has no `unsafe`; only input
/// with errors pays for it).
pub(crate) fn push_valid(dst: &mut String, valid: &[u8]) {
    if let Ok(s) = utf8_simd::from_utf8(valid) {
        dst.push_str(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// UTF-16 output (the single-byte pages' direct path) equals the
    /// UTF-8 output re-encoded, in every mode, over chunkings, with the
    /// same error (offset, bytes, line and column) and nothing after it.
    #[test]
    fn utf16_output_equals_utf8_output() {
        let mut next = crate::xorshift(0xC0FF_EE00_1234_u64);
        for e in Encoding::all() {
            for mode in [DecodeMode::Replace, DecodeMode::Skip, DecodeMode::Strict] {
                for len in [0, 1, 5, 17, 40, 100, 300, 5000] {
                    // Newlines (ASCII and EBCDIC) often, so lines change.
                    let src: Vec<u8> = (0..len)
                        .map(|_| match next() % 6 {
                            0 => b'\n',
                            1 => 0x25,
                            2 => next() as u8 & 0x7F,
                            _ => next() as u8,
                        })
                        .collect();
                    let cut = if len == 0 { 0 } else { next() as usize % len };
                    let mut d8 = Decoder::new(e, mode);
                    let mut d16 = Decoder::new(e, mode);
                    let mut text = String::new();
                    let mut units = vec![0x5EAD];
                    let mut r8 = d8.decode_into_string(&src[..cut], &mut text, false);
                    let mut r16 = d16.decode_into_utf16_vec(&src[..cut], &mut units, false);
                    if r8.is_ok() {
                        r8 = d8.decode_into_string(&src[cut..], &mut text, true);
                    }
                    if r16.is_ok() {
                        r16 = d16.decode_into_utf16_vec(&src[cut..], &mut units, true);
                    }
                    let want: Vec<u16> = [0x5EAD].into_iter().chain(text.encode_utf16()).collect();
                    assert_eq!(units, want, "{e:?} {mode:?} {src:02X?}");
                    assert_eq!(r16, r8, "{e:?} {mode:?} {src:02X?}");
                    if let Err(err) = r8 {
                        // The line and column from the text before the
                        // error, counted here independently.
                        let line = text.matches('\n').count() as u64 + 1;
                        let last_line = text.rsplit('\n').next().unwrap_or("");
                        let column = last_line.chars().count() as u64 + 1;
                        assert_eq!((err.line, err.column), (line, column), "{e:?} {src:02X?}");
                    }
                }
            }
        }
    }

    /// The same, the input fed one byte at a time (a malformed sequence
    /// begun in earlier chunks is quoted from the decoder's history).
    #[test]
    fn utf16_output_equals_utf8_output_byte_by_byte() {
        let mut next = crate::xorshift(0xB1_7E5_u64);
        for e in Encoding::all() {
            for _ in 0..20 {
                let src: Vec<u8> = (0..40).map(|_| next() as u8).collect();
                let mut d8 = Decoder::new(e, DecodeMode::Strict);
                let mut d16 = Decoder::new(e, DecodeMode::Strict);
                let mut text = String::new();
                let mut units = Vec::new();
                let (mut r8, mut r16) = (Ok(()), Ok(()));
                for (i, b) in src.iter().enumerate() {
                    let last = i + 1 == src.len();
                    if r8.is_ok() {
                        r8 = d8.decode_into_string(&[*b], &mut text, last);
                    }
                    if r16.is_ok() {
                        r16 = d16.decode_into_utf16_vec(&[*b], &mut units, last);
                    }
                }
                assert_eq!(
                    units,
                    text.encode_utf16().collect::<Vec<_>>(),
                    "{e:?} {src:02X?}"
                );
                assert_eq!(r16, r8, "{e:?} {src:02X?}");
            }
        }
    }

    /// Bounded memory: byte-by-byte input never leaves more than
    /// [`CARRY`] bytes held, in any encoding and mode.
    #[test]
    fn the_carry_stays_bounded() {
        let mut rng = crate::xorshift(0x5EED_u64);
        let mut next = || rng() as u8;
        for e in Encoding::all() {
            for mode in [DecodeMode::Replace, DecodeMode::Skip, DecodeMode::Strict] {
                let mut d = Decoder::new(e, mode);
                let mut out = String::new();
                // Bytes biased to leads and surrogates, so pieces stay open.
                for _ in 0..2000 {
                    let b = match next() % 4 {
                        0 => 0xED,
                        1 => 0xD8,
                        2 => 0xF0 | (next() & 0x0F),
                        _ => next(),
                    };
                    if d.decode_into_string(&[b], &mut out, false).is_err() {
                        break;
                    }
                    assert!(d.carry.len() <= CARRY, "{e:?} {mode:?}: {}", d.carry.len());
                    assert!(d.history.len() <= CARRY);
                }
            }
        }
    }
}
