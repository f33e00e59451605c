//! The sprites, handed over once as premultiplied RGBA images and kept
//! ready to draw in the target's pixel format: per sprite, its colour
//! bytes in target order and the matching "keep" factors (255 − alpha, per
//! byte; the unused byte is blended like a colour of value 0), and per row
//! the runs to draw (`RowRuns`): the opaque middle is copied, the
//! translucent edges are blended, and transparent pixels outside them (a
//! round sprite's corners) are skipped.
//!
//! Rows are stored padded with transparent pixels to a whole number of
//! blend chunks (4 pixels), and each blend run is widened to whole chunks,
//! so blending needs no byte-by-byte tail. The widening only ever covers
//! transparent pixels (which blend to exactly the target's value) or opaque
//! ones (which blend to exactly their colour, what the copy writes too), so
//! it changes nothing.
//!
//! Measured (benches/README.md): copying the opaque middle instead of
//! blending it made the 10k/20k crowd 15–40% faster; the enemies' sprites
//! are opaque but for their outlines' corners.

use super::blend::CHUNK_PIXELS;
use super::format::PixelFormat;
use crate::sim::error::{CoreError, CoreResult};

/// How to draw one sprite row, in (padded) sprite columns; each run is
/// `start..end`, empty if equal. `copy` is opaque (written as is), `left`
/// and `right` are blended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowRuns {
    pub left: (u16, u16),
    pub copy: (u16, u16),
    pub right: (u16, u16),
}

/// Opaque runs shorter than this many chunks are blended with the rest of
/// the row instead of copied (too short to pay for a third run).
const MIN_COPY_CHUNKS: usize = 2;

impl RowRuns {
    /// From a row's alpha values, `width` (whole chunks) long.
    fn of(alpha: &[u8]) -> RowRuns {
        let chunk = CHUNK_PIXELS;
        let width = alpha.len();
        let Some(first) = alpha.iter().position(|&a| a > 0) else {
            return RowRuns::default();
        };
        let last = alpha.iter().rposition(|&a| a > 0).map_or(first, |i| i + 1);
        // The longest opaque run.
        let (mut o0, mut o1, mut run) = (first, first, first);
        for (i, &a) in alpha.iter().enumerate().take(last).skip(first) {
            if a < 255 {
                run = i + 1;
            } else if i + 1 - run > o1 - o0 {
                (o0, o1) = (run, i + 1);
            }
        }
        if o1 - o0 < MIN_COPY_CHUNKS * chunk {
            let len = (last - first).next_multiple_of(chunk);
            let start = first.min(width - len);
            return RowRuns { left: span(start, start + len), ..RowRuns::default() };
        }
        // Widened into the opaque run (at most chunk − 1 pixels each way,
        // and the run is at least two chunks long, so they never meet).
        let left = if o0 > first { span(first, first + (o0 - first).next_multiple_of(chunk)) } else { (0, 0) };
        let right = if last > o1 { span(last - (last - o1).next_multiple_of(chunk), last) } else { (0, 0) };
        RowRuns { left, copy: span(o0, o1), right }
    }
}

fn span(start: usize, end: usize) -> (u16, u16) {
    (start as u16, end as u16)
}

/// A premultiplied RGBA image, rows top to bottom, 4 bytes per pixel.
#[derive(Clone, Debug)]
pub struct SpriteImage {
    pub width: usize,
    pub height: usize,
    pub rgba: Vec<u8>,
}

impl SpriteImage {
    /// Checks the size and that every pixel is premultiplied (no colour
    /// channel above its alpha); `name` says which sprite in the message.
    pub fn new(name: &str, width: usize, height: usize, rgba: Vec<u8>) -> CoreResult<SpriteImage> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(CoreError::arg(format!("{name}: size {width}×{height} is outside 1..={MAX_SIDE} px a side")));
        }
        if rgba.len() != width * height * 4 {
            return Err(CoreError::arg(format!("{name}: {} bytes for {width}×{height} RGBA pixels", rgba.len())));
        }
        if let Some(i) = rgba.chunks_exact(4).position(|p| p[0] > p[3] || p[1] > p[3] || p[2] > p[3]) {
            let p = &rgba[i * 4..i * 4 + 4];
            return Err(CoreError::arg(format!(
                "{name}: pixel ({}, {}) = {p:?} is not premultiplied (a colour above its alpha)",
                i % width,
                i / width
            )));
        }
        Ok(SpriteImage { width, height, rgba })
    }
}

/// Sprites larger than this a side are refused (positions stay far from
/// integer overflow, and the arena has none near it).
pub const MAX_SIDE: usize = 4096;

/// One sprite in a `Sheet`: where its bytes start and its size.
#[derive(Clone, Copy, Debug)]
pub struct SheetSprite {
    /// The stored width: the image's, padded to whole chunks.
    pub width: usize,
    pub height: usize,
    /// Offset of the first pixel in `Sheet::colour` / `Sheet::keep` (bytes).
    pub start: usize,
    /// Offset of the first row in `Sheet::rows`.
    pub first_row: usize,
}

/// Every sprite converted for one pixel format.
#[derive(Clone, Debug)]
pub struct Sheet {
    pub format: PixelFormat,
    pub sprites: Vec<SheetSprite>,
    /// Premultiplied colour, 4 bytes per pixel in the target's byte order.
    pub colour: Vec<u8>,
    /// What the target keeps of itself, per byte: 255 − alpha.
    pub keep: Vec<u8>,
    /// Per sprite row, what to copy and what to blend.
    pub rows: Vec<RowRuns>,
}

impl Sheet {
    pub fn new(images: &[SpriteImage], format: PixelFormat) -> Sheet {
        let pixels: usize = images.iter().map(|s| s.width * s.height).sum();
        let rows: usize = images.iter().map(|s| s.height).sum();
        let mut sheet = Sheet {
            format,
            sprites: Vec::with_capacity(images.len()),
            colour: Vec::with_capacity(pixels * 4),
            keep: Vec::with_capacity(pixels * 4),
            rows: Vec::with_capacity(rows),
        };
        for image in images {
            let width = image.width.next_multiple_of(CHUNK_PIXELS);
            sheet.sprites.push(SheetSprite {
                width,
                height: image.height,
                start: sheet.colour.len(),
                first_row: sheet.rows.len(),
            });
            let mut alpha = vec![0u8; width];
            for row in image.rgba.chunks_exact(image.width * 4) {
                for (p, a) in row.chunks_exact(4).zip(alpha.iter_mut()) {
                    sheet.colour.extend_from_slice(&format.pack([p[0], p[1], p[2], p[3]]));
                    sheet.keep.extend_from_slice(&[255 - p[3]; 4]);
                    *a = p[3];
                }
                for _ in image.width..width {
                    sheet.colour.extend_from_slice(&[0; 4]);
                    sheet.keep.extend_from_slice(&[255; 4]);
                }
                sheet.rows.push(RowRuns::of(&alpha));
            }
        }
        sheet
    }
}

#[cfg(all(test, target_endian = "little"))]
mod tests {
    use super::*;

    fn xrgb() -> PixelFormat {
        PixelFormat::from_masks(4, [0xff0000, 0xff00, 0xff, 0]).unwrap()
    }

    #[test]
    fn a_straight_alpha_pixel_is_refused_as_not_premultiplied() {
        let err = SpriteImage::new("sprites[3]", 2, 1, vec![0, 0, 0, 0, 200, 10, 10, 100]).unwrap_err();
        assert!(err.to_string().contains("sprites[3]: pixel (1, 0)"), "{err}");
        assert!(err.to_string().contains("not premultiplied"), "{err}");
    }

    #[test]
    fn sizes_must_match_the_bytes_and_be_positive() {
        assert!(SpriteImage::new("s", 0, 1, vec![]).is_err());
        assert!(SpriteImage::new("s", 2, 2, vec![0; 15]).is_err());
        assert!(SpriteImage::new("s", 2, 2, vec![0; 16]).is_ok());
    }

    #[test]
    fn rows_keep_only_the_visible_pixels_in_whole_chunks() {
        let mut rgba = vec![0u8; 4 * 3 * 2];
        rgba[4..8].copy_from_slice(&[10, 20, 30, 128]); // row 0: only the middle pixel
        let image = SpriteImage::new("s", 3, 2, rgba).unwrap();
        let sheet = Sheet::new(&[image], xrgb());
        assert_eq!(sheet.sprites[0].width, 4, "padded to a chunk");
        assert_eq!(sheet.rows, vec![RowRuns { left: (0, 4), ..RowRuns::default() }, RowRuns::default()]);
        assert_eq!(&sheet.colour[4..8], &[30, 20, 10, 0]);
        assert_eq!(&sheet.keep[4..8], &[127; 4]);
        assert_eq!(&sheet.keep[12..16], &[255; 4], "padding keeps the target");
    }

    fn runs(alpha: &[u8]) -> RowRuns {
        RowRuns::of(alpha)
    }

    #[test]
    fn an_opaque_middle_is_copied_and_the_edges_blended_in_whole_chunks() {
        //            0  1   2    3    4    5    6    7    8    9    10   11  12 13 14 15
        let alpha = [0, 40, 255, 255, 255, 255, 255, 255, 255, 255, 255, 90, 0, 0, 0, 0];
        assert_eq!(runs(&alpha), RowRuns { left: (1, 5), copy: (2, 11), right: (8, 12) });
        let solid = [255u8; 16];
        assert_eq!(runs(&solid), RowRuns { copy: (0, 16), ..RowRuns::default() });
    }

    #[test]
    fn a_short_opaque_run_is_blended_with_the_row() {
        let alpha = [0, 40, 255, 255, 255, 90, 0, 0];
        assert_eq!(
            runs(&alpha),
            RowRuns { left: (0, 8), ..RowRuns::default() },
            "widened to 8, moved left to stay inside"
        );
        assert_eq!(runs(&[0; 8]), RowRuns::default());
        assert_eq!(
            runs(&[0, 0, 0, 0, 0, 0, 9, 0]),
            RowRuns { left: (4, 8), ..RowRuns::default() },
            "moved left to stay inside"
        );
    }
}
