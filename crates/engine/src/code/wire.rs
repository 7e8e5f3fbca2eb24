//! The byte-level pieces of a share code: the text alphabets (version 2's base 56 without
//! look-alikes, version 1's URL-safe base64 without padding), CRC-32, and strict
//! readers/writers for bytes, LEB128 varints and bit fields. Every reader checks its bounds
//! and reports a `bad_code` error instead of panicking.

use crate::error::{Error, Result};

/// Version 2's alphabet: the digits and letters without the look-alikes `0 O o 1 I l`
/// (56 characters, in ASCII order; a character's value is its position).
pub const ALPHABET56: &[u8; 56] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz";
/// Bytes per full group of the base-56 text, and the characters of one: 56^7 ≥ 256^5.
const GROUP_BYTES: usize = 5;
const GROUP_CHARS: usize = 7;
/// Characters of a last group of 0 … 4 bytes: the fewest `c` with 56^c ≥ 256^k.
const TAIL_CHARS: [usize; GROUP_BYTES] = [0, 2, 3, 5, 6];

/// Base 56 ([`ALPHABET56`]): every group of 5 bytes, read as a big-endian number, is written
/// as 7 digits, most significant first; a last group of 1 … 4 bytes as 2, 3, 5 or 6 digits.
/// About 5.71 bits a character (base64: 6), linear time.
pub fn base56_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(GROUP_BYTES) * GROUP_CHARS);
    for group in bytes.chunks(GROUP_BYTES) {
        let mut n = group.iter().fold(0u64, |n, &b| n << 8 | b as u64);
        let chars = if group.len() == GROUP_BYTES {
            GROUP_CHARS
        } else {
            TAIL_CHARS[group.len()]
        };
        let mut digits = [0u8; GROUP_CHARS];
        for d in digits[..chars].iter_mut().rev() {
            *d = ALPHABET56[(n % 56) as usize];
            n /= 56;
        }
        out.extend(digits[..chars].iter().map(|&c| c as char));
    }
    out
}

/// The value of a base-56 character (`pos`: its position, for the message).
fn digit56(c: u8, pos: usize) -> Result<u64> {
    match ALPHABET56.iter().position(|&a| a == c) {
        Some(v) => Ok(v as u64),
        None => {
            let shown = if c.is_ascii_graphic() {
                format!("{:?}", c as char)
            } else {
                format!("byte 0x{c:02x}")
            };
            let why = match c {
                b'0' | b'O' | b'o' | b'1' | b'I' | b'l' => {
                    " (codes never use 0, O, o, 1, I or l: they look alike)"
                }
                _ => " (codes use the digits 2-9 and the letters A-Z, a-z without I, O, l, o)",
            };
            Err(Error::bad_code(format!(
                "character {shown} at position {pos} is not part of a code{why}"
            )))
        }
    }
}

/// Strict base-56 decoding: only [`ALPHABET56`], no impossible length (a last group of 1 or
/// 4 characters), and no group worth more than its bytes hold (so every byte string has
/// exactly one text form). `offset` is added to positions in messages.
pub fn base56_decode(text: &str, offset: usize) -> Result<Vec<u8>> {
    let bytes = text.as_bytes();
    let tail = bytes.len() % GROUP_CHARS;
    let Some(tail_bytes) = TAIL_CHARS.iter().position(|&c| c == tail) else {
        return Err(Error::bad_code(format!(
            "a code cannot be {} characters long (a character is missing or extra)",
            bytes.len() + offset
        )));
    };
    let mut out = Vec::with_capacity(bytes.len() / GROUP_CHARS * GROUP_BYTES + tail_bytes);
    for (gi, group) in bytes.chunks(GROUP_CHARS).enumerate() {
        let n_bytes = if group.len() == GROUP_CHARS {
            GROUP_BYTES
        } else {
            tail_bytes
        };
        let mut n = 0u64;
        for (i, &c) in group.iter().enumerate() {
            n = n * 56 + digit56(c, offset + gi * GROUP_CHARS + i)?;
        }
        if n >> (8 * n_bytes) != 0 {
            return Err(Error::bad_code(format!(
                "characters {} to {} of the code are not a possible group",
                offset + gi * GROUP_CHARS,
                offset + gi * GROUP_CHARS + group.len() - 1
            )));
        }
        out.extend((0..n_bytes).rev().map(|i| (n >> (8 * i)) as u8));
    }
    Ok(out)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// URL-safe base64 (RFC 4648 §5) without padding.
pub fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn sextet(c: u8, pos: usize) -> Result<u32> {
    let v = match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => {
            let shown = if c.is_ascii_graphic() {
                format!("{:?}", c as char)
            } else {
                format!("byte 0x{c:02x}")
            };
            return Err(Error::bad_code(format!(
                "character {shown} at position {pos} is not part of a code (codes use A-Z a-z 0-9 - _)"
            )));
        }
    };
    Ok(v as u32)
}

/// Strict decoding: only the URL-safe alphabet, no padding, no impossible length, and the
/// unused low bits of the last character must be zero (so every byte string has exactly
/// one text form). `offset` is added to positions in messages.
pub fn base64_decode(text: &str, offset: usize) -> Result<Vec<u8>> {
    let bytes = text.as_bytes();
    if bytes.len() % 4 == 1 {
        return Err(Error::bad_code(format!(
            "a code cannot be {} characters long (a character is missing or extra)",
            bytes.len() + offset
        )));
    }
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for (ci, chunk) in bytes.chunks(4).enumerate() {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= sextet(c, offset + ci * 4 + i)? << (18 - 6 * i);
        }
        let produced = chunk.len() - 1; // 4 chars → 3 bytes, 3 → 2, 2 → 1
        if chunk.len() < 4 && n & ((1 << (24 - 8 * produced)) - 1) != 0 {
            return Err(Error::bad_code(
                "the last character of the code is not a possible one",
            ));
        }
        for i in 0..produced {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Ok(out)
}

/// CRC-32 (IEEE 802.3, the one of zip and PNG): catches every error burst of up to 32 bits,
/// so any one or two mistyped characters.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

/// Appends bytes, varints and bit fields.
#[derive(Default)]
pub struct Writer {
    pub bytes: Vec<u8>,
    bit_acc: u32,
    bit_count: u32,
}

impl Writer {
    pub fn byte(&mut self, b: u8) {
        debug_assert_eq!(self.bit_count, 0);
        self.bytes.push(b);
    }
    pub fn slice(&mut self, b: &[u8]) {
        debug_assert_eq!(self.bit_count, 0);
        self.bytes.extend_from_slice(b);
    }
    /// Unsigned LEB128 (7 bits a byte, low group first).
    pub fn varint(&mut self, mut v: u64) {
        loop {
            let low = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.byte(low);
                return;
            }
            self.byte(low | 0x80);
        }
    }
    /// `n` (≤ 16) bits of `v`, most significant first.
    pub fn bits(&mut self, v: u32, n: u32) {
        debug_assert!(n <= 16 && (n == 32 || v < (1 << n)));
        self.bit_acc = (self.bit_acc << n) | v;
        self.bit_count += n;
        while self.bit_count >= 8 {
            self.bit_count -= 8;
            self.bytes.push((self.bit_acc >> self.bit_count) as u8);
            self.bit_acc &= (1 << self.bit_count) - 1;
        }
    }
    /// Pads the bit field with zero bits to a whole byte.
    pub fn align(&mut self) {
        if self.bit_count > 0 {
            let pad = 8 - self.bit_count;
            self.bits(0, pad);
        }
    }
}

/// Reads what [`Writer`] wrote; every read is bounds-checked.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    bit_acc: u32,
    bit_count: u32,
}

fn truncated(what: &str) -> Error {
    Error::bad_code(format!("the code ends too early (while reading {what})"))
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader {
            bytes,
            pos: 0,
            bit_acc: 0,
            bit_count: 0,
        }
    }
    pub fn byte(&mut self, what: &str) -> Result<u8> {
        let b = *self.bytes.get(self.pos).ok_or_else(|| truncated(what))?;
        self.pos += 1;
        Ok(b)
    }
    pub fn slice(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        if self.bytes.len() - self.pos < n {
            return Err(truncated(what));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    /// A LEB128 varint of at most `max`; overlong encodings (a final zero group) are refused
    /// so that every value has exactly one form.
    pub fn varint(&mut self, max: u64, what: &str) -> Result<u64> {
        let mut v: u64 = 0;
        for i in 0..10 {
            let b = self.byte(what)?;
            let group = (b & 0x7f) as u64;
            if i == 9 && group > 1 {
                return Err(Error::bad_code(format!("{what} is too large")));
            }
            v |= group << (7 * i);
            if b & 0x80 == 0 {
                if i > 0 && group == 0 {
                    return Err(Error::bad_code(format!(
                        "{what} is written in a non-canonical form"
                    )));
                }
                if v > max {
                    return Err(Error::bad_code(format!(
                        "{what} {v} is out of range (at most {max})"
                    )));
                }
                return Ok(v);
            }
        }
        Err(Error::bad_code(format!("{what} is too large")))
    }
    /// `n` (≤ 16) bits, most significant first.
    pub fn bits(&mut self, n: u32, what: &str) -> Result<u32> {
        while self.bit_count < n {
            let b = self.byte(what)?;
            self.bit_acc = (self.bit_acc << 8) | b as u32;
            self.bit_count += 8;
        }
        self.bit_count -= n;
        let v = self.bit_acc >> self.bit_count;
        self.bit_acc &= (1 << self.bit_count) - 1;
        Ok(v)
    }
    /// Leaves a bit field; the padding bits must be zero.
    pub fn align(&mut self) -> Result<()> {
        let rest = self.bit_acc;
        self.bit_acc = 0;
        self.bit_count = 0;
        if rest != 0 {
            return Err(Error::bad_code("the padding bits of a board are not zero"));
        }
        Ok(())
    }
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648_vectors() {
        let cases: [(&[u8], &str); 7] = [
            (b"", ""),
            (b"f", "Zg"),
            (b"fo", "Zm8"),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg"),
            (b"fooba", "Zm9vYmE"),
            (b"foobar", "Zm9vYmFy"),
        ];
        for (raw, text) in cases {
            assert_eq!(base64_encode(raw), text);
            assert_eq!(base64_decode(text, 0).unwrap(), raw);
        }
        assert_eq!(base64_encode(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn base64_is_strict() {
        assert!(base64_decode("Zm9=", 0).is_err());
        assert!(base64_decode("Zm9v+", 0).is_err());
        assert!(base64_decode("Z", 0).is_err());
        // "Zh" has non-zero unused bits (the canonical form of "f" is "Zg").
        assert!(base64_decode("Zh", 0).is_err());
        for n in 0..64u8 {
            let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37) ^ n).collect();
            assert_eq!(base64_decode(&base64_encode(&bytes), 0).unwrap(), bytes);
        }
    }

    #[test]
    fn base56_has_no_look_alikes_and_fixed_group_lengths() {
        assert_eq!(ALPHABET56.len(), 56);
        for c in b"0Oo1Il-_" {
            assert!(!ALPHABET56.contains(c), "{}", *c as char);
        }
        assert!(
            ALPHABET56.windows(2).all(|w| w[0] < w[1]),
            "sorted, no repeats"
        );
        assert!(ALPHABET56.iter().all(|c| c.is_ascii_alphanumeric()));
        // Lengths: 5 bytes → 7 characters; tails of 1 … 4 bytes → 2, 3, 5, 6.
        for (n, len) in [
            (0, 0),
            (1, 2),
            (2, 3),
            (3, 5),
            (4, 6),
            (5, 7),
            (6, 9),
            (101, 142),
        ] {
            assert_eq!(base56_encode(&vec![0xff; n]).len(), len, "{n} bytes");
            assert_eq!(base56_encode(&vec![0; n]).len(), len, "{n} bytes");
        }
        // Pinned values: the format is fixed.
        assert_eq!(base56_encode(&[0]), "22");
        assert_eq!(base56_encode(&[255]), "6Z");
        assert_eq!(base56_encode(&[0xff; 5]), "deTXHCH");
        assert_eq!(
            base56_encode(b"foobar"),
            base56_encode(b"fooba") + &base56_encode(b"r")
        );
    }

    #[test]
    fn base56_round_trips_and_is_strict() {
        for n in 0..64u8 {
            let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37) ^ n).collect();
            assert_eq!(base56_decode(&base56_encode(&bytes), 0).unwrap(), bytes);
        }
        // Impossible lengths: a last group of 1 or 4 characters.
        for len in [1, 4, 8, 11] {
            let e = base56_decode(&"2".repeat(len), 0).unwrap_err();
            assert!(e.message.contains("cannot be"), "{len}: {}", e.message);
        }
        // A group worth more than its bytes: "zz" is 56² - 1 > 255.
        assert!(base56_decode("zz", 0).is_err());
        assert!(base56_decode("zzzzzzz", 0).is_err());
        // Look-alikes and other characters, with their position.
        let e = base56_decode("2O", 3).unwrap_err();
        assert!(
            e.message.contains("position 4") && e.message.contains("look alike"),
            "{}",
            e.message
        );
        assert!(base56_decode("2-", 0).is_err());
        assert!(base56_decode("2 ", 0).is_err());
        // Every 2-character text is either the one form of a byte or refused.
        let mut ok = 0;
        for &a in ALPHABET56 {
            for &b in ALPHABET56 {
                let t = String::from_utf8(vec![a, b]).unwrap();
                if let Ok(v) = base56_decode(&t, 0) {
                    assert_eq!(base56_encode(&v), t);
                    ok += 1;
                }
            }
        }
        assert_eq!(ok, 256);
    }

    #[test]
    fn crc32_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn varints_and_bits_round_trip() {
        let values = [
            0u64,
            1,
            127,
            128,
            300,
            16_383,
            16_384,
            u32::MAX as u64,
            u64::MAX,
        ];
        let mut w = Writer::default();
        for &v in &values {
            w.varint(v);
        }
        w.bits(5, 3);
        w.bits(0x1abc, 13);
        w.bits(1, 1);
        w.align();
        let mut r = Reader::new(&w.bytes);
        for &v in &values {
            assert_eq!(r.varint(u64::MAX, "v").unwrap(), v);
        }
        assert_eq!(r.bits(3, "b").unwrap(), 5);
        assert_eq!(r.bits(13, "b").unwrap(), 0x1abc);
        assert_eq!(r.bits(1, "b").unwrap(), 1);
        r.align().unwrap();
        assert_eq!(r.remaining(), 0);
        assert!(r.byte("x").is_err());
    }

    #[test]
    fn varint_rejects_overlong_and_overflow() {
        assert!(Reader::new(&[0x80, 0x00]).varint(u64::MAX, "v").is_err());
        assert!(Reader::new(&[0xff; 11]).varint(u64::MAX, "v").is_err());
        assert!(
            Reader::new(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02])
                .varint(u64::MAX, "v")
                .is_err()
        );
        assert!(Reader::new(&[200, 1]).varint(100, "v").is_err());
        assert!(Reader::new(&[0x80]).varint(u64::MAX, "v").is_err());
    }
}
