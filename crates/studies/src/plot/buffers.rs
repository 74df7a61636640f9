//! The SVG heat map of `flitsim buffers --plot`: one cell per router at its 2-D
//! coordinates, coloured by the peak occupancy (flits) of any of its network input VCs,
//! with the number written in the cell, axes in router coordinates and a colour scale
//! in flits.

use flitsim_engine::stats::buffer::BufferStats;
use flitsim_netlist::Netlist;
use plotters::prelude::*;
use std::path::Path;

fn err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("cannot draw: {e}")
}

/// White (0) to dark red (`max`).
fn heat(v: u32, max: u32) -> RGBColor {
    let f = if max == 0 {
        0.0
    } else {
        f64::from(v) / f64::from(max)
    };
    let g = (255.0 * (1.0 - f)) as u8;
    let r = (255.0 - 90.0 * f) as u8;
    RGBColor(r, g, (g as f64 * 0.8) as u8)
}

/// Each router's 2-D coordinate, or why the topology has none.
fn coordinates(netlist: &Netlist) -> anyhow::Result<Vec<(u32, u32)>> {
    netlist
        .routers()
        .map(|r| match r.coord.as_deref() {
            Some([x, y]) => Ok((*x, *y)),
            _ => Err(anyhow::anyhow!(
                "the heat map needs a 2-D topology (router {} has no 2-D coordinate)\nhelp: drop --plot, or use a 2-D torus or mesh",
                r.name
            )),
        })
        .collect()
}

/// The largest `of` any network input VC of each router (the injection port, index 0,
/// left out).
fn per_router(netlist: &Netlist, buffers: &[BufferStats], of: fn(&BufferStats) -> u32) -> Vec<u32> {
    netlist
        .routers()
        .map(|r| {
            buffers
                .iter()
                .filter(|b| b.router == r.name && b.port_index != 0)
                .map(of)
                .max()
                .unwrap_or(0)
        })
        .collect()
}

/// Draws the heat map of `buffers` (from `Simulation::buffer_stats`) over `netlist`.
///
/// # Errors
/// The topology is not 2-D, or the file cannot be written.
pub fn draw(path: &Path, netlist: &Netlist, buffers: &[BufferStats]) -> anyhow::Result<()> {
    let peak = per_router(netlist, buffers, |b| b.max);
    heat_map(
        path,
        netlist,
        &peak,
        "peak input-VC occupancy per router (flits)",
    )
}

/// The 99th percentile of the occupancy of any network input VC of each router.
pub fn p99s(netlist: &Netlist, buffers: &[BufferStats]) -> Vec<u32> {
    per_router(netlist, buffers, |b| b.p99)
}

/// Draws one value per router (flits) at its 2-D coordinates under `caption`, to `path`
/// (SVG, PNG or PDF by its extension).
///
/// # Errors
/// The topology is not 2-D, or the file cannot be written.
pub fn heat_map(path: &Path, netlist: &Netlist, peak: &[u32], caption: &str) -> anyhow::Result<()> {
    // Only rank 0 of an MPI job writes files (every rank computes the same ones).
    if !crate::cluster::is_root() {
        return Ok(());
    }
    let coords = coordinates(netlist)?;
    let max = peak.iter().copied().max().unwrap_or(0);
    let w = coords.iter().map(|c| c.0).max().unwrap_or(0) + 1;
    let h = coords.iter().map(|c| c.1).max().unwrap_or(0) + 1;
    let cell = 56;
    // A long caption widens the map (9 pixels a character) so it is not cut.
    let caption_width = if caption.len() > 45 {
        9 * caption.len() as u32
    } else {
        0
    };
    let (pw, ph) = ((w * cell + 90).max(caption_width), h * cell + 110);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (pw + 150, ph)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (map, scale) = root.split_horizontally(pw);
        let mut c = ChartBuilder::on(&map)
            .caption(caption, ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(-0.5f64..(f64::from(w) - 0.5), -0.5f64..(f64::from(h) - 0.5))
            .map_err(err)?;
        c.configure_mesh()
            .disable_mesh()
            .x_labels(w as usize)
            .y_labels(h as usize)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .x_desc("x coordinate (dimension 0)")
            .y_desc("y coordinate (dimension 1)")
            .draw()
            .map_err(err)?;
        c.draw_series(coords.iter().zip(peak).map(|(&(x, y), &v)| {
            let (x, y) = (f64::from(x), f64::from(y));
            Rectangle::new(
                [(x - 0.48, y - 0.48), (x + 0.48, y + 0.48)],
                heat(v, max).filled(),
            )
        }))
        .map_err(err)?;
        c.draw_series(coords.iter().zip(peak).map(|(&(x, y), &v)| {
            Text::new(
                v.to_string(),
                (f64::from(x) - 0.15, f64::from(y) + 0.15),
                ("sans-serif", 15),
            )
        }))
        .map_err(err)?;
        colour_scale(&scale, max)?;
        root.present().map_err(err)?;
    }
    crate::plot::file::write("--plot", path, &svg)
}

/// The colour scale: eleven steps from 0 to `max` flits.
fn colour_scale(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    max: u32,
) -> anyhow::Result<()> {
    area.draw(&Text::new("flits", (10, 30), ("sans-serif", 14)))
        .map_err(err)?;
    for k in 0..=10u32 {
        let v = max * k / 10;
        let y = (50 + (10 - k) * 18) as i32;
        area.draw(&Rectangle::new(
            [(10, y), (30, y + 16)],
            heat(v, max).filled(),
        ))
        .map_err(err)?;
        area.draw(&Text::new(v.to_string(), (36, y + 2), ("sans-serif", 12)))
            .map_err(err)?;
    }
    Ok(())
}
