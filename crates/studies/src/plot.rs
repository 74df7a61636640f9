//! Small SVG line charts (plotters) for `flitsim check --plot` and `flitsim reproduce`.
//!
//! Each curve group gets a hue, and the style of a series both a shade of it and a shape:
//! a model is a dark solid line, a simulation filled circles on a thin line in the full
//! hue with its 95% confidence bar where the measurement has one, a saturated simulation
//! point a cross in that hue, a value printed in a paper a
//! dashed line with triangles in a light shade. Model, simulation and paper values of one
//! group therefore never share a colour, and the groups stay told apart by hue. The legend sits in a panel
//! right of the plot, never over the data. When a few values lie far above the rest (a
//! model near its singularity) the y axis is clipped and those values are drawn as
//! arrows on the top edge with their value written beside them.

pub mod buffers;
pub mod sweep;

use anyhow::anyhow;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

pub mod file;

/// What a series is, and so how it is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    /// A model: a solid line, no markers.
    Line,
    /// A measurement: filled circles joined by a thin line.
    Points,
    /// Measurements past saturation (no steady state): crosses, not joined.
    Saturated,
    /// Values printed in a paper: triangles on a dashed line.
    Paper,
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
    /// The curve group: its hue (the style picks the shade).
    pub color: usize,
    /// 95% confidence half-widths of `points`, one each, drawn as bars; empty: none (a
    /// model, a paper's value). A non-finite or zero half-width draws no bar.
    pub errors: Vec<f64>,
}

impl Series {
    /// A series without confidence intervals.
    pub fn new(label: String, points: Vec<(f64, f64)>, style: Style, color: usize) -> Series {
        Series {
            label,
            points,
            style,
            color,
            errors: Vec::new(),
        }
    }

    /// This series with the 95% half-width of each point (`None`: no interval).
    pub fn with_errors(mut self, errors: Vec<Option<f64>>) -> Series {
        self.errors = errors.into_iter().map(|e| e.unwrap_or(0.0)).collect();
        self
    }
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

impl Chart {
    /// A chart.
    pub fn new(title: &str, x_label: &str, y_label: &str, series: Vec<Series>) -> Chart {
        Chart {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            series,
        }
    }
}

/// Ten colours a reader tells apart (the "tab10" set).
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The colour of a series: its group's hue in the shade of its style.
pub fn colour(s: &Series) -> RGBColor {
    let RGBColor(r, g, b) = PALETTE[s.color % PALETTE.len()];
    let mix = |c: u8, t: u8, f: f64| (f64::from(c) * (1.0 - f) + f64::from(t) * f).round() as u8;
    match s.style {
        Style::Points | Style::Saturated => RGBColor(r, g, b),
        Style::Line => RGBColor(mix(r, 0, 0.5), mix(g, 0, 0.5), mix(b, 0, 0.5)),
        Style::Paper => RGBColor(mix(r, 255, 0.45), mix(g, 255, 0.45), mix(b, 255, 0.45)),
    }
}

/// `(lo, hi)` of the finite values, padded by 5%.
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

/// The top of the y axis: the largest value, unless it lies more than 4 times above the
/// upper quartile of all values, when the axis stops at 3 times that quartile (the
/// values above are drawn clipped). `None`: no clipping.
pub fn clip_top(ys: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = ys.iter().copied().filter(|y| y.is_finite()).collect();
    if v.len() < 4 {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let q3 = v[(v.len() * 3) / 4];
    let max = v[v.len() - 1];
    (q3 > 0.0 && max > 4.0 * q3).then_some(3.0 * q3)
}

/// Consecutive runs of points at or below `top` (a line is broken where it leaves the axis).
fn segments(points: &[(f64, f64)], top: f64) -> Vec<Vec<(f64, f64)>> {
    let mut out = vec![Vec::new()];
    for &p in points {
        if p.1 <= top {
            out.last_mut().expect("never empty").push(p);
        } else if !out.last().expect("never empty").is_empty() {
            out.push(Vec::new());
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

fn draw_err(path: &Path) -> impl Fn(&dyn std::fmt::Display) -> anyhow::Error + '_ {
    move |e| anyhow!("{}: {e}", path.display())
}

/// The legend panel: a sample of each series and its label, then the clipping note.
fn legend(
    area: &DrawingArea<SVGBackend, Shift>,
    chart: &Chart,
    cols: &[RGBColor],
    clipped: Option<f64>,
) -> Result<(), Box<dyn std::error::Error>> {
    let font = ("sans-serif", 14);
    let mut y = 60;
    for (s, &col) in chart.series.iter().zip(cols) {
        if s.points.is_empty() {
            continue;
        }
        let (x0, x1, ym) = (8, 40, y + 7);
        match s.style {
            Style::Line => area.draw(&PathElement::new(
                vec![(x0, ym), (x1, ym)],
                col.stroke_width(3),
            ))?,
            Style::Points => {
                area.draw(&PathElement::new(
                    vec![(x0, ym), (x1, ym)],
                    col.stroke_width(1),
                ))?;
                area.draw(&Circle::new((24, ym), 4, col.filled()))?;
            }
            Style::Saturated => area.draw(&Cross::new((24, ym), 5, col.stroke_width(2)))?,
            Style::Paper => {
                area.draw(&PathElement::new(
                    vec![(x0, ym), (x1, ym)],
                    col.stroke_width(1),
                ))?;
                area.draw(&TriangleMarker::new((24, ym), 5, col.filled()))?;
            }
        }
        area.draw(&Text::new(s.label.clone(), (48, y), font))?;
        y += 22;
    }
    if let Some(top) = clipped {
        area.draw(&Text::new(
            format!("^ value above {top:.0}: axis clipped"),
            (8, y + 10),
            ("sans-serif", 13),
        ))?;
    }
    Ok(())
}

/// Draws the series into the plot area `area`.
fn plot(
    area: &DrawingArea<SVGBackend, Shift>,
    chart: &Chart,
    cols: &[RGBColor],
    top: f64,
) -> Result<f64, Box<dyn std::error::Error>> {
    let pts = || chart.series.iter().flat_map(|s| s.points.iter());
    let (x0, x1) = range(pts().map(|p| p.0));
    let (y0, y1) = range(pts().map(|p| p.1).filter(|&y| y <= top));
    let mut c = ChartBuilder::on(area)
        .caption(&chart.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, y0..y1)?;
    c.configure_mesh()
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .draw()?;
    for (s, &col) in chart.series.iter().zip(cols) {
        let points: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .collect();
        let bars = s
            .points
            .iter()
            .zip(&s.errors)
            .filter(|(p, h)| p.0.is_finite() && p.1.is_finite() && p.1 <= y1 && h.is_finite())
            .filter(|(_, h)| **h > 0.0)
            .map(|(&(x, y), &h)| {
                ErrorBar::new_vertical(x, (y - h).max(y0), y, (y + h).min(y1), col.filled(), 6)
            });
        c.draw_series(bars)?;
        for seg in segments(&points, y1) {
            match s.style {
                Style::Line => {
                    c.draw_series(LineSeries::new(seg, col.stroke_width(2)))?;
                }
                Style::Points => {
                    c.draw_series(LineSeries::new(seg.clone(), col.stroke_width(1)))?;
                    c.draw_series(seg.iter().map(|&p| Circle::new(p, 4, col.filled())))?;
                }
                Style::Saturated => {
                    c.draw_series(seg.iter().map(|&p| Cross::new(p, 5, col.stroke_width(2))))?;
                }
                Style::Paper => {
                    c.draw_series(DashedLineSeries::new(
                        seg.clone(),
                        6,
                        4,
                        col.stroke_width(1),
                    ))?;
                    c.draw_series(seg.iter().map(|&p| TriangleMarker::new(p, 5, col.filled())))?;
                }
            }
        }
        for &(x, y) in points.iter().filter(|p| p.1 > y1) {
            c.draw_series(std::iter::once(TriangleMarker::new(
                (x, y1),
                7,
                col.filled(),
            )))?;
            c.draw_series(std::iter::once(Text::new(
                format!("{y:.0}"),
                (x, y1),
                ("sans-serif", 12).into_font().color(&col),
            )))?;
        }
    }
    Ok(y1)
}

/// Writes `chart` to `path`: SVG, PNG or PDF by its extension ([`mod@file`]).
///
/// # Errors
/// An unknown extension, or the file cannot be written.
pub fn write_svg(chart: &Chart, path: &Path) -> anyhow::Result<()> {
    // Only rank 0 of an MPI job writes files (every rank computes the same ones).
    if !crate::cluster::is_root() {
        return Ok(());
    }
    file::format("--plot", path)?;
    let err = draw_err(path);
    let ys: Vec<f64> = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .collect();
    let clipped = clip_top(&ys);
    let cols: Vec<RGBColor> = chart.series.iter().map(colour).collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1040, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let (left, right) = root.split_horizontally(760);
        let top =
            plot(&left, chart, &cols, clipped.unwrap_or(f64::INFINITY)).map_err(|e| err(&e))?;
        legend(&right, chart, &cols, clipped.map(|_| top)).map_err(|e| err(&e))?;
        root.present().map_err(|e| err(&e))?;
    }
    file::write("--plot", path, &svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(style: Style, color: usize) -> Series {
        Series::new(String::new(), vec![(0.0, 1.0)], style, color)
    }

    #[test]
    fn model_simulation_and_paper_of_a_group_get_different_colours() {
        let styles = [Style::Line, Style::Points, Style::Saturated, Style::Paper];
        let group = |g: usize| styles.map(|st| colour(&s(st, g)));
        for g in 0..12 {
            let [line, points, saturated, paper] = group(g);
            assert!(
                line != points && points != paper && paper != line,
                "group {g}"
            );
            assert_eq!(points, saturated);
        }
        // Groups differ by hue.
        assert_ne!(group(0)[1], group(1)[1]);
    }

    #[test]
    fn one_singular_value_clips_the_axis_and_ordinary_ones_do_not() {
        let mut ys: Vec<f64> = (0..12).map(|i| 100.0 + 10.0 * f64::from(i)).collect();
        assert_eq!(clip_top(&ys), None);
        ys.push(22_399.0);
        let top = clip_top(&ys).expect("clipped");
        assert!(top < 22_399.0 && top > 200.0, "{top}");
        let seg = segments(&[(0.0, 1.0), (1.0, 1e9), (2.0, 2.0), (3.0, 3.0)], 10.0);
        assert_eq!(seg, vec![vec![(0.0, 1.0)], vec![(2.0, 2.0), (3.0, 3.0)]]);
    }

    #[test]
    fn an_svg_is_written_with_the_legend_outside_the_plot() {
        let dir = std::env::temp_dir().join(format!("flitsim-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.svg");
        let chart = Chart::new(
            "t",
            "x",
            "y",
            vec![
                Series::new("model".into(), vec![(0.0, 1.0), (1.0, 5e4)], Style::Line, 0),
                Series::new("sim".into(), vec![(0.0, 1.0), (0.5, 2.0)], Style::Points, 0),
            ],
        );
        write_svg(&chart, &path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(
            svg.contains("\nmodel\n") && svg.contains("\nsim\n"),
            "{svg}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
