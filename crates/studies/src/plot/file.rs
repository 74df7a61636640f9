//! Plot files by extension: SVG as drawn, PNG rasterised from it (`resvg`), PDF
//! converted from it (`svg2pdf`). Text is set in the system's sans-serif fonts (DejaVu
//! Sans when installed); without any font the figure is written without its text.

use anyhow::{anyhow, bail, Context};
use std::path::Path;
use std::sync::Arc;

/// A plot file format.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Scalable vector graphics, as drawn.
    Svg,
    /// A raster image at twice the drawing's size.
    Png,
    /// One PDF page, vector.
    Pdf,
}

/// The format `path`'s extension names.
///
/// # Errors
/// No extension, or one other than `svg`, `png`, `pdf` (any case).
pub fn format(flag: &str, path: &Path) -> anyhow::Result<Format> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        Some("pdf") => Ok(Format::Pdf),
        _ => bail!(
            "{flag} {}: the file format is chosen by the extension, and this one is not known\nhelp: end the file name with .svg, .png or .pdf",
            path.display()
        ),
    }
}

/// Refuses, before anything is simulated, a plot file whose extension names no format.
///
/// # Errors
/// See [`format()`].
pub fn check_format(flag: &str, path: Option<&Path>) -> anyhow::Result<()> {
    path.map_or(Ok(()), |p| format(flag, p).map(|_| ()))
}

fn options() -> resvg::usvg::Options<'static> {
    let mut opt = resvg::usvg::Options::default();
    let db = Arc::make_mut(&mut opt.fontdb);
    db.load_system_fonts();
    if db
        .faces()
        .any(|f| f.families.iter().any(|(n, _)| n == "DejaVu Sans"))
    {
        db.set_sans_serif_family("DejaVu Sans");
    }
    opt
}

/// The bytes of `svg` in `format`.
///
/// # Errors
/// The SVG cannot be read back, or the PNG cannot be encoded.
pub fn render(svg: &str, format: Format) -> anyhow::Result<Vec<u8>> {
    if format == Format::Svg {
        return Ok(svg.as_bytes().to_vec());
    }
    let tree = resvg::usvg::Tree::from_str(svg, &options())
        .map_err(|e| anyhow!("cannot read the drawing back: {e}"))?;
    match format {
        Format::Png => {
            let size = tree
                .size()
                .to_int_size()
                .scale_by(2.0)
                .ok_or_else(|| anyhow!("the drawing is empty"))?;
            let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
                .ok_or_else(|| anyhow!("the drawing is too large"))?;
            pixmap.fill(resvg::tiny_skia::Color::WHITE);
            resvg::render(
                &tree,
                resvg::tiny_skia::Transform::from_scale(2.0, 2.0),
                &mut pixmap.as_mut(),
            );
            pixmap
                .encode_png()
                .map_err(|e| anyhow!("cannot encode the PNG: {e}"))
        }
        Format::Pdf => svg2pdf::to_pdf(
            &tree,
            svg2pdf::ConversionOptions::default(),
            svg2pdf::PageOptions::default(),
        )
        .map_err(|e| anyhow!("cannot convert to PDF: {e}")),
        Format::Svg => unreachable!("returned above"),
    }
}

/// Writes `svg` to `path` in the format its extension names. Only rank 0 of an MPI job
/// writes files.
///
/// # Errors
/// An unknown extension, a conversion failure, or the file cannot be written.
pub fn write(flag: &str, path: &Path, svg: &str) -> anyhow::Result<()> {
    if !crate::cluster::is_root() {
        return Ok(());
    }
    let bytes = render(svg, format(flag, path)?)?;
    crate::whole_file::write_whole(path, &bytes)
        .with_context(|| format!("cannot write {}", path.display()))
}
