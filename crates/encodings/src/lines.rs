//! Lines and columns of the output, for errors: codec_core's
//! [`Position`] with columns added by count beside it.

use codec_core::position::Position;

/// Where the output stands: a [`Position`], and columns added by count
/// (single-byte text, one character a byte) since its last newline.
#[derive(Debug, Default)]
pub(crate) struct Lines {
    position: Position,
    /// Characters since the last newline beyond `position`'s.
    pub(crate) columns: u64,
    /// Nothing is counted: the line and column read 0 (the owner was made
    /// `without_positions`).
    skipped: bool,
}

impl Lines {
    /// Stops counting: from now on the line and column read 0.
    pub(crate) fn skip(&mut self) {
        self.skipped = true;
    }

    /// Whether lines are counted.
    pub(crate) fn counts(&self) -> bool {
        !self.skipped
    }

    pub(crate) fn advance_valid(&mut self, run: &[u8]) {
        if self.skipped {
            return;
        }
        if memchr::memchr(b'\n', run).is_some() {
            self.columns = 0;
        }
        self.position.advance_valid(run);
    }

    /// Moves past well-formed UTF-8 `text`: the last newline found with
    /// `memrchr` (vectorised), the characters after it counted, so no
    /// byte-at-a-time scan of the last line.
    pub(crate) fn advance_text(&mut self, text: &[u8]) {
        if self.skipped {
            return;
        }
        match memchr::memrchr(b'\n', text) {
            Some(last) => {
                self.advance_valid(&text[..=last]);
                self.columns = codec_core::utf8::count_chars(&text[last + 1..]) as u64;
            }
            None => self.columns += codec_core::utf8::count_chars(text) as u64,
        }
    }

    pub(crate) fn line(&self) -> u64 {
        if self.skipped {
            0
        } else {
            self.position.line()
        }
    }

    pub(crate) fn column(&self) -> u64 {
        if self.skipped {
            0
        } else {
            self.position.column() + self.columns
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{EncodeMode, Encoding};

    /// Encodes `before`, then `bad` (a character `e` does not hold) and a
    /// tail, strictly, in two calls cut at the character boundary at or
    /// below `cut` (modulo the length): the error names `bad`'s offset
    /// and the line and column after `before`, counted here.
    fn assert_error_after(e: Encoding, before: &str, bad: char, cut: usize) {
        let text = format!("{before}{bad} tail");
        let cut = (0..=cut % (text.len() + 1))
            .rev()
            .find(|&c| text.is_char_boundary(c))
            .unwrap_or(0);
        let mut enc = crate::Encoder::new(e, EncodeMode::Strict);
        let mut out = Vec::new();
        let err = enc
            .encode_into_vec(&text[..cut], &mut out, false)
            .and_then(|()| enc.encode_into_vec(&text[cut..], &mut out, true))
            .expect_err("an unmappable character");
        let line = before.matches('\n').count() as u64 + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() as u64 + 1;
        assert_eq!(
            (err.offset(), err.line(), err.column()),
            (before.len() as u64, line, column),
            "{} {text:?} cut {cut}",
            e.name()
        );
    }

    /// An encoder's error names the line and column of the unmappable
    /// character, counted here from the text before it, whatever the
    /// chunking.
    #[test]
    fn encode_errors_name_line_and_column() {
        let e = Encoding::for_label("windows-1252").expect("known");
        let mut next = crate::xorshift(0x0001_1AE5_u64);
        let pieces = ["a", "é", "\n", "b c", "œ", "\r\n", "«x»"];
        for _ in 0..300 {
            let n = next() as usize % 60;
            let before: String = (0..n)
                .map(|_| pieces[next() as usize % pieces.len()])
                .collect();
            assert_error_after(e, &before, 'Ж', next() as usize);
        }
    }

    /// As above on single-byte pages whose newline byte differs (EBCDIC's
    /// 0x25) and whose characters run from 0x80 (the strict encoder counts
    /// lines and columns on its output there): text of the page's
    /// characters and newlines, cut once, then a character no single-byte
    /// page holds.
    #[test]
    fn single_byte_encode_errors_name_line_and_column() {
        let mut next = crate::xorshift(0x5B1E_11E5_u64);
        for label in [
            "windows-1252",
            "KOI8-R",
            "IBM866",
            "ISO-8859-7",
            "IBM037",
            "IBM1047",
        ] {
            let e = Encoding::for_label(label).expect("known");
            let chars: Vec<String> = (0x20..=0xFF_u8)
                .filter_map(|b| e.decode_to_string(&[b], crate::DecodeMode::Strict).ok())
                .filter(|c| c != "\n")
                .collect();
            for _ in 0..200 {
                let n = next() as usize % 200;
                let before: String = (0..n)
                    .map(|_| match next() % 8 {
                        0 => "\n",
                        _ => chars[next() as usize % chars.len()].as_str(),
                    })
                    .collect();
                assert_error_after(e, &before, '中', next() as usize);
            }
        }
    }
}
