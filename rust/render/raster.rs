//! Drawing layers of sprites into a target's pixels: cull, clip, blend.
//!
//! A frame is drawn in two passes. The first walks the layers' rows in
//! order (the caller's draw order: later layers, and later rows within a
//! layer, on top) and keeps a `Placement` per sprite that touches the
//! target; it also checks every sprite index, so a bad argument is refused
//! before any pixel changes. The second draws the placements row by row
//! of each sprite, clipped to the target: opaque runs copied, translucent
//! ones blended (`sheet::RowRuns`).
//!
//! The second pass works band by band: the target is cut into horizontal
//! bands of `BAND_ROWS` rows, the placements are sorted (stably) into the
//! bands they touch, and each band draws its own list clipped to itself.
//! A band's pixels (160 KB at 1280 px) stay in the L2 cache while the
//! sprites over it are blended, and bands are independent, so they are
//! drawn on several threads. Every pixel sees the same blends in the same
//! order whatever the banding or the thread count, so the output is the
//! same. (Square tiles were tried and lost: see `BAND_ROWS`.)

use rayon::prelude::*;

use super::blend::{blend_run, copy_run};
use super::format::PixelFormat;
use super::sheet::{Sheet, SpriteImage};
use crate::sim::error::{CoreError, CoreResult};

/// The pixels drawn into: `height` rows of `width` 4-byte pixels, each row
/// `pitch` bytes after the previous one.
pub struct Target<'a> {
    pixels: &'a mut [u8],
    width: usize,
    height: usize,
    pitch: usize,
    format: PixelFormat,
}

impl<'a> Target<'a> {
    /// Checks that `pixels` holds every row: at least
    /// `pitch × (height − 1) + width × 4` bytes (the last row of a
    /// subsurface ends before its pitch does).
    pub fn new(
        pixels: &'a mut [u8],
        width: usize,
        height: usize,
        pitch: usize,
        format: PixelFormat,
    ) -> CoreResult<Target<'a>> {
        if width > i32::MAX as usize / 4 || height > i32::MAX as usize {
            return Err(CoreError::arg(format!("target size {width}×{height} is too large")));
        }
        if pitch < width * 4 {
            return Err(CoreError::arg(format!("pitch {pitch} is shorter than a row of {width} 4-byte pixels")));
        }
        // Checked: a caller's pitch of 2^62 must not wrap the size to a few bytes.
        let needed = match height {
            0 => Some(0),
            _ => pitch.checked_mul(height - 1).and_then(|n| n.checked_add(width * 4)),
        };
        let Some(needed) = needed else {
            return Err(CoreError::arg(format!(
                "pitch {pitch} × {height} rows overflows: no buffer holds {width}×{height} pixels with that pitch"
            )));
        };
        if pixels.len() < needed {
            return Err(CoreError::arg(format!(
                "pixels: {} bytes, but {width}×{height} pixels with pitch {pitch} need {needed}",
                pixels.len()
            )));
        }
        Ok(Target { pixels: &mut pixels[..needed], width, height, pitch, format })
    }
}

/// Which sprite each row of a layer is drawn with.
#[derive(Clone, Copy, Debug)]
pub enum Sprites<'a> {
    /// The same sprite for every row.
    All(i64),
    /// One sprite index per row.
    PerRow(&'a [i32]),
}

/// Rows of `columns` floats, x and y (the sprite's centre, world px) in
/// the first two columns.
#[derive(Clone, Copy, Debug)]
pub struct Layer<'a> {
    pub rows: &'a [f32],
    pub columns: usize,
    pub sprites: Sprites<'a>,
}

/// A sprite that touches the target: its top-left pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub x: i32,
    pub y: i32,
    pub sprite: u32,
}

/// Rows per band. Measured (benches/raster.rs, frame 300 of the crowd,
/// 10k/20k, 1280×720): one band for the whole window and bands of 16–64
/// rows draw alike on one thread (within noise, ±10%); 128×64 tiles, which
/// kept a tile in L1, were 15–30% slower, the extra clipping and the
/// sprites drawn in two or four pieces costing more than the cache saved.
/// Bands of 32 rows give two threads 23 bands to balance a crowd packed in
/// the middle of the window.
const BAND_ROWS: usize = 32;

/// The placements sorted by band: band b draws
/// `order[start[b]..start[b + 1]]` (indices into the placements, in draw
/// order). Reused from frame to frame.
#[derive(Default)]
struct Bands {
    start: Vec<u32>,
    order: Vec<u32>,
}

pub struct Rasterizer {
    images: Vec<SpriteImage>,
    sheet: Option<Sheet>,
    placements: Vec<Placement>,
    bands: Bands,
    pool: Option<rayon::ThreadPool>,
}

impl Rasterizer {
    pub fn new(images: Vec<SpriteImage>) -> Rasterizer {
        Rasterizer { images, sheet: None, placements: Vec::new(), bands: Bands::default(), pool: None }
    }

    pub fn sprite_count(&self) -> usize {
        self.images.len()
    }

    pub fn set_threads(&mut self, threads: usize) -> CoreResult<()> {
        let threads = crate::sim::limits::threads("threads", threads.min(i64::MAX as usize) as i64)?;
        self.pool = if threads == 1 {
            None
        } else {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| CoreError::arg(format!("cannot start {threads} threads: {e}")))?;
            Some(pool)
        };
        Ok(())
    }

    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.current_num_threads())
    }

    /// Draws `layers` in order, each row's sprite centred on
    /// (x + offset.0, y + offset.1) rounded down to whole pixels. Rows with
    /// a non-finite position are skipped. Returns how many sprites touched
    /// the target. Refuses (drawing nothing) a sprite index out of range or
    /// a layer whose shape is inconsistent.
    pub fn draw(&mut self, target: &mut Target<'_>, offset: (f32, f32), layers: &[Layer<'_>]) -> CoreResult<usize> {
        if !offset.0.is_finite() || !offset.1.is_finite() {
            return Err(CoreError::arg(format!("offset must be finite, got {offset:?}")));
        }
        self.place(target, offset, layers)?;
        if target.width == 0 || target.height == 0 {
            // Nothing to draw into (and a zero pitch would make no bands).
            return Ok(0);
        }
        if self.sheet.as_ref().is_none_or(|s| s.format != target.format) {
            self.sheet = Some(Sheet::new(&self.images, target.format));
        }
        let sheet = self.sheet.as_ref().expect("converted above");
        self.bands.sort(&self.placements, sheet, target.height);
        let (pitch, width) = (target.pitch, target.width);
        let (bands, placements) = (&self.bands, &self.placements);
        let draw_band = |(band, pixels): (usize, &mut [u8])| {
            let clip = Clip { width: width as i32, rows: pixels.len().div_ceil(pitch) as i32 };
            let top = (band * BAND_ROWS) as i32;
            let order = &bands.order[bands.start[band] as usize..bands.start[band + 1] as usize];
            for &i in order {
                let mut p = placements[i as usize];
                p.y -= top;
                blit(pixels, pitch, clip, sheet, p);
            }
        };
        // The last band may be the single short row of a huge pitch: saturate.
        let band_bytes = pitch.saturating_mul(BAND_ROWS);
        match &self.pool {
            Some(pool) if self.placements.len() > 1 => {
                pool.install(|| target.pixels.par_chunks_mut(band_bytes).enumerate().for_each(draw_band));
            }
            _ => target.pixels.chunks_mut(band_bytes).enumerate().for_each(draw_band),
        }
        Ok(self.placements.len())
    }

    /// Pass 1: the placements of every sprite that touches the target.
    fn place(&mut self, target: &Target<'_>, offset: (f32, f32), layers: &[Layer<'_>]) -> CoreResult<()> {
        self.placements.clear();
        let n_sprites = self.images.len();
        let (w, h) = (target.width as f32, target.height as f32);
        let empty = target.width == 0 || target.height == 0;
        for (li, layer) in layers.iter().enumerate() {
            if layer.columns < 2 || layer.rows.len() % layer.columns != 0 {
                return Err(CoreError::arg(format!(
                    "layers[{li}]: rows need at least 2 columns (x, y), got {}",
                    layer.columns
                )));
            }
            let n_rows = layer.rows.len() / layer.columns;
            let bad_sprite = |row: Option<usize>, s: i64| {
                let at = row.map_or(String::new(), |r| format!(" (row {r})"));
                CoreError::arg(format!("layers[{li}]: sprite index {s}{at} out of range 0..{n_sprites}"))
            };
            let check = |row: Option<usize>, s: i64| {
                if s < 0 || s as usize >= n_sprites {
                    Err(bad_sprite(row, s))
                } else {
                    Ok(s as usize)
                }
            };
            let fixed = match layer.sprites {
                Sprites::All(s) => Some(check(None, s)?),
                Sprites::PerRow(index) if index.len() != n_rows => {
                    return Err(CoreError::arg(format!(
                        "layers[{li}]: {} sprite indices for {n_rows} rows",
                        index.len()
                    )));
                }
                Sprites::PerRow(_) => None,
            };
            for (r, row) in layer.rows.chunks_exact(layer.columns).enumerate() {
                let sprite = match (fixed, layer.sprites) {
                    (Some(s), _) => s,
                    (None, Sprites::PerRow(index)) => check(Some(r), index[r] as i64)?,
                    (None, Sprites::All(_)) => unreachable!("All always has a fixed sprite"),
                };
                let image = &self.images[sprite];
                let (sw, sh) = (image.width as f32, image.height as f32);
                // The same f32 operations as the fblits path in render.py,
                // so both put a sprite on the same pixel.
                let left = (row[0] + offset.0) - sw / 2.0;
                let top = (row[1] + offset.1) - sh / 2.0;
                // floor(left) touches 0..w iff 1 − sw ≤ left < w; NaN fails
                // every comparison, so it is culled here too.
                let seen = !empty && left < w && left >= 1.0 - sw && top < h && top >= 1.0 - sh;
                if seen {
                    self.placements.push(Placement { x: floor(left), y: floor(top), sprite: sprite as u32 });
                }
            }
        }
        Ok(())
    }
}

/// `x.floor() as i32` for x within ±2³¹, without a call to libm's `floorf`
/// (the x86-64 baseline has no rounding instruction; it was 3% of a frame).
#[inline]
fn floor(x: f32) -> i32 {
    let t = x as i32;
    t - ((t as f32) > x) as i32
}

impl Bands {
    /// Counting sort of the placements into the bands they touch (a sprite
    /// over a band border goes into each), keeping draw order within a band.
    fn sort(&mut self, placements: &[Placement], sheet: &Sheet, height: usize) {
        let n_bands = height.div_ceil(BAND_ROWS);
        self.start.clear();
        self.start.resize(n_bands + 1, 0);
        let last = n_bands as i32 - 1;
        let span = |p: &Placement| {
            let h = sheet.sprites[p.sprite as usize].height as i32;
            let first = (p.y.max(0) / BAND_ROWS as i32).min(last);
            let end = ((p.y + h - 1) / BAND_ROWS as i32).min(last);
            first as usize..=end as usize
        };
        for p in placements {
            for band in span(p) {
                self.start[band + 1] += 1;
            }
        }
        for b in 0..n_bands {
            self.start[b + 1] += self.start[b];
        }
        self.order.clear();
        self.order.resize(self.start[n_bands] as usize, 0);
        // `start[b]` doubles as band b's write cursor, then is restored.
        for (i, p) in placements.iter().enumerate() {
            for band in span(p) {
                let cursor = &mut self.start[band];
                self.order[*cursor as usize] = i as u32;
                *cursor += 1;
            }
        }
        for b in (1..=n_bands).rev() {
            self.start[b] = self.start[b - 1];
        }
        self.start[0] = 0;
    }
}

/// What a band may draw into: columns `0..width`, rows `0..rows`.
#[derive(Clone, Copy)]
struct Clip {
    width: i32,
    rows: i32,
}

/// Draws one sprite at `p` (relative to the band) into the band's pixels,
/// clipped to `clip`: per row, the opaque run copied, the edges blended.
#[inline]
fn blit(pixels: &mut [u8], pitch: usize, clip: Clip, sheet: &Sheet, p: Placement) {
    let s = sheet.sprites[p.sprite as usize];
    let (sw, sh) = (s.width as i32, s.height as i32);
    let x0 = p.x.max(0);
    let x1 = (p.x + sw).min(clip.width);
    let y0 = p.y.max(0);
    let y1 = (p.y + sh).min(clip.rows);
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    // The sprite columns inside the clip.
    let (cx0, cx1) = (x0 - p.x, x1 - p.x);
    for ty in y0..y1 {
        let sy = (ty - p.y) as usize;
        let runs = sheet.rows[s.first_row + sy];
        let row_src = s.start + sy * s.width * 4;
        let row_dst = ty as usize * pitch;
        // Clipped to the target, in bytes from the row's start: (sprite, target).
        let clipped = |(from, to): (u16, u16)| {
            let (from, to) = ((from as i32).max(cx0), (to as i32).min(cx1));
            (from < to)
                .then(|| (row_src + from as usize * 4, row_dst + (p.x + from) as usize * 4, (to - from) as usize * 4))
        };
        if let Some((src, dst, len)) = clipped(runs.copy) {
            copy_run(&mut pixels[dst..dst + len], &sheet.colour[src..src + len]);
        }
        for run in [runs.left, runs.right] {
            if let Some((src, dst, len)) = clipped(run) {
                blend_run(&mut pixels[dst..dst + len], &sheet.colour[src..src + len], &sheet.keep[src..src + len]);
            }
        }
    }
}

#[cfg(all(test, target_endian = "little"))]
mod tests {
    use super::*;

    const W: usize = 8;
    const H: usize = 6;

    fn xrgb() -> PixelFormat {
        PixelFormat::from_masks(4, [0xff0000, 0xff00, 0xff, 0]).unwrap()
    }

    /// A solid square sprite of premultiplied `rgba`.
    fn square(side: usize, rgba: [u8; 4]) -> SpriteImage {
        SpriteImage::new("test", side, side, rgba.repeat(side * side)).unwrap()
    }

    /// A target of W×H pixels filled with one XRGB colour, pitch padded.
    fn canvas(rgb: [u8; 3]) -> (Vec<u8>, usize) {
        let pitch = W * 4 + 8;
        let mut px = vec![0u8; pitch * H];
        for row in px.chunks_exact_mut(pitch) {
            for p in row[..W * 4].chunks_exact_mut(4) {
                p.copy_from_slice(&[rgb[2], rgb[1], rgb[0], 0]);
            }
        }
        (px, pitch)
    }

    fn rgb_at(px: &[u8], pitch: usize, x: usize, y: usize) -> [u8; 3] {
        let i = y * pitch + x * 4;
        [px[i + 2], px[i + 1], px[i]]
    }

    fn draw(r: &mut Rasterizer, px: &mut [u8], pitch: usize, rows: &[f32], sprites: Sprites<'_>) -> usize {
        let mut target = Target::new(px, W, H, pitch, xrgb()).unwrap();
        r.draw(&mut target, (0.0, 0.0), &[Layer { rows, columns: 2, sprites }]).unwrap()
    }

    #[test]
    fn an_opaque_sprite_replaces_the_pixels_under_it_and_nothing_else() {
        let mut r = Rasterizer::new(vec![square(2, [200, 100, 50, 255])]);
        let (mut px, pitch) = canvas([1, 2, 3]);
        let before = px.clone();
        // Centre (3, 3): a 2×2 sprite covers pixels 2..4 × 2..4.
        assert_eq!(draw(&mut r, &mut px, pitch, &[3.0, 3.0], Sprites::All(0)), 1);
        for y in 0..H {
            for x in 0..W {
                let want = if (2..4).contains(&x) && (2..4).contains(&y) { [200, 100, 50] } else { [1, 2, 3] };
                assert_eq!(rgb_at(&px, pitch, x, y), want, "({x}, {y})");
            }
        }
        // The padding past each row is untouched; the unused byte (0 here)
        // blends as a colour of value 0, so it stays 0.
        for y in 0..H {
            assert_eq!(&px[y * pitch + W * 4..(y + 1) * pitch], &before[y * pitch + W * 4..(y + 1) * pitch]);
        }
        assert!(px.chunks_exact(4).all(|p| p[3] == 0));
    }

    #[test]
    fn a_fully_transparent_pixel_leaves_the_target_unchanged() {
        let mut rgba = [0u8; 16];
        rgba[0..4].copy_from_slice(&[255, 255, 255, 255]); // only the top-left pixel shows
        let mut r = Rasterizer::new(vec![SpriteImage::new("t", 2, 2, rgba.to_vec()).unwrap()]);
        let (mut px, pitch) = canvas([9, 8, 7]);
        draw(&mut r, &mut px, pitch, &[1.0, 1.0], Sprites::All(0));
        assert_eq!(rgb_at(&px, pitch, 0, 0), [255, 255, 255]);
        for (x, y) in [(1, 0), (0, 1), (1, 1)] {
            assert_eq!(rgb_at(&px, pitch, x, y), [9, 8, 7], "({x}, {y})");
        }
    }

    #[test]
    fn half_alpha_blends_with_the_target() {
        // Red at alpha 128, premultiplied: (128, 0, 0, 128), over (0, 0, 200).
        let mut r = Rasterizer::new(vec![square(1, [128, 0, 0, 128])]);
        let (mut px, pitch) = canvas([0, 0, 200]);
        draw(&mut r, &mut px, pitch, &[4.5, 2.5], Sprites::All(0));
        assert_eq!(rgb_at(&px, pitch, 4, 2), [128, 0, 100]); // 200·127/255 = 99.6 → 100
    }

    #[test]
    fn a_sprite_half_off_each_edge_is_clipped() {
        let mut r = Rasterizer::new(vec![square(4, [10, 20, 30, 255])]);
        for (cx, cy, xs, ys) in [
            (0.0, 3.0, 0..2, 1..5),          // left: columns -2..2
            (W as f32, 3.0, W - 2..W, 1..5), // right
            (4.0, 0.0, 2..6, 0..2),          // top
            (4.0, H as f32, 2..6, H - 2..H), // bottom
            (0.0, 0.0, 0..2, 0..2),          // a corner
        ] {
            let (mut px, pitch) = canvas([0, 0, 0]);
            assert_eq!(draw(&mut r, &mut px, pitch, &[cx, cy], Sprites::All(0)), 1);
            for y in 0..H {
                for x in 0..W {
                    let inside = xs.contains(&x) && ys.contains(&y);
                    assert_eq!(
                        rgb_at(&px, pitch, x, y),
                        if inside { [10, 20, 30] } else { [0, 0, 0] },
                        "centre ({cx}, {cy}) pixel ({x}, {y})"
                    );
                }
            }
        }
    }

    #[test]
    fn sprites_wholly_off_screen_or_not_finite_are_culled() {
        let mut r = Rasterizer::new(vec![square(4, [10, 20, 30, 255])]);
        let (mut px, pitch) = canvas([0, 0, 0]);
        let before = px.clone();
        let rows = [
            -2.0,
            3.0,
            W as f32 + 2.0,
            3.0,
            4.0,
            -2.0,
            4.0,
            H as f32 + 2.0,
            f32::NAN,
            3.0,
            3.0,
            f32::INFINITY,
            -1e30,
            1e30,
        ];
        assert_eq!(draw(&mut r, &mut px, pitch, &rows, Sprites::All(0)), 0);
        assert_eq!(px, before);
    }

    #[test]
    fn later_rows_and_later_layers_are_drawn_on_top() {
        let mut r = Rasterizer::new(vec![
            square(2, [255, 0, 0, 255]),
            square(2, [0, 255, 0, 255]),
            square(2, [0, 0, 255, 255]),
        ]);
        let (mut px, pitch) = canvas([0, 0, 0]);
        let mut target = Target::new(&mut px, W, H, pitch, xrgb()).unwrap();
        let under = [2.0f32, 2.0, 3.0, 2.0];
        let over = [4.0f32, 2.0];
        let layers = [
            Layer { rows: &under, columns: 2, sprites: Sprites::PerRow(&[0, 1]) },
            Layer { rows: &over, columns: 2, sprites: Sprites::All(2) },
        ];
        assert_eq!(r.draw(&mut target, (0.0, 0.0), &layers).unwrap(), 3);
        // Row 0 (red) covers x 1..3, row 1 (green) x 2..4, layer 2 (blue) x 3..5.
        assert_eq!(rgb_at(&px, pitch, 1, 1), [255, 0, 0]);
        assert_eq!(rgb_at(&px, pitch, 2, 1), [0, 255, 0]);
        assert_eq!(rgb_at(&px, pitch, 3, 1), [0, 0, 255]);
        assert_eq!(rgb_at(&px, pitch, 4, 1), [0, 0, 255]);
    }

    #[test]
    fn positions_round_down_and_the_offset_moves_everything() {
        let mut r = Rasterizer::new(vec![square(1, [50, 50, 50, 255])]);
        let (mut px, pitch) = canvas([0, 0, 0]);
        let mut target = Target::new(&mut px, W, H, pitch, xrgb()).unwrap();
        // Centre -0.2 + 1 offset − 0.5 half → 0.3 → pixel 0; 2.9 + 1 − 0.5 = 3.4 → 3.
        r.draw(&mut target, (1.0, 1.0), &[Layer { rows: &[-0.2, 2.9], columns: 2, sprites: Sprites::All(0) }]).unwrap();
        assert_eq!(rgb_at(&px, pitch, 0, 3), [50, 50, 50]);
        let lit = px.chunks_exact(4).filter(|p| p[0] == 50).count();
        assert_eq!(lit, 1);
    }

    #[test]
    fn floor_rounds_down_on_both_sides_of_zero() {
        for x in [-2.5f32, -2.0, -1.0, -0.7, -0.0, 0.0, 0.3, 1.0, 1.999, 1279.5, -1e-7] {
            assert_eq!(floor(x), x.floor() as i32, "{x}");
        }
    }

    #[test]
    fn a_bad_sprite_index_is_refused_before_any_pixel_changes() {
        let mut r = Rasterizer::new(vec![square(2, [255, 0, 0, 255])]);
        let (mut px, pitch) = canvas([0, 0, 0]);
        let before = px.clone();
        let rows = [2.0f32, 2.0, 4.0, 4.0];
        let mut refused = |sprites: Sprites<'_>| {
            let mut target = Target::new(&mut px, W, H, pitch, xrgb()).unwrap();
            r.draw(&mut target, (0.0, 0.0), &[Layer { rows: &rows, columns: 2, sprites }]).unwrap_err().to_string()
        };
        let err = refused(Sprites::PerRow(&[0, 1]));
        assert!(err.contains("layers[0]: sprite index 1 (row 1) out of range 0..1"), "{err}");
        let err = refused(Sprites::All(-1));
        assert!(err.contains("sprite index -1"), "{err}");
        let err = refused(Sprites::PerRow(&[0]));
        assert!(err.contains("1 sprite indices for 2 rows"), "{err}");
        assert_eq!(px, before);
    }

    #[test]
    fn a_buffer_shorter_than_its_rows_is_refused() {
        let mut px = vec![0u8; 4 * W * H - 1];
        let err = Target::new(&mut px, W, H, W * 4, xrgb()).err().unwrap();
        assert!(err.to_string().contains("need 192"), "{err}");
        assert!(Target::new(&mut px, W, H, W * 4 - 4, xrgb()).is_err());
        // A subsurface's last row may end before its pitch does.
        let mut px = vec![0u8; 100 * (H - 1) + W * 4];
        assert!(Target::new(&mut px, W, H, 100, xrgb()).is_ok());
    }

    /// Sprite by sprite, pixel by pixel, no tiles: what `draw` must match.
    fn reference(px: &mut [u8], w: usize, h: usize, images: &[SpriteImage], rows: &[f32], index: &[i32]) {
        for (row, &s) in rows.chunks_exact(2).zip(index) {
            let img = &images[s as usize];
            let left = (row[0] - img.width as f32 / 2.0).floor() as i64;
            let top = (row[1] - img.height as f32 / 2.0).floor() as i64;
            for sy in 0..img.height as i64 {
                for sx in 0..img.width as i64 {
                    let (x, y) = (left + sx, top + sy);
                    if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
                        continue;
                    }
                    let src = &img.rgba[(sy as usize * img.width + sx as usize) * 4..][..4];
                    let dst = &mut px[(y as usize * w + x as usize) * 4..][..4];
                    // XRGB in memory: b, g, r, x; x blends as a colour of value 0.
                    for (d, c) in [(0, Some(2)), (1, Some(1)), (2, Some(0)), (3, None)] {
                        dst[d] = c.map_or(0, |c| src[c]) + crate::render::blend::mul_div_255(dst[d], 255 - src[3]);
                    }
                }
            }
        }
    }

    #[test]
    fn bands_and_threads_draw_exactly_what_sprite_by_sprite_drawing_does() {
        use crate::sim::rng::{Rng, Stream};
        let (w, h) = (300usize, 200usize); // not a whole number of bands
        let images = vec![
            square(5, [40, 80, 120, 160]),
            square(9, [200, 10, 10, 255]),
            square(3, [0, 0, 0, 0]),
            SpriteImage::new(
                "ramp",
                40,
                3,
                (0..120)
                    .flat_map(|i| {
                        let a = (i * 2) as u8;
                        [a / 2, a / 3, a, a]
                    })
                    .collect(),
            )
            .unwrap(),
            // Translucent edges round an opaque middle: copied and blended runs.
            SpriteImage::new(
                "lozenge",
                27,
                2,
                (0..54)
                    .flat_map(|i| {
                        let a = if (3..24).contains(&(i % 27)) { 255 } else { 100 };
                        [a / 2, 9, a, a]
                    })
                    .collect(),
            )
            .unwrap(),
        ];
        let mut rng = Rng::new(7, Stream::Spawns);
        let rows: Vec<f32> = (0..6000)
            .map(|i| if i % 2 == 0 { rng.range(-30.0, w as f32 + 30.0) } else { rng.range(-30.0, h as f32 + 30.0) })
            .collect();
        let index: Vec<i32> = (0..3000).map(|i| i % 5).collect();
        let mut want = vec![17u8; w * 4 * h];
        reference(&mut want, w, h, &images, &rows, &index);
        for threads in [1, 2, 3] {
            let mut r = Rasterizer::new(images.clone());
            r.set_threads(threads).unwrap();
            let mut px = vec![17u8; w * 4 * h];
            let mut target = Target::new(&mut px, w, h, w * 4, xrgb()).unwrap();
            r.draw(&mut target, (0.0, 0.0), &[Layer { rows: &rows, columns: 2, sprites: Sprites::PerRow(&index) }])
                .unwrap();
            assert!(px == want, "{threads} thread(s)");
        }
    }
}
