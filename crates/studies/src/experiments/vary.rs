//! Design variants: `--vary KEY=V1,V2` lists expanded into designs (their cartesian
//! product, or zipped), and the label of each design made of what differs between the
//! designs of one study.
//!
//! A design is a list of `(key, value)` settings. Labels keep only the keys whose values
//! are not the same in every design, in the order they were first given, as
//! `vcs=2, switch_allocator=islip`.

use anyhow::{anyhow, bail};

/// At most this many designs in one study (each is a curve of simulations).
pub const MAX_DESIGNS: usize = 256;

/// One `--vary KEY=V1,V2,...`: a key and its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vary {
    /// The key (`vcs`, `routing`, `length`, ...).
    pub key: String,
    /// Its values, in the order given.
    pub values: Vec<String>,
}

/// Parses `KEY=V1,V2,...`. Values holding a comma (`length=mix:1,5,0.5`) are separated
/// by `;` instead: a list with a `;` is split on `;` only.
///
/// # Errors
/// No `=`, an empty key or value, or a value given twice.
pub fn parse_vary(spec: &str) -> anyhow::Result<Vary> {
    let help = "help: for example --vary vcs=2,4,8 (values holding a comma: --vary \"length=12;mix:1,5,0.5\")";
    let (key, list) = spec
        .split_once('=')
        .ok_or_else(|| anyhow!("--vary {spec}: expected KEY=V1,V2,...\n{help}"))?;
    let key = key.trim();
    if key.is_empty() {
        bail!("--vary {spec}: the key is empty\n{help}");
    }
    let sep = if list.contains(';') { ';' } else { ',' };
    let values: Vec<String> = list.split(sep).map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        bail!("--vary {spec}: a value is empty\n{help}");
    }
    for (i, v) in values.iter().enumerate() {
        if values[..i].contains(v) {
            bail!("--vary {spec}: `{v}` is given twice, so two designs would be the same\nhelp: give each value once");
        }
    }
    Ok(Vary {
        key: key.to_string(),
        values,
    })
}

/// The designs `varies` stand for: every combination of their values (the first key
/// varying slowest), or with `zip` the i-th value of every key together.
///
/// # Errors
/// A key varied twice, lists of different lengths with `zip`, or more than
/// [`MAX_DESIGNS`] designs.
pub fn expand(varies: &[Vary], zip: bool) -> anyhow::Result<Vec<Vec<(String, String)>>> {
    for (i, v) in varies.iter().enumerate() {
        if varies[..i].iter().any(|w| w.key == v.key) {
            bail!(
                "--vary {}: the key is varied twice\nhelp: give all its values in one --vary {}=V1,V2,...",
                v.key,
                v.key
            );
        }
    }
    if varies.is_empty() {
        return Ok(vec![Vec::new()]);
    }
    if zip {
        let n = varies[0].values.len();
        if let Some(v) = varies.iter().find(|v| v.values.len() != n) {
            bail!(
                "--zip: --vary {} has {} values but --vary {} has {n}\nhelp: zipped lists pair their i-th values, so give each the same number",
                v.key,
                v.values.len(),
                varies[0].key
            );
        }
        return Ok((0..n)
            .map(|i| {
                varies
                    .iter()
                    .map(|v| (v.key.clone(), v.values[i].clone()))
                    .collect()
            })
            .collect());
    }
    let count = varies
        .iter()
        .try_fold(1usize, |n, v| n.checked_mul(v.values.len()))
        .filter(|&n| n <= MAX_DESIGNS);
    if count.is_none() {
        bail!("--vary: more than {MAX_DESIGNS} designs\nhelp: vary fewer keys or values, or pair them with --zip");
    }
    let mut designs = vec![Vec::new()];
    for v in varies {
        designs = designs
            .into_iter()
            .flat_map(|d: Vec<(String, String)>| {
                v.values.iter().map(move |x| {
                    let mut d = d.clone();
                    d.push((v.key.clone(), x.clone()));
                    d
                })
            })
            .collect();
    }
    Ok(designs)
}

/// The keys whose value is not the same in every design (a key missing from a design
/// counts as a value of its own), in order of first appearance.
pub fn differing_keys(designs: &[Vec<(String, String)>]) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for d in designs {
        for (k, _) in d {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
    }
    keys.retain(|k| {
        let first = value_of(&designs[0], k);
        designs.iter().any(|d| value_of(d, k) != first)
    });
    keys
}

/// The value of `key` in `design`: the last one given, as later settings override.
pub fn value_of<'a>(design: &'a [(String, String)], key: &str) -> Option<&'a str> {
    design
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// `k=v, k=v` over `keys` (a key the design lacks is left out).
pub fn label(design: &[(String, String)], keys: &[String]) -> String {
    keys.iter()
        .filter_map(|k| value_of(design, k).map(|v| format!("{k}={v}")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `k=v, k=v` over every key of `design`, in its order.
pub fn label_all(design: &[(String, String)]) -> String {
    let keys: Vec<String> = design.iter().map(|(k, _)| k.clone()).collect();
    label(design, &keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(k: &str, v: &str) -> (String, String) {
        (k.to_string(), v.to_string())
    }

    #[test]
    fn product_and_zip() {
        let a = parse_vary("vcs=2,4").unwrap();
        let b = parse_vary("switch_allocator=islip,wavefront").unwrap();
        let p = expand(&[a.clone(), b.clone()], false).unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(
            p[1],
            vec![s("vcs", "2"), s("switch_allocator", "wavefront")]
        );
        let z = expand(&[a, b], true).unwrap();
        assert_eq!(z.len(), 2);
        assert_eq!(
            z[1],
            vec![s("vcs", "4"), s("switch_allocator", "wavefront")]
        );
        let c = parse_vary("buffer_depth=2,4,8").unwrap();
        assert!(expand(&[parse_vary("vcs=2,4").unwrap(), c], true).is_err());
    }

    #[test]
    fn bad_lists_are_refused() {
        assert!(parse_vary("vcs").is_err());
        assert!(parse_vary("vcs=2,,4").is_err());
        assert!(parse_vary("vcs=2,2").is_err());
        assert!(parse_vary("=2").is_err());
        let v = parse_vary("length=12;mix:1,5,0.5").unwrap();
        assert_eq!(v.values, vec!["12", "mix:1,5,0.5"]);
        let twice = [parse_vary("vcs=2").unwrap(), parse_vary("vcs=4").unwrap()];
        assert!(expand(&twice, false).is_err());
        let big: Vec<Vary> = (0..9)
            .map(|i| parse_vary(&format!("k{i}=1,2")).unwrap())
            .collect();
        assert!(expand(&big, false).is_err());
    }

    #[test]
    fn labels_keep_what_differs() {
        let d = vec![
            vec![
                s("length", "12"),
                s("vcs", "2"),
                s("switch_allocator", "islip"),
            ],
            vec![
                s("length", "12"),
                s("vcs", "4"),
                s("switch_allocator", "islip"),
            ],
            vec![s("length", "12"), s("vcs", "4")],
        ];
        let keys = differing_keys(&d);
        assert_eq!(keys, vec!["vcs", "switch_allocator"]);
        assert_eq!(label(&d[0], &keys), "vcs=2, switch_allocator=islip");
        assert_eq!(label(&d[2], &keys), "vcs=4");
    }
}
