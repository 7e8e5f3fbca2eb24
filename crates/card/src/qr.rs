//! The QR code of the share link, drawn with whole-pixel modules on a white tile.

use crate::canvas::{Canvas, Rgb};
use huarong_engine::Error;
use qrcode::{Color, EcLevel, QrCode};

/// The smallest module drawn, in pixels: 4 px, so that the card seen at half its size in a
/// chat (500 px wide) still has 2 px modules, which `zbarimg` reads (tested).
pub const MIN_MODULE: usize = 4;
/// The quiet zone around the code, in modules (inside the white tile: the dark card's
/// paper around it is no quiet zone).
pub const QUIET: usize = 4;

/// The QR code of `text` for a box of `size` pixels: error correction M or L, whichever
/// gives the larger modules (M when both give the same), and only if those are at least
/// [`MIN_MODULE`] pixels with the quiet zone inside the box. `None` when it does not fit.
pub fn plan(text: &str, size: f32) -> Option<QrCode> {
    let module = |c: &QrCode| module_px(c, size);
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

/// The module size of `code` in a box of `size` pixels, quiet zone included.
pub fn module_px(code: &QrCode, size: f32) -> usize {
    (size as usize) / (code.width() + 2 * QUIET)
}

/// Draws the QR code of `text` centred in the box (x, y, size × size) on a white tile, its
/// modules in `dark` (see [`plan`]); an error when it does not fit. The modules start on an
/// even pixel, so a card halved stays on the module grid.
pub fn draw(
    cv: &mut Canvas,
    text: &str,
    (x, y, size): (f32, f32, f32),
    dark: Rgb,
) -> Result<(), Error> {
    let code = plan(text, size)
        .ok_or_else(|| Error::range("the link is too long for the card's QR code"))?;
    let n = code.width();
    let module = module_px(&code, size) as i64;
    let total = module * (n + 2 * QUIET) as i64;
    let even = |v: f32| ((v / 2.0).round() * 2.0) as i64;
    let (ox, oy) = (
        even(x + (size - total as f32) / 2.0),
        even(y + (size - total as f32) / 2.0),
    );
    cv.round_rect(x, y, size, size, 14.0, Rgb::hex(0xffffff));
    let q = QUIET as i64;
    for (i, c) in code.to_colors().into_iter().enumerate() {
        if c == Color::Dark {
            let (mx, my) = ((i % n) as i64 + q, (i / n) as i64 + q);
            cv.fill_rect(ox + mx * module, oy + my * module, module, module, dark);
        }
    }
    Ok(())
}
