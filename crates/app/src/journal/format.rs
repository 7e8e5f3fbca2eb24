//! On-disk framing of the journal and of slot snapshots (pure functions: fuzzable).
//!
//! A record is `len: u32 LE | crc: u32 LE | payload` where `crc` is CRC-32 (IEEE) over the
//! four length bytes and the payload. A journal file is records back to back; the valid
//! prefix ends at the first record that is short, over the size limit or fails its check.
//! A snapshot file is [`SNAP_MAGIC`] followed by exactly one record.

/// Largest payload of one record (a move's delta is a few hundred bytes).
pub const MAX_RECORD: usize = 1 << 20;
/// First bytes of a snapshot file.
pub const SNAP_MAGIC: &[u8; 8] = b"HRSNAP1\n";
/// Bytes of framing per record.
pub const FRAME: usize = 8;

const fn crc_table() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
}

static CRC: [u32; 256] = crc_table();

/// CRC-32 (IEEE 802.3), continued from `crc` (start with 0).
pub fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    let mut c = !crc;
    for &b in bytes {
        c = CRC[((c ^ b as u32) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

/// Append one framed record to `out`. Payloads over [`MAX_RECORD`] are refused.
pub fn encode_record(out: &mut Vec<u8>, payload: &[u8]) -> Result<(), String> {
    if payload.len() > MAX_RECORD {
        return Err(format!(
            "record of {} bytes is over the limit of {MAX_RECORD}",
            payload.len()
        ));
    }
    let len = (payload.len() as u32).to_le_bytes();
    let crc = crc32(crc32(0, &len), payload);
    out.extend_from_slice(&len);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(payload);
    Ok(())
}

/// The records of a journal file: every valid one from the start, and where the valid
/// prefix ends (`valid < bytes.len()` means a torn or damaged tail was dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Records<'a> {
    pub records: Vec<&'a [u8]>,
    pub valid: usize,
}

/// Split a journal file into its valid records. Linear, never panics, allocates one pointer
/// per record.
pub fn decode_records(bytes: &[u8]) -> Records<'_> {
    let mut records = Vec::new();
    let mut at = 0usize;
    while bytes.len() - at >= FRAME {
        let len_bytes: [u8; 4] = bytes[at..at + 4].try_into().unwrap_or([0; 4]);
        let crc_bytes: [u8; 4] = bytes[at + 4..at + 8].try_into().unwrap_or([0; 4]);
        let len = u32::from_le_bytes(len_bytes) as usize;
        if len > MAX_RECORD || bytes.len() - at - FRAME < len {
            break;
        }
        let payload = &bytes[at + FRAME..at + FRAME + len];
        if crc32(crc32(0, &len_bytes), payload) != u32::from_le_bytes(crc_bytes) {
            break;
        }
        records.push(payload);
        at += FRAME + len;
    }
    Records { records, valid: at }
}

/// Why a journal's valid prefix ended before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tail {
    /// The file ends inside a record, or in zeros: the write in flight when the app or the
    /// power stopped (a torn append only ever leaves a prefix of the right bytes, or a
    /// zero-filled extension on some file systems). Losing it loses that one change.
    Torn,
    /// A whole record that fails its check, or a length no writer writes: the file was
    /// damaged after it was written, and the records after that point cannot be trusted.
    Damaged,
}

/// What the bytes after the valid prefix `valid` of `bytes` are (`None`: there are none).
pub fn tail_of(bytes: &[u8], valid: usize) -> Option<Tail> {
    let rest = bytes.get(valid..).filter(|r| !r.is_empty())?;
    if rest.iter().all(|&b| b == 0) || rest.len() < FRAME {
        return Some(Tail::Torn);
    }
    let len = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
    if len > MAX_RECORD || rest.len() - FRAME >= len || rest.len() > FRAME + MAX_RECORD {
        return Some(Tail::Damaged);
    }
    // The frame says more bytes than the file has: a torn append, or a damaged length. A torn
    // append is the last record, so a whole, checking record further on means damage.
    Some(if whole_record_after(rest) {
        Tail::Damaged
    } else {
        Tail::Torn
    })
}

/// Whether a complete record that passes its check starts anywhere in `rest` after its first
/// byte. Bounded: `rest` is at most one record long, and at most [`SCAN_BUDGET`] bytes are
/// checked (past it the answer is yes: better a needless warning than a silent loss).
fn whole_record_after(rest: &[u8]) -> bool {
    let mut budget = SCAN_BUDGET;
    for at in 1..rest.len().saturating_sub(FRAME - 1) {
        let f = &rest[at..];
        let len = u32::from_le_bytes([f[0], f[1], f[2], f[3]]) as usize;
        if len > MAX_RECORD || f.len() - FRAME < len {
            continue;
        }
        if budget < len {
            return true;
        }
        budget -= len;
        let crc = u32::from_le_bytes([f[4], f[5], f[6], f[7]]);
        if crc32(crc32(0, &f[..4]), &f[FRAME..FRAME + len]) == crc {
            return true;
        }
    }
    false
}

/// Payload bytes [`tail_of`] may check when looking for records after a torn one.
const SCAN_BUDGET: usize = 8 << 20;

/// A snapshot file's bytes.
pub fn encode_snapshot(payload: &[u8], limit: usize) -> Result<Vec<u8>, String> {
    if payload.len() + SNAP_MAGIC.len() + FRAME > limit {
        return Err(format!(
            "the saved game is {} bytes, over the file limit of {limit} bytes",
            payload.len()
        ));
    }
    let mut out = Vec::with_capacity(payload.len() + SNAP_MAGIC.len() + FRAME);
    out.extend_from_slice(SNAP_MAGIC);
    let len = (payload.len() as u32).to_le_bytes();
    let crc = crc32(crc32(0, &len), payload);
    out.extend_from_slice(&len);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(payload);
    Ok(out)
}

/// The payload of a snapshot file, if it is whole and checks.
pub fn decode_snapshot(bytes: &[u8]) -> Result<&[u8], String> {
    let body = bytes
        .strip_prefix(SNAP_MAGIC.as_slice())
        .ok_or("not a saved-game file (bad magic)")?;
    if body.len() < FRAME {
        return Err("saved-game file is cut short".into());
    }
    let len_bytes: [u8; 4] = body[..4].try_into().map_err(|_| "short")?;
    let crc_bytes: [u8; 4] = body[4..8].try_into().map_err(|_| "short")?;
    let len = u32::from_le_bytes(len_bytes) as usize;
    if body.len() - FRAME != len {
        return Err(format!(
            "saved-game file holds {} bytes, its header says {len}",
            body.len() - FRAME
        ));
    }
    let payload = &body[FRAME..];
    if crc32(crc32(0, &len_bytes), payload) != u32::from_le_bytes(crc_bytes) {
        return Err("saved-game file fails its checksum".into());
    }
    Ok(payload)
}

/// A slot key as a file-name stem: lower-case hex of its bytes (any key, no path tricks).
pub fn stem(key: &str) -> String {
    let mut s = String::with_capacity(key.len() * 2);
    for b in key.bytes() {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// The key back from a file-name stem.
pub fn unstem(stem: &str) -> Option<String> {
    if !stem.len().is_multiple_of(2) || stem.is_empty() {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..stem.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(stem.get(i..i + 2)?, 16).ok())
        .collect();
    String::from_utf8(bytes?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_matches_the_standard_check_value() {
        assert_eq!(crc32(0, b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn records_round_trip_and_every_cut_keeps_a_prefix() {
        let mut buf = Vec::new();
        let payloads: Vec<Vec<u8>> = (0..5).map(|i| vec![b'a' + i; 3 + i as usize]).collect();
        let mut ends = vec![0];
        for p in &payloads {
            encode_record(&mut buf, p).unwrap();
            ends.push(buf.len());
        }
        let all = decode_records(&buf);
        assert_eq!(all.records.len(), 5);
        assert_eq!(all.valid, buf.len());
        for cut in 0..buf.len() {
            let r = decode_records(&buf[..cut]);
            let whole = ends.iter().filter(|&&e| e <= cut).count() - 1;
            assert_eq!(r.records.len(), whole, "cut {cut}");
            assert_eq!(r.valid, ends[whole]);
        }
        // A flipped byte ends the valid prefix at its record.
        for i in 0..buf.len() {
            let mut bad = buf.clone();
            bad[i] ^= 0x10;
            let r = decode_records(&bad);
            let rec = ends.iter().filter(|&&e| e <= i).count() - 1;
            assert_eq!(r.records.len(), rec, "flip at {i}");
            assert_eq!(&r.records[..], &all.records[..rec]);
        }
    }

    #[test]
    fn snapshot_checks() {
        let s = encode_snapshot(b"{\"a\":1}", 1000).unwrap();
        assert_eq!(decode_snapshot(&s).unwrap(), b"{\"a\":1}");
        for cut in 0..s.len() {
            assert!(decode_snapshot(&s[..cut]).is_err());
        }
        let mut bad = s.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert!(decode_snapshot(&bad).is_err());
        assert!(encode_snapshot(&[0; 100], 50).is_err());
    }

    #[test]
    fn stems_round_trip() {
        for k in [
            "slide:4x4",
            "2048:daily:2026-12-01",
            "slide:3x3/picture",
            "ü",
        ] {
            assert_eq!(unstem(&stem(k)).as_deref(), Some(k));
        }
        assert_eq!(unstem("zz"), None);
        assert_eq!(unstem("abc"), None);
    }
}
