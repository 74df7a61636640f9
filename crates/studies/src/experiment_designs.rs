//! The designs of one `sweep` input: the product (or zip) of its `--vary` lists, or its
//! experiment file's `[[design]]` entries (parsed in `experiment_file`), each a labelled
//! design whose keys are those of `--vary`, one value each; and the label each curve gets.

use crate::experiment_file::Design;
use crate::experiments::vary::{self, expand, parse_vary};
use anyhow::bail;
use std::path::Path;

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
