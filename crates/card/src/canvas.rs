//! A small RGB canvas: anti-aliased rounded rectangles, polygons and text (coverage
//! blending), crisp rectangles for the QR code, and PNG output.

use ab_glyph::{point, Font, FontRef, GlyphId, PxScale, ScaleFont};
use ab_glyph_rasterizer::Rasterizer;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub const fn hex(v: u32) -> Rgb {
        Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8)
    }
}

pub struct Canvas {
    pub w: usize,
    pub h: usize,
    pub px: Vec<u8>,
    /// Every text run drawn, in order (what the card says, for tests and tools).
    pub texts: Vec<String>,
    /// Characters drawn that the font has no glyph for (drawn as nothing): a card string
    /// the shipped subset lacks.
    pub missing: Vec<char>,
}

/// Horizontal placement of a text run relative to its x.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

impl Canvas {
    pub fn new(w: usize, h: usize, bg: Rgb) -> Canvas {
        Canvas {
            w,
            h,
            px: [bg.0, bg.1, bg.2].repeat(w * h),
            texts: Vec::new(),
            missing: Vec::new(),
        }
    }

    /// Blends `c` over pixel (x, y) with coverage `a` in 0…1.
    #[inline]
    pub fn blend(&mut self, x: i64, y: i64, c: Rgb, a: f32) {
        if x < 0 || y < 0 || x >= self.w as i64 || y >= self.h as i64 || a <= 0.0 {
            return;
        }
        let a = a.min(1.0);
        let i = (y as usize * self.w + x as usize) * 3;
        for (k, v) in [c.0, c.1, c.2].into_iter().enumerate() {
            let old = self.px[i + k] as f32;
            self.px[i + k] = (old + (v as f32 - old) * a + 0.5) as u8;
        }
    }

    /// A rectangle on whole pixels (no anti-aliasing: QR modules).
    pub fn fill_rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: Rgb) {
        for yy in y.max(0)..(y + h).min(self.h as i64) {
            for xx in x.max(0)..(x + w).min(self.w as i64) {
                let i = (yy as usize * self.w + xx as usize) * 3;
                self.px[i..i + 3].copy_from_slice(&[c.0, c.1, c.2]);
            }
        }
    }

    /// A rectangle on whole pixels blended at `alpha` (0…1).
    pub fn shade_rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: Rgb, alpha: f32) {
        for yy in y.max(0)..(y + h).min(self.h as i64) {
            for xx in x.max(0)..(x + w).min(self.w as i64) {
                self.blend(xx, yy, c, alpha);
            }
        }
    }

    /// An anti-aliased rectangle with corner radius `r` (coverage from the signed distance).
    pub fn round_rect(&mut self, x: f32, y: f32, w: f32, h: f32, r: f32, c: Rgb) {
        let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
        let (cx, cy) = (x + w / 2.0, y + h / 2.0);
        let (hx, hy) = (w / 2.0 - r, h / 2.0 - r);
        for py in (y.floor() as i64)..=((y + h).ceil() as i64) {
            let ay = (py as f32 + 0.5 - cy).abs();
            // The span of this row with coverage exactly 1 (distance inside ≥ ½ px) is filled
            // by copying; only the anti-aliased rim needs the distance.
            let inner = if ay <= hy && ay <= h / 2.0 - 0.5 {
                w / 2.0 - 0.5
            } else if ay <= h / 2.0 - 0.5 {
                let dy = ay - hy;
                hx + ((r - 0.5) * (r - 0.5) - dy * dy).max(0.0).sqrt()
            } else {
                -1.0
            } - 1e-3;
            for px in (x.floor() as i64)..=((x + w).ceil() as i64) {
                if (px as f32 + 0.5 - cx).abs() <= inner {
                    if py >= 0 && px >= 0 && (py as usize) < self.h && (px as usize) < self.w {
                        let i = (py as usize * self.w + px as usize) * 3;
                        self.px[i..i + 3].copy_from_slice(&[c.0, c.1, c.2]);
                    }
                    continue;
                }
                // Signed distance to the rounded rectangle (negative inside).
                let qx = (px as f32 + 0.5 - cx).abs() - hx;
                let qy = ay - hy;
                let d =
                    (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt() + qx.max(qy).min(0.0) - r;
                self.blend(px, py, c, (0.5 - d).clamp(0.0, 1.0));
            }
        }
    }

    /// A filled polygon (non-zero winding of the outline as given), anti-aliased.
    pub fn polygon(&mut self, pts: &[(f32, f32)], c: Rgb) {
        if pts.len() < 3 {
            return;
        }
        let min_x = pts.iter().map(|p| p.0).fold(f32::MAX, f32::min).floor();
        let min_y = pts.iter().map(|p| p.1).fold(f32::MAX, f32::min).floor();
        let max_x = pts.iter().map(|p| p.0).fold(f32::MIN, f32::max).ceil();
        let max_y = pts.iter().map(|p| p.1).fold(f32::MIN, f32::max).ceil();
        let (w, h) = ((max_x - min_x) as usize + 1, (max_y - min_y) as usize + 1);
        let mut r = Rasterizer::new(w, h);
        for i in 0..pts.len() {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            r.draw_line(
                ab_glyph_rasterizer::point(a.0 - min_x, a.1 - min_y),
                ab_glyph_rasterizer::point(b.0 - min_x, b.1 - min_y),
            );
        }
        r.for_each_pixel_2d(|x, y, a| {
            self.blend(min_x as i64 + x as i64, min_y as i64 + y as i64, c, a)
        });
    }

    /// A five-pointed star centred at (cx, cy) with outer radius `r`.
    pub fn star(&mut self, cx: f32, cy: f32, r: f32, c: Rgb) {
        let inner = r * 0.45;
        let pts: Vec<(f32, f32)> = (0..10)
            .map(|i| {
                let rad = if i % 2 == 0 { r } else { inner };
                let ang = -std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::PI / 5.0;
                (cx + rad * ang.cos(), cy + rad * ang.sin())
            })
            .collect();
        self.polygon(&pts, c);
    }

    /// Width of `text` at `size` px.
    pub fn text_width(font: &FontRef, size: f32, text: &str) -> f32 {
        let sf = font.as_scaled(PxScale::from(size));
        let mut width = 0.0;
        let mut prev: Option<GlyphId> = None;
        for ch in text.chars() {
            let id = sf.glyph_id(ch);
            if let Some(p) = prev {
                width += sf.kern(p, id);
            }
            width += sf.h_advance(id);
            prev = Some(id);
        }
        width
    }

    /// Draws `text` with its baseline at `at.1`, placed at `at.0` by `align`; returns the
    /// width drawn.
    pub fn text(
        &mut self,
        font: &FontRef,
        size: f32,
        at: (f32, f32),
        align: Align,
        c: Rgb,
        text: &str,
    ) -> f32 {
        let (x, y) = at;
        let width = Self::text_width(font, size, text);
        let mut pen = match align {
            Align::Left => x,
            Align::Center => x - width / 2.0,
            Align::Right => x - width,
        };
        let scale = PxScale::from(size);
        let sf = font.as_scaled(scale);
        let mut prev: Option<GlyphId> = None;
        self.texts.push(text.to_string());
        for ch in text.chars() {
            let id = sf.glyph_id(ch);
            if id.0 == 0 && !ch.is_whitespace() {
                self.missing.push(ch);
            }
            if let Some(p) = prev {
                pen += sf.kern(p, id);
            }
            let glyph = id.with_scale_and_position(scale, point(pen, y));
            if let Some(outline) = font.outline_glyph(glyph) {
                let b = outline.px_bounds();
                outline.draw(|gx, gy, a| {
                    self.blend(b.min.x as i64 + gx as i64, b.min.y as i64 + gy as i64, c, a)
                });
            }
            pen += sf.h_advance(id);
            prev = Some(id);
        }
        width
    }

    /// The largest size ≤ `size` at which `text` fits in `max_width`.
    pub fn fit(font: &FontRef, size: f32, max_width: f32, text: &str) -> f32 {
        let w = Self::text_width(font, size, text);
        if w <= max_width || w == 0.0 {
            size
        } else {
            (size * max_width / w).floor()
        }
    }

    pub fn png(&self) -> Result<Vec<u8>, String> {
        let mut out = Vec::with_capacity(self.w * self.h / 4);
        {
            let mut enc = png::Encoder::new(&mut out, self.w as u32, self.h as u32);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            enc.set_compression(png::Compression::Fast);
            enc.set_filter(png::Filter::Adaptive);
            let mut writer = enc.write_header().map_err(|e| format!("PNG header: {e}"))?;
            writer
                .write_image_data(&self.px)
                .map_err(|e| format!("PNG data: {e}"))?;
            writer.finish().map_err(|e| format!("PNG end: {e}"))?;
        }
        Ok(out)
    }
}
