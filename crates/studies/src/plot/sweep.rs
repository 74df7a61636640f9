//! The SVG of `flitsim sweep --plot`: two panels against offered load (flits per terminal
//! per cycle): mean packet latency with 95% confidence bars, and accepted vs offered
//! throughput (with the diagonal accepted = offered). One colour per curve; the legend is a
//! strip under the panels, never over the data. Saturated points are left out of the
//! latency panel (their mean has no steady state) and drawn hollow in the throughput one.

use crate::experiments::Curve;
use plotters::prelude::*;
use std::path::Path;

use crate::plot::PALETTE as COLOURS;

fn err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("cannot draw: {e}")
}

/// Draws `curves` into the SVG file `path`.
///
/// # Errors
/// The file cannot be written.
pub fn draw(path: &Path, curves: &[Curve]) -> anyhow::Result<()> {
    // Only rank 0 of an MPI job writes files (every rank computes the same ones).
    if !crate::cluster::is_root() {
        return Ok(());
    }
    let legend_height = 30 + 22 * (curves.len() as u32).div_ceil(3);
    let root = SVGBackend::new(path, (1100, 460 + legend_height)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let (panels, strip) = root.split_vertically(460);
    legend(&strip, curves)?;
    let (left, right) = panels.split_horizontally(550);
    let pts = || curves.iter().flat_map(|c| c.points.iter());
    let x_max = pts().map(|p| p.offered).fold(0.0, f64::max).max(1e-3) * 1.05;
    let y_max = pts()
        .filter_map(|p| p.latency.map(|l| l + p.latency_ci95.unwrap_or(0.0)))
        .fold(0.0, f64::max)
        .max(1.0)
        * 1.1;
    let a_max = pts()
        .map(|p| p.accepted.max(p.offered))
        .fold(0.0, f64::max)
        .max(1e-3)
        * 1.05;

    latency_panel(&left, curves, x_max, y_max)?;
    throughput_panel(&right, curves, x_max, a_max)?;
    root.present().map_err(err)?;
    Ok(())
}

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// Mean latency with 95% bars against offered load; saturated points left out.
fn latency_panel(area: &Area<'_>, curves: &[Curve], x_max: f64, y_max: f64) -> anyhow::Result<()> {
    let mut lat = ChartBuilder::on(area)
        .caption("packet latency (95% CI)", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)
        .map_err(err)?;
    lat.configure_mesh()
        .x_desc("offered load (flits/terminal/cycle)")
        .y_desc("latency (cycles)")
        .draw()
        .map_err(err)?;
    for (i, c) in curves.iter().enumerate() {
        let col = COLOURS[i % COLOURS.len()];
        let data: Vec<(f64, f64, f64)> = c
            .points
            .iter()
            .filter(|p| !p.saturated)
            .filter_map(|p| {
                p.latency
                    .map(|l| (p.offered, l, p.latency_ci95.unwrap_or(0.0)))
            })
            .collect();
        lat.draw_series(LineSeries::new(
            data.iter().map(|&(x, y, _)| (x, y)),
            col.stroke_width(2),
        ))
        .map_err(err)?;
        lat.draw_series(
            data.iter()
                .map(|&(x, y, h)| ErrorBar::new_vertical(x, y - h, y, y + h, col.filled(), 6)),
        )
        .map_err(err)?;
        lat.draw_series(
            data.iter()
                .map(|&(x, y, _)| Circle::new((x, y), 3, col.filled())),
        )
        .map_err(err)?;
    }
    Ok(())
}

/// Accepted against offered throughput with the diagonal; saturated points hollow.
fn throughput_panel(
    area: &Area<'_>,
    curves: &[Curve],
    x_max: f64,
    a_max: f64,
) -> anyhow::Result<()> {
    let mut thr = ChartBuilder::on(area)
        .caption("accepted vs offered throughput", ("sans-serif", 20))
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
        let data: Vec<(f64, f64, f64)> = c
            .points
            .iter()
            .map(|p| (p.offered, p.accepted, p.accepted_ci95.unwrap_or(0.0)))
            .collect();
        thr.draw_series(LineSeries::new(
            data.iter().map(|&(x, y, _)| (x, y)),
            col.stroke_width(2),
        ))
        .map_err(err)?;
        thr.draw_series(
            data.iter()
                .map(|&(x, y, h)| ErrorBar::new_vertical(x, y - h, y, y + h, col.filled(), 6)),
        )
        .map_err(err)?;
        thr.draw_series(c.points.iter().map(|p| {
            let style = if p.saturated {
                col.stroke_width(2)
            } else {
                col.filled()
            };
            Circle::new((p.offered, p.accepted), 3, style)
        }))
        .map_err(err)?;
    }
    Ok(())
}

/// The legend strip: one entry per curve (three to a row), then how saturated points and
/// the diagonal are drawn.
fn legend(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    curves: &[Curve],
) -> anyhow::Result<()> {
    let font = ("sans-serif", 14);
    for (i, c) in curves.iter().enumerate() {
        let col = COLOURS[i % COLOURS.len()];
        let (x, y) = (20 + 360 * (i % 3) as i32, 8 + 22 * (i / 3) as i32);
        area.draw(&PathElement::new(
            vec![(x, y + 7), (x + 24, y + 7)],
            col.stroke_width(2),
        ))
        .map_err(err)?;
        area.draw(&Circle::new((x + 12, y + 7), 3, col.filled()))
            .map_err(err)?;
        area.draw(&Text::new(c.label.clone(), (x + 32, y), font))
            .map_err(err)?;
    }
    let y = 8 + 22 * curves.len().div_ceil(3) as i32;
    area.draw(&Circle::new((32, y + 7), 3, BLACK.stroke_width(2)))
        .map_err(err)?;
    area.draw(&Text::new(
        "hollow: saturated point (right panel; left out of the latency panel)",
        (52, y),
        font,
    ))
    .map_err(err)?;
    area.draw(&PathElement::new(
        vec![(620, y + 7), (644, y + 7)],
        BLACK.mix(0.3).stroke_width(1),
    ))
    .map_err(err)?;
    area.draw(&Text::new("accepted = offered", (652, y), font))
        .map_err(err)?;
    Ok(())
}
