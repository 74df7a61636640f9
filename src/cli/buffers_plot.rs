//! The SVG heat map of `flitsim buffers --plot`: one cell per router at its 2-D
//! coordinates, coloured by the peak occupancy (flits) of any of its network input VCs,
//! with the number written in the cell.

use flitsim_engine::stats::occupancy::BufferStats;
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

/// Draws the heat map of `buffers` (from `Simulation::buffer_stats`) over `netlist`.
///
/// # Errors
/// The topology is not 2-D, or the file cannot be written.
pub fn draw(path: &Path, netlist: &Netlist, buffers: &[BufferStats]) -> anyhow::Result<()> {
    let coords: Vec<(u32, u32)> = netlist
        .routers()
        .map(|r| match r.coord.as_deref() {
            Some([x, y]) => Ok((*x, *y)),
            _ => Err(anyhow::anyhow!(
                "the heat map needs a 2-D topology (router {} has no 2-D coordinate)\nhelp: drop --plot, or use a 2-D torus or mesh",
                r.name
            )),
        })
        .collect::<anyhow::Result<_>>()?;
    let peak: Vec<u32> = netlist
        .routers()
        .map(|r| {
            buffers
                .iter()
                .filter(|b| b.router == r.name && b.port_index != 0)
                .map(|b| b.max)
                .max()
                .unwrap_or(0)
        })
        .collect();
    let max = peak.iter().copied().max().unwrap_or(0);
    let w = coords.iter().map(|c| c.0).max().unwrap_or(0) + 1;
    let h = coords.iter().map(|c| c.1).max().unwrap_or(0) + 1;
    let cell = 60;
    let root = SVGBackend::new(path, (w * cell + 120, h * cell + 70)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    root.draw(&Text::new(
        format!("peak input-VC occupancy per router (flits), max {max}"),
        (10, 10),
        ("sans-serif", 18),
    ))
    .map_err(err)?;
    for (i, &(x, y)) in coords.iter().enumerate() {
        let x0 = (10 + x * cell) as i32;
        let y0 = (40 + (h - 1 - y) * cell) as i32;
        let c = cell as i32;
        root.draw(&Rectangle::new(
            [(x0, y0), (x0 + c - 2, y0 + c - 2)],
            heat(peak[i], max).filled(),
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            peak[i].to_string(),
            (x0 + c / 2 - 8, y0 + c / 2 - 8),
            ("sans-serif", 16),
        ))
        .map_err(err)?;
    }
    // Legend: the colour scale.
    let lx = (20 + w * cell) as i32;
    for k in 0..=10u32 {
        let v = max * k / 10;
        let y = (40 + (10 - k) * 18) as i32;
        root.draw(&Rectangle::new(
            [(lx, y), (lx + 20, y + 16)],
            heat(v, max).filled(),
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            v.to_string(),
            (lx + 26, y + 2),
            ("sans-serif", 12),
        ))
        .map_err(err)?;
    }
    root.present().map_err(err)?;
    Ok(())
}
