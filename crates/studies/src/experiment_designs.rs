//! The `[[design]]` entries of an experiment file: each a labelled design of a `sweep`,
//! its keys those of `--vary` (`vcs = 2`, `switch_allocator = "islip"`, `routing`,
//! `length`, ...), one value each. Beside `[vary]`, which names every design by what
//! differs, they name designs that are no product of lists, each with its own label.

use crate::experiment_file::{error, value, Design, Value};
use crate::experiments::vary::{self, expand, parse_vary};
use anyhow::bail;
use flitsim_netlist::Location;
use std::path::Path;
use toml::de::DeValue;

/// A design of a sweep: its settings, and the label its `[[design]]` entry gives (`None`:
/// labelled by what differs).
pub type LabelledDesign = (Vec<(String, String)>, Option<String>);

/// The designs of one `sweep` input (from `source`): the product (or with `zip` the
/// zip) of its `--vary` lists, or its `[[design]]` entries.
///
/// # Errors
/// A bad `--vary`, or both `--vary` (or `[vary]`) and `[[design]]` entries.
pub fn study_designs(
    vary: &[String],
    zip: bool,
    entries: &[Design],
    source: &Path,
) -> anyhow::Result<Vec<LabelledDesign>> {
    let varies = vary
        .iter()
        .map(|v| parse_vary(v))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if entries.is_empty() {
        return Ok(expand(&varies, zip)?
            .into_iter()
            .map(|d| (d, None))
            .collect());
    }
    if !varies.is_empty() {
        bail!(
            "{}: error[bad-form]: both [vary] (or --vary) and [[design]] entries\nhelp: keep one: a [[design]] entry per design, or the lists of [vary]",
            source.display()
        );
    }
    Ok(entries
        .iter()
        .map(|d| (d.settings.clone(), Some(d.label.clone())))
        .collect())
}

/// The label a curve is given (`None`: by what differs between the curves): its
/// `[[design]]` label, after the input's `--label` when there is one; or with only
/// `--label`, that label, followed by the design's values when the input has `count > 1`
/// designs.
pub fn curve_label(
    input: Option<&str>,
    given: Option<&str>,
    design: &[(String, String)],
    count: usize,
) -> Option<String> {
    match (input, given) {
        (None, g) => g.map(str::to_string),
        (Some(l), Some(g)) => Some(format!("{l}: {g}")),
        (Some(l), None) if count > 1 => Some(format!("{l}: {}", vary::label_all(design))),
        (Some(l), None) => Some(l.to_string()),
    }
}

/// At most this many `[[design]]` entries (the sweep refuses more curves anyway).
pub const MAX_ENTRIES: usize = crate::experiments::vary::MAX_DESIGNS;

/// The entries of the `design` array of tables (its first header at `header`).
///
/// # Errors
/// Not an array of tables, an entry without a `label` or with nothing else, a value that
/// is not one string, number or boolean, too many entries, or a label given twice: each
/// located with its fix.
pub fn designs(
    v: &DeValue<'_>,
    header: &Location,
    at: &dyn Fn(usize) -> Location,
) -> anyhow::Result<Vec<Design>> {
    let form =
        "write each design as [[design]] with label = \"...\" and one line per key, e.g. vcs = 2";
    let DeValue::Array(entries) = v else {
        return Err(error(
            header,
            "bad-value",
            "`design` must be an array of tables",
            form,
        ));
    };
    if entries.len() > MAX_ENTRIES {
        return Err(error(
            header,
            "too-many",
            &format!(
                "{} [[design]] entries, more than {MAX_ENTRIES}",
                entries.len()
            ),
            "split the study into several sweeps",
        ));
    }
    let mut out: Vec<Design> = Vec::new();
    for entry in entries {
        let entry_at = at(entry.span().start);
        let DeValue::Table(table) = entry.get_ref() else {
            return Err(error(
                &entry_at,
                "bad-value",
                "a `design` entry must be a table",
                form,
            ));
        };
        let mut rows: Vec<_> = table.iter().collect();
        rows.sort_by_key(|(k, _)| k.span().start);
        let (mut label, mut settings) = (None, Vec::new());
        for (k, v) in rows {
            let loc = at(k.span().start);
            let name = k.get_ref().as_ref();
            let text = match value(v.get_ref(), &loc, name)? {
                Value::Text(t) => t,
                Value::Switch(b) => b.to_string(),
                Value::List(_) => {
                    return Err(error(
                        &loc,
                        "bad-value",
                        &format!("`{name}` in [[design]] must be one value"),
                        "give one value per design; for a list of designs use [vary]",
                    ))
                }
            };
            if name == "label" {
                label = Some((text, loc));
            } else {
                settings.push((name.to_string(), text));
            }
        }
        let Some((label, label_at)) = label else {
            return Err(error(
                &entry_at,
                "missing-key",
                "a [[design]] entry has no `label`",
                form,
            ));
        };
        if settings.is_empty() {
            return Err(error(
                &label_at,
                "missing-key",
                &format!("design `{label}` sets no key"),
                form,
            ));
        }
        if let Some(first) = out.iter().find(|d| d.label == label) {
            return Err(error(
                &label_at,
                "duplicate-label",
                &format!(
                    "two [[design]] entries are labelled `{label}` (the first on line {})",
                    first.at.line
                ),
                "give each design its own label",
            ));
        }
        out.push(Design {
            label,
            settings,
            at: label_at,
        });
    }
    Ok(out)
}
