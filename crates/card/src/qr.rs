//! The QR code of the share link, drawn with whole-pixel modules on a white tile.

use crate::canvas::{Canvas, Rgb};
use huarong_engine::Error;
use qrcode::{Color, EcLevel, QrCode};

/// Draws the QR code of `text` centred in the box (x, y, size × size). Error correction M
/// (15 %) when the module size allows at least 3 px, else L; a quiet zone of 4 modules.
pub fn draw(cv: &mut Canvas, text: &str, x: f32, y: f32, size: f32) -> Result<(), Error> {
    let code = [EcLevel::M, EcLevel::L]
        .into_iter()
        .filter_map(|ec| QrCode::with_error_correction_level(text.as_bytes(), ec).ok())
        .find(|c| (size as usize) / (c.width() + 8) >= 3)
        .ok_or_else(|| Error::range("the link is too long for the card's QR code"))?;
    let n = code.width();
    let module = (size as usize / (n + 8)) as i64;
    let total = module * (n as i64 + 8);
    let (ox, oy) = (
        (x + (size - total as f32) / 2.0).round() as i64,
        (y + (size - total as f32) / 2.0).round() as i64,
    );
    cv.round_rect(x, y, size, size, 14.0, Rgb::hex(0xffffff));
    let dark = Rgb::hex(0x2b1d14);
    for (i, c) in code.to_colors().into_iter().enumerate() {
        if c == Color::Dark {
            let (mx, my) = ((i % n) as i64 + 4, (i / n) as i64 + 4);
            cv.fill_rect(ox + mx * module, oy + my * module, module, module, dark);
        }
    }
    Ok(())
}
