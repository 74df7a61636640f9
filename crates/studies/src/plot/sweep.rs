//! The figure of `flitsim sweep --plot`: a title line with the setup, then two panels
//! against offered load (flits per terminal per cycle): mean packet latency with 95%
//! confidence bars, and accepted vs offered throughput with its 95% bars and the diagonal
//! accepted = offered. Each curve has a colour and a marker shape, so curves stay told
//! apart in greyscale; the legend is a strip under the panels, never over the data.
//!
//! A filled marker is a point whose automatic measurement met its confidence target, or a
//! point of a fixed window (`--warmup`/`--cycles`, `converged = false` in the CSV), which
//! has no target to miss. A hollow one missed its target: it is drawn but the latency
//! axis is not fitted to it, and one above the axis is drawn as a hollow triangle on the
//! top edge. The legend states this rule. Saturated points are left out of the latency
//! panel (their mean has no steady state) and drawn hollow in the throughput one.
//! The file's extension picks SVG, PNG or PDF ([`crate::plot::file`]).

use crate::experiments::{Curve, Point};
use anyhow::{anyhow, bail};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// Colours whose grey levels differ from one neighbour to the next (Okabe and Ito's
/// colour-blind-safe set, reordered).
const COLOURS: [RGBColor; 8] = [
    RGBColor(0, 0, 0),
    RGBColor(230, 159, 0),
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(160, 140, 0),
];

/// Marker shapes, one per curve in turn (circle, square, triangle, diamond, cross).
const SHAPES: usize = 5;

fn err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("cannot draw: {e}")
}

/// The automatic measurement ended without meeting its confidence target. A fixed
/// window (`--warmup`/`--cycles`) has no target and no interval: its points count as
/// converged.
fn unconverged(p: &Point) -> bool {
    !p.converged && p.latency_ci95.is_some()
}

/// The latency axis asked for: `--ylim A:B` and `--log-y`.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Axis {
    /// Fixed limits in cycles.
    pub limits: Option<(f64, f64)>,
    /// Logarithmic.
    pub log: bool,
}

impl Axis {
    /// Parses `--ylim A:B` and `--log-y`.
    ///
    /// # Errors
    /// Not two numbers with `0 <= A < B` (`A > 0` on a logarithmic axis).
    pub fn parse(ylim: Option<&str>, log: bool) -> anyhow::Result<Axis> {
        let help = "help: give the latency axis in cycles, e.g. --ylim 0:200";
        let limits = match ylim {
            None => None,
            Some(s) => {
                let (a, b) = s
                    .split_once(':')
                    .ok_or_else(|| anyhow!("--ylim {s}: expected A:B\n{help}"))?;
                let num = |x: &str| {
                    x.trim()
                        .parse::<f64>()
                        .map_err(|_| anyhow!("--ylim {s}: `{x}` is not a number\n{help}"))
                };
                let (a, b) = (num(a)?, num(b)?);
                if !(a >= 0.0 && a < b && b.is_finite()) || (log && a <= 0.0) {
                    bail!("--ylim {s}: needs 0 <= A < B (A > 0 with --log-y)\n{help}");
                }
                Some((a, b))
            }
        };
        Ok(Axis { limits, log })
    }
}

/// The title line: what every curve shares, and how saturation was found.
pub fn title(common: &str, curves: &[Curve]) -> String {
    let auto = curves.iter().any(|c| c.saturation.is_some());
    let mut t = common.to_string();
    if auto {
        t.push_str("; rates up to the saturation found by --rates auto");
    }
    t
}

/// Draws `curves` under `title` into `path` (SVG, PNG or PDF by its extension).
///
/// # Errors
/// An unknown extension, or the file cannot be written.
pub fn draw(path: &Path, curves: &[Curve], title: &str, axis: Axis) -> anyhow::Result<()> {
    let svg = svg(curves, title, axis)?;
    crate::plot::file::write("--plot", path, &svg)
}

/// The figure as SVG text.
///
/// # Errors
/// A drawing failure.
pub fn svg(curves: &[Curve], title: &str, axis: Axis) -> anyhow::Result<String> {
    let legend_height = 52 + 22 * (curves.len() as u32).div_ceil(3);
    let mut out = String::new();
    {
        let root =
            SVGBackend::with_string(&mut out, (1100, 490 + legend_height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (head, rest) = root.split_vertically(30);
        head.draw(&Text::new(title.to_string(), (12, 8), ("sans-serif", 16)))
            .map_err(err)?;
        let (panels, strip) = rest.split_vertically(460);
        legend(&strip, curves)?;
        let (left, right) = panels.split_horizontally(550);
        let pts = || curves.iter().flat_map(|c| c.points.iter());
        let x_max = pts().map(|p| p.offered).fold(0.0, f64::max).max(1e-3) * 1.05;
        let a_max = pts()
            .map(|p| (p.accepted + p.accepted_ci95.unwrap_or(0.0)).max(p.offered))
            .fold(0.0, f64::max)
            .max(1e-3)
            * 1.05;
        latency_panel(&left, curves, x_max, latency_range(curves, axis), axis.log)?;
        throughput_panel(&right, curves, x_max, a_max)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// The latency axis: the limits given, else fitted to the converged unsaturated points
/// with their intervals.
fn latency_range(curves: &[Curve], axis: Axis) -> (f64, f64) {
    if let Some(l) = axis.limits {
        return l;
    }
    let fitted = curves
        .iter()
        .flat_map(|c| c.points.iter())
        .filter(|p| !unconverged(p) && !p.saturated);
    let top = fitted
        .clone()
        .filter_map(|p| p.latency.map(|l| l + p.latency_ci95.unwrap_or(0.0)))
        .fold(0.0, f64::max);
    let top = if top > 0.0 {
        top
    } else {
        // No converged point: fit to the rest rather than draw an empty panel.
        curves
            .iter()
            .flat_map(|c| c.points.iter())
            .filter(|p| !p.saturated)
            .filter_map(|p| p.latency)
            .fold(1.0, f64::max)
    };
    if axis.log {
        let bottom = fitted
            .filter_map(|p| p.latency)
            .fold(f64::INFINITY, f64::min);
        let bottom = if bottom.is_finite() { bottom } else { 1.0 };
        (bottom / 1.2, top * 1.2)
    } else {
        (0.0, top * 1.1)
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// The outline of marker `shape` around (0, 0) in pixels: a square, a triangle, a
/// diamond, or a cross (drawn as lines, never filled); shape 0, the circle, is drawn as
/// one.
fn outline(shape: usize) -> (Vec<(i32, i32)>, bool) {
    match shape % SHAPES {
        0 | 1 => (vec![(-4, -4), (4, -4), (4, 4), (-4, 4)], false),
        2 => (vec![(0, -5), (5, 4), (-5, 4)], false),
        3 => (vec![(0, -5), (5, 0), (0, 5), (-5, 0)], false),
        _ => (vec![(-4, -4), (4, 4), (0, 0), (-4, 4), (4, -4)], true),
    }
}

type Chart<'a, 'x> = ChartContext<'a, SVGBackend<'x>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Markers of `shape` at `points`, filled where the flag says so.
fn markers(
    chart: &mut Chart<'_, '_>,
    points: &[((f64, f64), bool)],
    shape: usize,
    col: RGBColor,
) -> anyhow::Result<()> {
    if shape % SHAPES == 0 {
        let style = |f: bool| if f { col.filled() } else { col.stroke_width(2) };
        return chart
            .draw_series(
                points
                    .iter()
                    .map(|&(p, f)| EmptyElement::at(p) + Circle::new((0, 0), 4, style(f))),
            )
            .map(|_| ())
            .map_err(err);
    }
    let (v, cross) = outline(shape);
    let mut closed = v.clone();
    if !cross {
        closed.push(v[0]);
    }
    let filled = points.iter().filter(|(_, f)| *f && !cross).map(|(p, _)| *p);
    chart
        .draw_series(filled.map(|p| EmptyElement::at(p) + Polygon::new(v.clone(), col.filled())))
        .map_err(err)?;
    let hollow = points.iter().filter(|(_, f)| !*f || cross).map(|(p, _)| *p);
    chart
        .draw_series(
            hollow.map(|p| {
                EmptyElement::at(p) + PathElement::new(closed.clone(), col.stroke_width(2))
            }),
        )
        .map_err(err)?;
    Ok(())
}

/// Mean latency with 95% bars against offered load; saturated points left out.
fn latency_panel(
    area: &Area<'_>,
    curves: &[Curve],
    x_max: f64,
    (lo, hi): (f64, f64),
    log: bool,
) -> anyhow::Result<()> {
    let t = |y: f64| if log { y.max(1e-9).log10() } else { y };
    let caption = if log {
        "packet latency (95% CI), log scale"
    } else {
        "packet latency (95% CI)"
    };
    let mut lat = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..x_max, t(lo)..t(hi))
        .map_err(err)?;
    let untransform = |v: &f64| {
        if log {
            format!("{:.3}", 10f64.powf(*v))
        } else {
            format!("{v}")
        }
    };
    lat.configure_mesh()
        .x_desc("offered load (flits/terminal/cycle)")
        .y_desc("latency (cycles)")
        .y_label_formatter(&untransform)
        .draw()
        .map_err(err)?;
    for (i, c) in curves.iter().enumerate() {
        let col = COLOURS[i % COLOURS.len()];
        let data: Vec<&Point> = c
            .points
            .iter()
            .filter(|p| !p.saturated && p.latency.is_some())
            .collect();
        let y = |p: &Point| p.latency.unwrap_or(0.0);
        let on_axis = |p: &Point| (p.offered, t(y(p).min(hi)));
        lat.draw_series(LineSeries::new(
            data.iter().map(|p| on_axis(p)),
            col.stroke_width(2),
        ))
        .map_err(err)?;
        lat.draw_series(data.iter().filter(|p| y(p) <= hi).map(|p| {
            let h = p.latency_ci95.unwrap_or(0.0);
            let (a, b) = (t((y(p) - h).max(lo)), t((y(p) + h).min(hi)));
            ErrorBar::new_vertical(p.offered, a, t(y(p)), b, col.filled(), 6)
        }))
        .map_err(err)?;
        let (inside, above): (Vec<&Point>, Vec<&Point>) = data.iter().partition(|p| y(p) <= hi);
        let inside: Vec<_> = inside
            .iter()
            .map(|p| (on_axis(p), !unconverged(p)))
            .collect();
        markers(&mut lat, &inside, i, col)?;
        let above: Vec<_> = above.iter().map(|p| (on_axis(p), false)).collect();
        markers(&mut lat, &above, 2, col)?;
    }
    Ok(())
}

/// Accepted against offered throughput with 95% bars and the diagonal; points not
/// converged (saturated ones among them) hollow.
fn throughput_panel(
    area: &Area<'_>,
    curves: &[Curve],
    x_max: f64,
    a_max: f64,
) -> anyhow::Result<()> {
    let mut thr = ChartBuilder::on(area)
        .caption(
            "accepted vs offered throughput (95% CI)",
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..x_max, 0.0..a_max)
        .map_err(err)?;
    thr.configure_mesh()
        .x_desc("offered load (flits/terminal/cycle)")
        .y_desc("accepted (flits/terminal/cycle)")
        .draw()
        .map_err(err)?;
    let diag = x_max.min(a_max);
    thr.draw_series(LineSeries::new(
        [(0.0, 0.0), (diag, diag)],
        BLACK.mix(0.3).stroke_width(1),
    ))
    .map_err(err)?;
    for (i, c) in curves.iter().enumerate() {
        let col = COLOURS[i % COLOURS.len()];
        thr.draw_series(LineSeries::new(
            c.points.iter().map(|p| (p.offered, p.accepted)),
            col.stroke_width(2),
        ))
        .map_err(err)?;
        thr.draw_series(c.points.iter().map(|p| {
            let h = p.accepted_ci95.unwrap_or(0.0);
            let (x, y) = (p.offered, p.accepted);
            ErrorBar::new_vertical(x, y - h, y, y + h, col.filled(), 6)
        }))
        .map_err(err)?;
        let pts: Vec<_> = c
            .points
            .iter()
            .map(|p| ((p.offered, p.accepted), !unconverged(p) && !p.saturated))
            .collect();
        markers(&mut thr, &pts, i, col)?;
    }
    Ok(())
}

/// The legend strip: one entry per curve (three to a row), then how points not converged,
/// saturated points and the diagonal are drawn.
fn legend(area: &Area<'_>, curves: &[Curve]) -> anyhow::Result<()> {
    let font = ("sans-serif", 14);
    let at = |i: usize| (20 + 360 * (i % 3) as i32, 8 + 22 * (i / 3) as i32);
    for (i, c) in curves.iter().enumerate() {
        let col = COLOURS[i % COLOURS.len()];
        let (x, y) = at(i);
        area.draw(&PathElement::new(
            vec![(x, y + 7), (x + 24, y + 7)],
            col.stroke_width(2),
        ))
        .map_err(err)?;
        let (v, cross) = outline(i);
        let at = EmptyElement::at((x + 12, y + 7));
        if i % SHAPES == 0 {
            area.draw(&(at + Circle::new((0, 0), 4, col.filled())))
        } else if cross {
            area.draw(&(at + PathElement::new(v, col.stroke_width(2))))
        } else {
            area.draw(&(at + Polygon::new(v, col.filled())))
        }
        .map_err(err)?;
        area.draw(&Text::new(c.label.clone(), (x + 32, y), font))
            .map_err(err)?;
    }
    let y = 8 + 22 * curves.len().div_ceil(3) as i32;
    area.draw(&Circle::new((32, y + 7), 4, BLACK.stroke_width(2)))
        .map_err(err)?;
    area.draw(&Text::new(
        "hollow: confidence target missed (a fixed window has none: filled); axis not fitted to it; saturated: right panel only",
        (52, y),
        font,
    ))
    .map_err(err)?;
    area.draw(&PathElement::new(
        vec![(32, y + 24), (37, y + 33), (27, y + 33), (32, y + 24)],
        BLACK.stroke_width(2),
    ))
    .map_err(err)?;
    area.draw(&Text::new(
        "hollow triangle on the top edge: above the latency axis",
        (52, y + 22),
        font,
    ))
    .map_err(err)?;
    area.draw(&PathElement::new(
        vec![(620, y + 29), (644, y + 29)],
        BLACK.mix(0.3).stroke_width(1),
    ))
    .map_err(err)?;
    area.draw(&Text::new("accepted = offered", (652, y + 22), font))
        .map_err(err)?;
    Ok(())
}
