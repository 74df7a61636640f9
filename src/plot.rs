//! Small SVG line charts (plotters) for `flitsim check --plot` and `flitsim reproduce`.

use anyhow::anyhow;
use plotters::prelude::*;
use std::path::Path;

/// How a series is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    /// A line through the points (models).
    Line,
    /// Markers only, joined by a thin line (measurements).
    Points,
}

/// One curve.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// `(x, y)` points; non-finite `y` are skipped.
    pub points: Vec<(f64, f64)>,
    /// Drawing style.
    pub style: Style,
    /// Index into the palette (same index, same colour).
    pub color: usize,
}

/// A chart: title, axis labels, curves.
#[derive(Clone, Debug)]
pub struct Chart {
    /// Title on top.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// The curves.
    pub series: Vec<Series>,
}

fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.05).max(1e-9);
    (lo - pad, hi + pad)
}

/// Writes `chart` as an SVG file at `path`.
///
/// # Errors
/// The file cannot be written.
pub fn write_svg(chart: &Chart, path: &Path) -> anyhow::Result<()> {
    let err = |e: &dyn std::fmt::Display| anyhow!("{}: {e}", path.display());
    let pts = || chart.series.iter().flat_map(|s| s.points.iter());
    let (x0, x1) = range(pts().map(|p| p.0));
    let (y0, y1) = range(pts().map(|p| p.1));
    let root = SVGBackend::new(path, (800, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut c = ChartBuilder::on(&root)
        .caption(&chart.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| err(&e))?;
    c.configure_mesh()
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .draw()
        .map_err(|e| err(&e))?;
    for s in &chart.series {
        let color = Palette99::pick(s.color).to_rgba();
        let points: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .collect();
        let width = if s.style == Style::Line { 2 } else { 1 };
        let drawn = c
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(width)))
            .map_err(|e| err(&e))?;
        drawn.label(s.label.as_str()).legend(move |(x, y)| {
            PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
        });
        if s.style == Style::Points {
            c.draw_series(points.iter().map(|&p| Circle::new(p, 4, color.filled())))
                .map_err(|e| err(&e))?;
        }
    }
    c.configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
