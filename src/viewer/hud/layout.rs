//! HUD layout: lines of text as screen rectangles (a panel behind them, one quad per lit
//! glyph), in pixels, for the HUD pipeline.

use bytemuck::{Pod, Zeroable};

use super::font::{GLYPH_H, GLYPH_W};

/// The glyph index of a solid rectangle (a panel), not a character.
pub const SOLID: u32 = u32::MAX;

/// One screen rectangle of the HUD.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Pod, Zeroable)]
pub struct HudQuad {
    /// Left, top, width, height in pixels (y down).
    pub rect: [f32; 4],
    /// sRGB colour and alpha, 0..=255.
    pub colour: [u32; 4],
    /// The character (its code point, printable ASCII) or [`SOLID`].
    pub glyph: u32,
    /// Padding to 16 bytes.
    pub pad: [u32; 3],
}

/// Sizes and colours of the HUD on one screen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// Font pixels per glyph pixel.
    pub scale: u32,
    /// Gap round panels (pixels).
    pub margin: u32,
    /// Panel colour (sRGB + alpha).
    pub panel: [u8; 4],
    /// Plain text.
    pub text: [u8; 4],
    /// Hints.
    pub dim: [u8; 4],
    /// Messages.
    pub news: [u8; 4],
    /// Error messages.
    pub error: [u8; 4],
}

impl Style {
    /// The style for a screen `height` pixels high: glyphs doubled from 480 pixels up.
    #[must_use]
    pub fn for_screen(height: u32) -> Style {
        let scale = if height >= 480 { 2 } else { 1 };
        Style {
            scale,
            margin: 4 * scale,
            panel: [8, 8, 12, 170],
            text: [235, 232, 220, 255],
            dim: [150, 150, 140, 255],
            news: [255, 214, 120, 255],
            error: [255, 120, 100, 255],
        }
    }

    /// Width and height of one character cell (pixels).
    #[must_use]
    pub fn cell(&self) -> (u32, u32) {
        ((GLYPH_W + 1) * self.scale, (GLYPH_H + 3) * self.scale)
    }

    /// The characters of a line that fit a screen `width` pixels wide.
    fn fitting(&self, width: u32) -> usize {
        (width.saturating_sub(4 * self.margin) / self.cell().0) as usize
    }

    /// Width and height of the panel round `lines` on a screen `width` pixels wide.
    #[must_use]
    pub fn panel_size(&self, lines: &[(&str, [u8; 4])], width: u32) -> (u32, u32) {
        let (cw, ch) = self.cell();
        let chars = lines.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0).min(self.fitting(width));
        (chars as u32 * cw + 2 * self.margin, lines.len() as u32 * ch + 2 * self.margin)
    }
}

/// `lines` (text and colour) in a panel whose top-left corner is `at` on a screen `width`
/// pixels wide; lines too long for the screen are cut.
#[must_use]
pub fn layout_lines(lines: &[(&str, [u8; 4])], at: (u32, u32), width: u32, style: &Style) -> Vec<HudQuad> {
    if lines.is_empty() {
        return Vec::new();
    }
    let (pw, ph) = style.panel_size(lines, width);
    let quad = |x: u32, y: u32, w: u32, h: u32, colour: [u8; 4], glyph: u32| HudQuad {
        rect: [x as f32, y as f32, w as f32, h as f32],
        colour: colour.map(u32::from),
        glyph,
        pad: [0; 3],
    };
    let mut quads = vec![quad(at.0, at.1, pw, ph, style.panel, SOLID)];
    let (cw, ch) = style.cell();
    let (gw, gh) = (GLYPH_W * style.scale, GLYPH_H * style.scale);
    for (row, (line, colour)) in lines.iter().enumerate() {
        let y = at.1 + style.margin + row as u32 * ch + style.scale;
        for (i, c) in line.chars().take(style.fitting(width)).enumerate() {
            if c != ' ' {
                let code = if c.is_ascii_graphic() { u32::from(c) } else { u32::from('?') };
                quads.push(quad(at.0 + style.margin + i as u32 * cw, y, gw, gh, *colour, code));
            }
        }
    }
    quads
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_a_panel_and_one_quad_per_visible_character() {
        let style = Style::for_screen(720);
        let quads = layout_lines(&[("ab c", style.text)], (10, 20), 1280, &style);
        assert_eq!(quads.len(), 1 + 3, "panel + a, b, c (no quad for the space)");
        assert_eq!(quads[0].glyph, SOLID);
        assert_eq!(quads[0].rect, [10.0, 20.0, (4 * 12 + 16) as f32, (20 + 16) as f32]);
        let c = quads[3];
        assert_eq!(c.glyph, u32::from('c'));
        assert_eq!(c.rect[0], (10 + 8 + 3 * 12) as f32, "the fourth cell");
        let narrow = layout_lines(&[("a".repeat(200).as_str(), style.text)], (0, 0), 200, &style);
        assert!(narrow.iter().all(|q| q.rect[0] + q.rect[2] <= 200.0), "cut to the screen");
    }
}
