//! `SpriteRasterizer`: the sprite rasterizer (`crate::render`) as Python
//! sees it. It takes the atlas once (premultiplied RGBA arrays) and, per
//! frame, a window surface's pixel bytes with their layout and layers of
//! frame-buffer rows, and draws them with the GIL released.

use numpy::{
    PyArray3, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::args::Int;
use super::arrays::{readonly1, readonly2, readwrite1, Spec};
use crate::render::{Layer, PixelFormat, Rasterizer, SpriteImage, Sprites, Target};
use crate::sim::CoreError;

const PIXELS: Spec = Spec { name: "pixels", dtype: "uint8", shape: &[None] };
const ROWS: Spec = Spec { name: "rows", dtype: "float32", shape: &[None, None] };
const SPRITE_INDEX: Spec = Spec { name: "sprites", dtype: "int32", shape: &[None] };

#[pyclass(module = "artificer._core")]
pub struct SpriteRasterizer {
    inner: Rasterizer,
}

#[pymethods]
impl SpriteRasterizer {
    /// `sprites`: premultiplied RGBA images, each a C-contiguous uint8
    /// array of shape (height, width, 4); their list index is the sprite
    /// index `draw` takes.
    #[new]
    #[pyo3(signature = (sprites, threads = Int::from(1)), text_signature = "(sprites, threads=1)")]
    fn new(sprites: &Bound<'_, PyAny>, threads: Int) -> PyResult<Self> {
        let mut images = Vec::new();
        for (i, sprite) in
            sprites.try_iter().map_err(|_| CoreError::arg("sprites: expected a sequence of arrays"))?.enumerate()
        {
            images.push(sprite_image(&sprite?, i)?);
        }
        let mut inner = Rasterizer::new(images);
        set_threads(&mut inner, &threads)?;
        Ok(SpriteRasterizer { inner })
    }

    #[getter]
    fn sprite_count(&self) -> usize {
        self.inner.sprite_count()
    }

    /// Threads drawing horizontal bands of the target (the output is the
    /// same for every count): 1..=4 × the machine's cores (at least 8).
    fn set_threads(&mut self, threads: Int) -> PyResult<()> {
        Ok(set_threads(&mut self.inner, &threads)?)
    }

    #[getter]
    fn threads(&self) -> usize {
        self.inner.threads()
    }

    /// Whether `draw` can draw into pixels of this layout (pygame's
    /// `get_bytesize()` and `get_masks()`): 32-bit, a byte per colour, no
    /// alpha channel. Otherwise draw with pygame.
    #[staticmethod]
    fn supports(bytes_per_pixel: Int, masks: (Int, Int, Int, Int)) -> bool {
        pixel_format(&bytes_per_pixel, &masks).is_ok()
    }

    /// Draws `layers` in order into `pixels` (the target's bytes, e.g.
    /// `numpy.frombuffer(surface.get_buffer(), numpy.uint8)`): `size` its
    /// (width, height) in pixels, `pitch` the bytes from one row to the
    /// next, `masks` its (r, g, b, a) masks. Each layer is `(rows,
    /// sprites)`: float32 rows with x, y in the first two columns (world
    /// px; the sprite is centred there, moved by `offset`, rounded down),
    /// and one sprite index for all rows or an int32 array with one per
    /// row. Later layers and later rows are drawn on top. Returns how many
    /// sprites touched the target.
    #[allow(clippy::too_many_arguments)]
    fn draw(
        &mut self,
        py: Python<'_>,
        pixels: &Bound<'_, PyAny>,
        size: (Int, Int),
        pitch: Int,
        masks: (Int, Int, Int, Int),
        offset: (f64, f64),
        layers: &Bound<'_, PyAny>,
    ) -> PyResult<usize> {
        let format = pixel_format(&Int::from(4), &masks)?;
        // Sizes as usize; Target::new checks they fit the buffer without overflow.
        let width = size.0.whole("size[0] (width)", 0, i64::MAX)? as usize;
        let height = size.1.whole("size[1] (height)", 0, i64::MAX)? as usize;
        let pitch = pitch.whole("pitch", 0, i64::MAX)? as usize;
        let mut rows = Vec::new();
        let mut indices = Vec::new();
        let items =
            layers.try_iter().map_err(|_| CoreError::arg("layers: expected a sequence of (rows, sprites) pairs"))?;
        for (i, item) in items.enumerate() {
            let (r, s) = layer_arrays(&item?, i)?;
            rows.push(r);
            indices.push(s);
        }
        let mut layer_views = Vec::with_capacity(rows.len());
        for (i, (r, s)) in rows.iter().zip(&indices).enumerate() {
            let columns = r.shape()[1];
            let rows = r.as_slice().map_err(|_| CoreError::arg(format!("layers[{i}] rows: not contiguous")))?;
            let sprites = match s {
                LayerSprites::All(s) => Sprites::All(*s),
                LayerSprites::PerRow(a) => Sprites::PerRow(
                    a.as_slice().map_err(|_| CoreError::arg(format!("layers[{i}] sprites: not contiguous")))?,
                ),
            };
            layer_views.push(Layer { rows, columns, sprites });
        }
        let mut pixels = readwrite1::<u8>(pixels, &PIXELS)?;
        let bytes = pixels.as_slice_mut().map_err(|_| CoreError::arg("pixels: not contiguous"))?;
        let mut target = Target::new(bytes, width, height, pitch, format)?;
        let coord = crate::sim::limits::MAX_COORD;
        let offset = (
            crate::sim::limits::float("offset[0]", offset.0, -coord, coord)?,
            crate::sim::limits::float("offset[1]", offset.1, -coord, coord)?,
        );
        let rasterizer = &mut self.inner;
        Ok(py.detach(move || rasterizer.draw(&mut target, offset, &layer_views))?)
    }

    fn __repr__(&self) -> String {
        format!("<SpriteRasterizer sprites={} threads={}>", self.inner.sprite_count(), self.inner.threads())
    }
}

enum LayerSprites<'py> {
    All(i64),
    PerRow(PyReadonlyArray1<'py, i32>),
}

fn layer_arrays<'py>(
    item: &Bound<'py, PyAny>,
    i: usize,
) -> Result<(PyReadonlyArray2<'py, f32>, LayerSprites<'py>), CoreError> {
    let pair = item
        .cast::<PyTuple>()
        .ok()
        .filter(|t| t.len() == 2)
        .ok_or_else(|| CoreError::arg(format!("layers[{i}]: expected a (rows, sprites) tuple")))?;
    let in_layer = |e: CoreError| CoreError::arg(format!("layers[{i}] {e}"));
    let rows_obj = pair.get_item(0).map_err(|e| CoreError::arg(e.to_string()))?;
    let rows = readonly2::<f32>(&rows_obj, &ROWS).map_err(in_layer)?;
    if rows.shape()[1] < 2 {
        return Err(CoreError::arg(format!(
            "layers[{i}] rows: need at least 2 columns (x, y), got shape {:?}",
            rows.shape()
        )));
    }
    let sprites_obj = pair.get_item(1).map_err(|e| CoreError::arg(e.to_string()))?;
    let sprites = match sprites_obj.extract::<Int>() {
        Ok(s) => LayerSprites::All(s.saturated(&format!("layers[{i}] sprite"))?),
        Err(_) => LayerSprites::PerRow(readonly1::<i32>(&sprites_obj, &SPRITE_INDEX).map_err(in_layer)?),
    };
    Ok((rows, sprites))
}

fn sprite_image(obj: &Bound<'_, PyAny>, i: usize) -> Result<SpriteImage, CoreError> {
    let name = format!("sprites[{i}]");
    let want = "a C-contiguous uint8 array of shape (height, width, 4), premultiplied RGBA";
    let arr = obj.cast::<PyUntypedArray>().map_err(|_| {
        let got = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        CoreError::arg(format!("{name}: expected {want}, got {got}"))
    })?;
    if !arr.dtype().is_equiv_to(&numpy::dtype::<u8>(obj.py())) {
        let got = arr.dtype().str().map(|s| s.to_string()).unwrap_or_default();
        return Err(CoreError::arg(format!("{name}: expected {want}, got dtype {got}")));
    }
    let shape = arr.shape().to_vec();
    if shape.len() != 3 || shape[2] != 4 {
        return Err(CoreError::arg(format!("{name}: expected {want}, got shape {shape:?}")));
    }
    if !arr.is_c_contiguous() {
        return Err(CoreError::arg(format!("{name}: expected {want}, got a non-contiguous view")));
    }
    let typed = obj.cast::<PyArray3<u8>>().map_err(|e| CoreError::arg(format!("{name}: {e}")))?;
    let view = typed.try_readonly().map_err(|e| CoreError::arg(format!("{name}: {e}")))?;
    let rgba = view.as_slice().map_err(|_| CoreError::arg(format!("{name}: not contiguous")))?.to_vec();
    SpriteImage::new(&name, shape[1], shape[0], rgba)
}

fn pixel_format(bytes_per_pixel: &Int, masks: &(Int, Int, Int, Int)) -> Result<PixelFormat, CoreError> {
    let bytes = bytes_per_pixel.whole("bytes_per_pixel", 0, 64)? as usize;
    let mask = |i: usize, m: &Int| m.whole(&format!("masks[{i}]"), 0, u32::MAX as i64).map(|m| m as u32);
    let all = [mask(0, &masks.0)?, mask(1, &masks.1)?, mask(2, &masks.2)?, mask(3, &masks.3)?];
    PixelFormat::from_masks(bytes, all)
}

fn set_threads(r: &mut Rasterizer, threads: &Int) -> Result<(), CoreError> {
    r.set_threads(threads.threads("threads")?)
}
