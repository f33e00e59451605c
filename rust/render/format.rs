//! The target's pixel format: which byte of a 32-bit pixel holds red, green
//! and blue. Only 32-bit formats with one whole byte per channel and no alpha
//! channel are drawn into (what SDL gives a window surface: XRGB8888,
//! XBGR8888, RGBX8888, BGRX8888); anything else is refused, and the caller
//! draws with its own blitter instead.

use crate::sim::error::{CoreError, CoreResult};

/// Byte positions (in memory order) of red, green and blue in a pixel. The
/// fourth byte is unused by SDL; the rasterizer treats it as a colour of
/// value 0 (opaque sprites clear it, translucent ones fade it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelFormat {
    pub red: usize,
    pub green: usize,
    pub blue: usize,
}

impl PixelFormat {
    /// From SDL's description of a surface: bytes per pixel and the
    /// (red, green, blue, alpha) masks of a pixel read as a native-endian u32.
    pub fn from_masks(bytes_per_pixel: usize, masks: [u32; 4]) -> CoreResult<PixelFormat> {
        let refuse = |why: &str| {
            Err(CoreError::arg(format!(
                "pixel format not supported ({bytes_per_pixel} bytes per pixel, masks {:#x}/{:#x}/{:#x}/{:#x}): {why}",
                masks[0], masks[1], masks[2], masks[3]
            )))
        };
        if bytes_per_pixel != 4 {
            return refuse("only 32-bit pixels are drawn into");
        }
        if masks[3] != 0 {
            // Sprites are blended premultiplied; a target with straight
            // alpha (an SRCALPHA surface) would need another formula.
            return refuse("the target has an alpha channel");
        }
        let byte = |mask: u32| -> Option<usize> {
            let shift = mask.trailing_zeros();
            (shift.is_multiple_of(8) && shift < 32 && mask >> shift == 0xff).then(|| memory_byte(shift as usize / 8))
        };
        match (byte(masks[0]), byte(masks[1]), byte(masks[2])) {
            (Some(red), Some(green), Some(blue)) if red != green && green != blue && red != blue => {
                Ok(PixelFormat { red, green, blue })
            }
            _ => refuse("each colour must fill one whole byte of its own"),
        }
    }

    /// A premultiplied RGBA pixel as this format's four bytes, in memory
    /// order; the unused byte is 0.
    pub fn pack(&self, rgba: [u8; 4]) -> [u8; 4] {
        let mut out = [0u8; 4];
        out[self.red] = rgba[0];
        out[self.green] = rgba[1];
        out[self.blue] = rgba[2];
        out
    }
}

/// The memory position of the byte `index` (0 = least significant) of a
/// native-endian u32.
fn memory_byte(index: usize) -> usize {
    if cfg!(target_endian = "little") {
        index
    } else {
        3 - index
    }
}

#[cfg(all(test, target_endian = "little"))]
mod tests {
    use super::*;

    #[test]
    fn xrgb8888_the_window_format_puts_blue_first_in_memory() {
        let f = PixelFormat::from_masks(4, [0xff0000, 0xff00, 0xff, 0]).unwrap();
        assert_eq!(f, PixelFormat { red: 2, green: 1, blue: 0 });
        assert_eq!(f.pack([10, 20, 30, 40]), [30, 20, 10, 0]);
    }

    #[test]
    fn xbgr_and_rgbx_are_accepted() {
        let f = PixelFormat::from_masks(4, [0xff, 0xff00, 0xff0000, 0]).unwrap();
        assert_eq!(f.pack([10, 20, 30, 40]), [10, 20, 30, 0]);
        let f = PixelFormat::from_masks(4, [0xff00_0000, 0xff_0000, 0xff00, 0]).unwrap();
        assert_eq!(f.pack([10, 20, 30, 40]), [0, 30, 20, 10]);
    }

    #[test]
    fn other_formats_are_refused_with_the_reason() {
        let alpha = PixelFormat::from_masks(4, [0xff0000, 0xff00, 0xff, 0xff00_0000]).unwrap_err();
        assert!(alpha.to_string().contains("alpha channel"), "{alpha}");
        let depth = PixelFormat::from_masks(2, [0xf800, 0x7e0, 0x1f, 0]).unwrap_err();
        assert!(depth.to_string().contains("32-bit"), "{depth}");
        assert!(PixelFormat::from_masks(4, [0xff0000, 0xff0000, 0xff, 0]).is_err());
        assert!(PixelFormat::from_masks(4, [0x3ff0_0000, 0xffc00, 0x3ff, 0]).is_err());
        assert!(PixelFormat::from_masks(4, [0, 0xff00, 0xff, 0]).is_err());
    }
}
