//! Labelling the curves of a sweep: each design is named by the settings that differ
//! between the curves (`vcs=2, length=12`), the settings all share make the title.

use super::vary::{self, differing_keys};
use super::CurveSpec;
use anyhow::bail;

/// The curves of one `sweep`, ready to simulate.
pub struct Study {
    /// The curves, in order: argument, routing function, design.
    pub specs: Vec<CurveSpec>,
    /// The rates of each curve, as given (`auto`, `A:B:STEP` or a list).
    pub rates: Vec<String>,
    /// Points per curve with `--rates auto`, per curve.
    pub points: Vec<usize>,
    /// The keys that differ between the curves other than `netlist` and `routing`: the
    /// extra CSV columns.
    pub columns: Vec<String>,
    /// What every curve shares (`torus-8x8, dor, uniform, length=12`): the plot's title.
    pub common: String,
}

/// One curve before labelling.
pub struct Pending {
    /// The curve, labelled by its netlist and routing function.
    pub spec: CurveSpec,
    /// The first router's configuration, for keys another curve sets and this one not.
    pub router: Option<serde_json::Value>,
    /// The settings that describe the design (netlist, routing, traffic, ..., seed).
    pub settings: Vec<(String, String)>,
    /// The label given by the user (`--label`, `label` in an experiment file).
    pub label: Option<String>,
    /// The file the design came from, for errors.
    pub source: String,
    /// Its rates as given.
    pub rates: String,
    /// Points with `--rates auto`.
    pub points: usize,
}

/// The designs of a sweep labelled by what differs between them; two curves with one
/// label are refused.
///
/// # Errors
/// More than [`vary::MAX_DESIGNS`] curves, or two curves with the same label.
pub fn label(mut pending: Vec<Pending>) -> anyhow::Result<Study> {
    if pending.len() > vary::MAX_DESIGNS {
        bail!(
            "sweep: {} curves, more than {}\nhelp: vary fewer keys or values",
            pending.len(),
            vary::MAX_DESIGNS
        );
    }
    fill_defaults(&mut pending);
    let all: Vec<Vec<(String, String)>> = pending.iter().map(|p| p.settings.clone()).collect();
    let differ = differing_keys(&all);
    let by_name = differ.iter().all(|k| k == "netlist" || k == "routing");
    let columns: Vec<String> = differ
        .iter()
        .filter(|k| *k != "netlist" && *k != "routing")
        .cloned()
        .collect();
    let shared: Vec<String> = all[0]
        .iter()
        .map(|(k, _)| k.clone())
        .filter(|k| !differ.contains(k) && k != "seed")
        .collect();
    let common = vary::label(&all[0], &dedup(shared));
    let mut specs: Vec<CurveSpec> = Vec::new();
    let mut sources: Vec<String> = Vec::new();
    let (mut rates, mut points) = (Vec::new(), Vec::new());
    for p in pending {
        let mut spec = p.spec;
        spec.design = columns
            .iter()
            .map(|k| {
                (
                    k.clone(),
                    vary::value_of(&p.settings, k).unwrap_or("").to_string(),
                )
            })
            .collect();
        spec.label = match p.label {
            Some(l) => l,
            None if by_name => spec.label,
            None => vary::label(&p.settings, &differ),
        };
        if let Some(i) = specs.iter().position(|s| s.label == spec.label) {
            bail!(
                "{}: error[duplicate-label]: this curve and one of {} would both be labelled `{}`\nhelp: the two designs do not differ in their netlist name, routing, traffic, lengths or overrides: give each netlist its own `name`, give each experiment file a `label`, or use --vary",
                p.source,
                sources[i],
                spec.label
            );
        }
        specs.push(spec);
        sources.push(p.source);
        rates.push(p.rates);
        points.push(p.points);
    }
    Ok(Study {
        specs,
        rates,
        points,
        columns,
        common,
    })
}

fn dedup(mut keys: Vec<String>) -> Vec<String> {
    let mut seen = Vec::new();
    keys.retain(|k| {
        let new = !seen.contains(k);
        seen.push(k.clone());
        new
    });
    keys
}

/// Gives each curve the netlist's value of the router keys other curves set and it
/// does not (a plain netlist beside one with `vcs=2` is labelled with its own `vcs`).
fn fill_defaults(pending: &mut [Pending]) {
    let mut keys: Vec<String> = Vec::new();
    for p in pending.iter() {
        for (k, _) in &p.settings {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
    }
    for p in pending.iter_mut() {
        for k in &keys {
            if vary::value_of(&p.settings, k).is_some() {
                continue;
            }
            let v = p.router.as_ref().and_then(|r| r.get(k.as_str()));
            let text = match v {
                Some(serde_json::Value::String(s)) => Some(s.clone()),
                Some(v @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_))) => {
                    Some(v.to_string())
                }
                _ => None,
            };
            if let Some(t) = text {
                p.settings.push((k.clone(), t));
            }
        }
    }
}
