//! The QR code of the share link, drawn with whole-pixel modules on a white tile.

use crate::canvas::{Canvas, Rgb};
use huarong_engine::Error;
use qrcode::{Color, EcLevel, QrCode};

/// The smallest module drawn, in pixels: what scanners read from a phone screen or a photo.
pub const MIN_MODULE: usize = 3;
/// The quiet zone around the code, in modules.
const QUIET: usize = 4;

/// The QR code of `text` for a box of `size` pixels: error correction M or L, whichever
/// gives the larger modules (M when both give the same), and only if those are at least
/// [`MIN_MODULE`] pixels with the quiet zone inside the box. `None` when it does not fit.
pub fn plan(text: &str, size: f32) -> Option<QrCode> {
    let module = |c: &QrCode| (size as usize) / (c.width() + 2 * QUIET);
    [EcLevel::M, EcLevel::L]
        .into_iter()
        .filter_map(|ec| QrCode::with_error_correction_level(text.as_bytes(), ec).ok())
        .filter(|c| module(c) >= MIN_MODULE)
        // The first of the largest: M wins a tie.
        .fold(None, |best: Option<QrCode>, c| match best {
            Some(b) if module(&b) >= module(&c) => Some(b),
            _ => Some(c),
        })
}

/// Draws the QR code of `text` centred in the box (x, y, size × size) on a white tile (see
/// [`plan`]); an error when it does not fit.
pub fn draw(cv: &mut Canvas, text: &str, x: f32, y: f32, size: f32) -> Result<(), Error> {
    let code = plan(text, size)
        .ok_or_else(|| Error::range("the link is too long for the card's QR code"))?;
    let n = code.width();
    let module = (size as usize / (n + 2 * QUIET)) as i64;
    let total = module * (n + 2 * QUIET) as i64;
    let (ox, oy) = (
        (x + (size - total as f32) / 2.0).round() as i64,
        (y + (size - total as f32) / 2.0).round() as i64,
    );
    cv.round_rect(x, y, size, size, 14.0, Rgb::hex(0xffffff));
    let dark = Rgb::hex(0x2b1d14);
    let q = QUIET as i64;
    for (i, c) in code.to_colors().into_iter().enumerate() {
        if c == Color::Dark {
            let (mx, my) = ((i % n) as i64 + q, (i / n) as i64 + q);
            cv.fill_rect(ox + mx * module, oy + my * module, module, module, dark);
        }
    }
    Ok(())
}
