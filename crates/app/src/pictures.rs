//! The player's own picture for picture puzzles: `save_picture {data}` stores an
//! image the UI already cropped square and scaled down, `load_picture {}` gives it back as a
//! data URL (or null). It lives in `<data dir>/pictures/custom.{png,jpg,webp}`, written
//! atomically (temp file, fsync, rename, directory fsync); the other formats' files are
//! removed after a save, so there is one custom picture. It never leaves the device (the app
//! sends it nowhere).
//!
//! Checked: at most [`MAX_PICTURE_BYTES`] decoded bytes, PNG / JPEG / WebP by their magic
//! bytes, and a data URL's declared type must be the one the bytes are.

use crate::core::AppState;
use crate::error::{AppError, AppResult};
use serde_json::{json, Value};
use std::path::PathBuf;

/// Largest picture stored.
pub const MAX_PICTURE_BYTES: usize = 512 * 1024;
/// Longest `data` text accepted (base64 of the largest picture plus a data-URL header).
pub const MAX_DATA_LEN: usize = MAX_PICTURE_BYTES / 3 * 4 + 8 + 64;

/// A picture format: (name in the data URL, file extension).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Png,
    Jpeg,
    Webp,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::Png, Format::Jpeg, Format::Webp];
    pub fn mime(self) -> &'static str {
        match self {
            Format::Png => "image/png",
            Format::Jpeg => "image/jpeg",
            Format::Webp => "image/webp",
        }
    }
    pub fn ext(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Jpeg => "jpg",
            Format::Webp => "webp",
        }
    }
    /// The format the bytes are, by their magic numbers.
    pub fn sniff(b: &[u8]) -> Option<Format> {
        if b.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(Format::Png)
        } else if b.starts_with(&[0xff, 0xd8, 0xff]) {
            Some(Format::Jpeg)
        } else if b.len() >= 12 && &b[..4] == b"RIFF" && &b[8..12] == b"WEBP" {
            Some(Format::Webp)
        } else {
            None
        }
    }
}

/// Standard base64 (with padding), for data URLs and the share plugins.
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64 (with or without `=` padding) to bytes; `None` on any other character.
pub fn decode_base64(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    if s.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(s.len() / 4 * 3 + 2);
    for chunk in s.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c)? << (18 - 6 * i);
        }
        out.push((n >> 16) as u8);
        if chunk.len() > 2 {
            out.push((n >> 8) as u8);
        }
        if chunk.len() > 3 {
            out.push(n as u8);
        }
    }
    Some(out)
}

/// The image bytes and format of `data`: a `data:image/…;base64,` URL or bare base64.
pub fn parse_data(data: &str) -> AppResult<(Vec<u8>, Format)> {
    let data = data.trim();
    let (declared, b64) = match data.strip_prefix("data:") {
        Some(rest) => {
            let (head, body) = rest.split_once(',').ok_or_else(|| {
                AppError::bad_argument("`data` is a data URL without a ',' before the image")
            })?;
            let mime = head.strip_suffix(";base64").ok_or_else(|| {
                AppError::bad_argument("`data` must be a base64 data URL (`;base64,`)")
            })?;
            let f = Format::ALL
                .into_iter()
                .find(|f| f.mime() == mime)
                .ok_or_else(|| {
                    AppError::bad_argument(format!(
                        "`data` is {:?}; only image/png, image/jpeg and image/webp are stored",
                        mime.chars().take(40).collect::<String>()
                    ))
                })?;
            (Some(f), body)
        }
        None => (None, data),
    };
    if b64.len() > MAX_DATA_LEN {
        return Err(too_big());
    }
    let bytes =
        decode_base64(b64).ok_or_else(|| AppError::bad_argument("`data` is not valid base64"))?;
    if bytes.len() > MAX_PICTURE_BYTES {
        return Err(too_big());
    }
    let format = Format::sniff(&bytes).ok_or_else(|| {
        AppError::bad_argument("`data` is not a PNG, JPEG or WebP image (its first bytes say so)")
    })?;
    if declared.is_some_and(|d| d != format) {
        return Err(AppError::bad_argument(format!(
            "`data` says {} but the image is {}",
            declared.map_or("", Format::mime),
            format.mime()
        )));
    }
    Ok((bytes, format))
}

fn too_big() -> AppError {
    AppError::bad_argument(format!(
        "the picture is larger than {} KB; scale it down first",
        MAX_PICTURE_BYTES / 1024
    ))
}

impl AppState {
    fn pictures_dir(&self) -> Option<PathBuf> {
        self.store().paths.as_ref().map(|p| p.dir.join("pictures"))
    }

    /// `save_picture {data}`: store the player's picture; returns `{format, bytes}`.
    pub fn save_picture(&self, data: &str) -> AppResult<Value> {
        let (bytes, format) = parse_data(data)?;
        let dir = self.pictures_dir().ok_or_else(|| {
            AppError::storage(
                "the app has no data folder on this system; the picture cannot be kept",
            )
        })?;
        let io = self.io();
        io.create_dir_all(&dir)
            .map_err(|e| AppError::storage(format!("could not make {}: {e}", dir.display())))?;
        let path = dir.join(format!("custom.{}", format.ext()));
        crate::persist::write_atomic_io(io.as_ref(), &path, &bytes)
            .map_err(|e| AppError::storage(format!("could not save the picture: {e}")))?;
        for other in Format::ALL.into_iter().filter(|f| *f != format) {
            let _ = io.remove(&dir.join(format!("custom.{}", other.ext())));
        }
        Ok(json!({ "format": format.ext(), "bytes": bytes.len() }))
    }

    /// The stored picture file and its format.
    fn custom_picture(&self) -> Option<(PathBuf, Format)> {
        let dir = self.pictures_dir()?;
        let names = self.io().list(&dir).ok()?;
        Format::ALL
            .into_iter()
            .map(|f| (format!("custom.{}", f.ext()), f))
            .find(|(n, _)| names.contains(n))
            .map(|(n, f)| (dir.join(n), f))
    }

    pub fn has_custom_picture(&self) -> bool {
        self.custom_picture().is_some()
    }

    /// `load_picture {}`: the stored picture as a data URL, or `None`. A file that is too
    /// large or not an image (changed outside the app) is an error, not shown.
    pub fn load_picture(&self) -> AppResult<Option<String>> {
        let Some((path, format)) = self.custom_picture() else {
            return Ok(None);
        };
        // A file over the limit is refused unread (bounded memory).
        let bytes = self
            .io()
            .read(&path, MAX_PICTURE_BYTES as u64)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::InvalidData => AppError::storage(format!(
                    "the stored picture is larger than {MAX_PICTURE_BYTES} bytes ({e}); save it again"
                )),
                _ => AppError::storage(format!("could not read the picture: {e}")),
            })?;
        if Format::sniff(&bytes) != Some(format) {
            return Err(AppError::storage(
                "the stored picture is damaged (not the image its name says); save it again",
            ));
        }
        Ok(Some(format!(
            "data:{};base64,{}",
            format.mime(),
            base64(&bytes)
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for s in [
            &b""[..],
            b"f",
            b"fo",
            b"foo",
            b"foobar",
            &[0, 255, 7, 128, 1],
        ] {
            assert_eq!(decode_base64(&base64(s)).unwrap(), s);
        }
        assert_eq!(decode_base64("Zm9v YmFy"), None);
        assert_eq!(decode_base64("Z"), None);
    }

    #[test]
    fn formats_are_sniffed() {
        assert_eq!(Format::sniff(b"\x89PNG\r\n\x1a\n...."), Some(Format::Png));
        assert_eq!(Format::sniff(&[0xff, 0xd8, 0xff, 0xe0]), Some(Format::Jpeg));
        assert_eq!(Format::sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some(Format::Webp));
        assert_eq!(Format::sniff(b"GIF89a"), None);
    }
}
