//! A picture puzzle's image on the card (issues 16, 26): the solved board is drawn as the
//! whole picture. The image comes as PNG bytes (the app renders the built-in SVG or the
//! player's photo to a small PNG; the CLI reads a file); it is decoded here with bounded size
//! and memory, and composited over the tiles' cream where it is transparent.

use crate::canvas::{Canvas, Rgb};
use crate::style::Theme;
use crate::thumb::{Frame, Thumb};
use huarong_engine::Error;

/// Largest PNG accepted, in bytes.
pub const MAX_PICTURE_PNG: usize = 256 * 1024;
/// Largest side of the image, in pixels.
pub const MAX_PICTURE_SIDE: u32 = 1024;

/// A decoded picture: `w × h` RGB pixels, row-major.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    pub w: usize,
    pub h: usize,
    pub rgb: Vec<u8>,
}

/// What transparent parts of the picture show (the tiles' cream).
const UNDER: Rgb = Rgb(0xf7, 0xe9, 0xd0);

impl Picture {
    /// Decodes PNG bytes; anything else, too large or damaged is a `parse` error.
    pub fn decode(bytes: &[u8]) -> Result<Picture, Error> {
        if bytes.len() > MAX_PICTURE_PNG {
            return Err(Error::parse(format!(
                "the card's picture is {} bytes; at most {MAX_PICTURE_PNG}",
                bytes.len()
            )));
        }
        let bad = |e: png::DecodingError| Error::parse(format!("the card's picture: {e}"));
        let limits = png::Limits {
            bytes: (MAX_PICTURE_SIDE * MAX_PICTURE_SIDE * 8) as usize,
        };
        let mut dec = png::Decoder::new_with_limits(std::io::Cursor::new(bytes), limits);
        dec.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = dec.read_info().map_err(bad)?;
        let (w, h) = reader.info().size();
        if w == 0 || h == 0 || w > MAX_PICTURE_SIDE || h > MAX_PICTURE_SIDE {
            return Err(Error::parse(format!(
                "the card's picture is {w}×{h}; at most {MAX_PICTURE_SIDE}×{MAX_PICTURE_SIDE}"
            )));
        }
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| Error::parse("the card's picture is too large"))?;
        let mut buf = vec![0; size];
        let info = reader.next_frame(&mut buf).map_err(bad)?;
        buf.truncate(info.buffer_size());
        let channels = match info.color_type {
            png::ColorType::Grayscale => 1,
            png::ColorType::GrayscaleAlpha => 2,
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            png::ColorType::Indexed => {
                return Err(Error::parse("the card's picture has an unexpanded palette"))
            }
        };
        let (w, h) = (info.width as usize, info.height as usize);
        if buf.len() < w * h * channels {
            return Err(Error::parse("the card's picture is cut short"));
        }
        let over = |v: u8, under: u8, a: u8| -> u8 {
            ((v as u32 * a as u32 + under as u32 * (255 - a as u32) + 127) / 255) as u8
        };
        let mut rgb = Vec::with_capacity(w * h * 3);
        for px in buf.chunks_exact(channels).take(w * h) {
            let (r, g, b, a) = match px.len() {
                1 => (px[0], px[0], px[0], 255),
                2 => (px[0], px[0], px[0], px[1]),
                3 => (px[0], px[1], px[2], 255),
                _ => (px[0], px[1], px[2], px[3]),
            };
            rgb.extend([
                over(r, UNDER.0, a),
                over(g, UNDER.1, a),
                over(b, UNDER.2, a),
            ]);
        }
        Ok(Picture { w, h, rgb })
    }

    /// The mean colour of the source rectangle `[x0, x1) × [y0, y1)` (fractional pixels,
    /// whole pixels touched are averaged: a box filter for scaling down).
    fn mean(&self, x0: f32, y0: f32, x1: f32, y1: f32) -> Rgb {
        let clamp = |v: f32, max: usize| (v.max(0.0) as usize).min(max - 1);
        let (ax, bx) = (clamp(x0, self.w), clamp((x1 - 1e-3).max(x0), self.w));
        let (ay, by) = (clamp(y0, self.h), clamp((y1 - 1e-3).max(y0), self.h));
        let mut sum = [0u32; 3];
        let mut n = 0u32;
        for y in ay..=by {
            for x in ax..=bx {
                let i = (y * self.w + x) * 3;
                for (k, s) in sum.iter_mut().enumerate() {
                    *s += self.rgb[i + k] as u32;
                }
                n += 1;
            }
        }
        let n = n.max(1);
        Rgb(
            ((sum[0] + n / 2) / n) as u8,
            ((sum[1] + n / 2) / n) as u8,
            ((sum[2] + n / 2) / n) as u8,
        )
    }

    /// Paints a picture puzzle: the whole picture over the board's grid, in the wooden
    /// frame (every tile home, the blank's corner filled in: the picture complete), with
    /// faint lines where the tiles meet.
    pub fn draw(&self, t: &Thumb, cv: &mut Canvas, f: &Frame, theme: Theme) {
        let frame = crate::games::slide::wood(theme)[0];
        cv.round_rect(f.x, f.y, f.w, f.h, f.pad * 1.2, frame);
        let (x0, y0) = ((f.x + f.pad).round() as i64, (f.y + f.pad).round() as i64);
        let (w, h) = (
            (t.cols as f32 * f.cell).round() as i64,
            (t.rows as f32 * f.cell).round() as i64,
        );
        let (kx, ky) = (self.w as f32 / w as f32, self.h as f32 / h as f32);
        // Scaled down: each pixel the mean of the source pixels it covers; scaled up (the
        // app sends 240 px): bilinear, so edges stay smooth.
        let enlarge = kx < 1.0 && ky < 1.0;
        for dy in 0..h {
            for dx in 0..w {
                let c = if enlarge {
                    self.bilinear((dx as f32 + 0.5) * kx - 0.5, (dy as f32 + 0.5) * ky - 0.5)
                } else {
                    self.mean(
                        dx as f32 * kx,
                        dy as f32 * ky,
                        (dx + 1) as f32 * kx,
                        (dy + 1) as f32 * ky,
                    )
                };
                cv.blend(x0 + dx, y0 + dy, c, 1.0);
            }
        }
        let white = Rgb::hex(0xffffff);
        for c in 1..t.cols {
            let x = x0 + (c as f32 * f.cell).round() as i64;
            cv.shade_rect(x - 1, y0, 2, h, white, 0.28);
        }
        for r in 1..t.rows {
            let y = y0 + (r as f32 * f.cell).round() as i64;
            cv.shade_rect(x0, y - 1, w, 2, white, 0.28);
        }
    }

    /// The colour at the fractional source position (x, y), interpolated between the four
    /// nearest pixels (clamped at the edges).
    fn bilinear(&self, x: f32, y: f32) -> Rgb {
        let (x, y) = (
            x.clamp(0.0, (self.w - 1) as f32),
            y.clamp(0.0, (self.h - 1) as f32),
        );
        let (x0, y0) = (x.floor() as usize, y.floor() as usize);
        let (x1, y1) = ((x0 + 1).min(self.w - 1), (y0 + 1).min(self.h - 1));
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let px = |x: usize, y: usize, k: usize| self.rgb[(y * self.w + x) * 3 + k] as f32;
        let ch = |k: usize| {
            let top = px(x0, y0, k) * (1.0 - fx) + px(x1, y0, k) * fx;
            let bottom = px(x0, y1, k) * (1.0 - fx) + px(x1, y1, k) * fx;
            (top * (1.0 - fy) + bottom * fy).round() as u8
        };
        Rgb(ch(0), ch(1), ch(2))
    }
}
