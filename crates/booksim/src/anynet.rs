//! BookSim's `anynet` topology: the `network_file` listing read into an explicit flitsim
//! netlist.
//!
//! A listing line is `router R` followed by what the router is wired to: `node N` (a
//! terminal) or `router S` (a channel each way), each optionally followed by a channel
//! weight. BookSim takes a router-to-router weight as the latency of the channel from
//! `R` to `S` (the channel back keeps latency 1 unless its own line says otherwise).
//! flitsim writes one port per neighbour, so that a port's channel out and channel in
//! join the same two routers, in BookSim's order: neighbours by ascending router number.

use super::error::{ImportError, Origin};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest listing read.
const MAX_LISTING_BYTES: u64 = 1 << 20;

/// The routers of an anynet listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnyNet {
    /// Per router, in router order: its terminals' BookSim node numbers.
    nodes: Vec<Vec<u32>>,
    /// Per router: neighbour -> BookSim latency of the channel to it.
    links: Vec<BTreeMap<u32, u32>>,
}

impl AnyNet {
    /// Reads the listing at `path` (`origin` is where `network_file` was set).
    ///
    /// # Errors
    /// An unreadable or oversized file, a malformed line, or a listing flitsim cannot
    /// number as BookSim does.
    pub fn read(path: &Path, origin: &Origin) -> Result<AnyNet, ImportError> {
        let text = read_listing(path, origin)?;
        let mut nodes: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        let mut links: BTreeMap<u32, BTreeMap<u32, u32>> = BTreeMap::new();
        let mut owner: BTreeMap<u32, u32> = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let at = |message: String, help: &str| ImportError::Syntax {
                origin: Origin::File {
                    path: path.into(),
                    line: i + 1,
                },
                message,
                help: help.into(),
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            let head = match words.as_slice() {
                ["router", id, ..] => number(id).ok_or_else(|| {
                    at(format!("`{id}` is not a router number"), "write `router 0 ...`")
                })?,
                ["node", ..] => {
                    return Err(at(
                        "a line that starts with `node` cannot be imported: BookSim also counts its node as a router".into(),
                        "list each node on its router's line (`router R node N`)",
                    ))
                }
                _ => {
                    return Err(at(
                        format!("`{}` does not start with `router N`", line.trim()),
                        "write `router R` followed by `node N` and `router S` entries",
                    ))
                }
            };
            nodes.entry(head).or_default();
            links.entry(head).or_default();
            let mut rest = words[2..].iter().peekable();
            while let Some(kind) = rest.next() {
                let id = rest.next().and_then(|w| number(w)).ok_or_else(|| {
                    at(
                        format!("`{kind}` is not followed by a number"),
                        "write `node N` or `router S`",
                    )
                })?;
                let weight = match rest.peek().and_then(|w| number(w)) {
                    Some(w) => {
                        rest.next();
                        Some(w)
                    }
                    None => None,
                };
                match *kind {
                    "node" if weight.is_some() => {
                        return Err(at(
                            format!("the weight after `node {id}` cannot be imported: BookSim records it as a channel to router {id}"),
                            "remove node weights (BookSim's terminal channels then take 1 cycle)",
                        ))
                    }
                    "node" => {
                        if owner.insert(id, head).is_some_and(|r| r != head) {
                            return Err(at(
                                format!("node {id} is wired to two routers"),
                                "wire each node to one router",
                            ));
                        }
                        let list = nodes.entry(head).or_default();
                        if !list.contains(&id) {
                            list.push(id);
                        }
                    }
                    "router" if id == head => {
                        return Err(at(
                            format!("router {id} is wired to itself"),
                            "remove the entry",
                        ))
                    }
                    "router" => {
                        let w = weight.unwrap_or(1);
                        if w == 0 || w > flitsim_netlist::MAX_LATENCY - 1 {
                            return Err(at(
                                format!("channel weight {w} is outside 1 to {}", flitsim_netlist::MAX_LATENCY - 1),
                                "give a latency in cycles",
                            ));
                        }
                        links.entry(head).or_default().insert(id, w);
                        links.entry(id).or_default().entry(head).or_insert(1);
                        nodes.entry(id).or_default();
                    }
                    other => {
                        return Err(at(
                            format!("`{other}` is neither `node` nor `router`"),
                            "write `node N` or `router S`",
                        ))
                    }
                }
            }
        }
        numbered(path, nodes, links)
    }

    /// Routers.
    #[must_use]
    pub fn routers(&self) -> usize {
        self.nodes.len()
    }

    /// The explicit routers and channels (BookSim latency `L` becomes flitsim's `L + 1`,
    /// as for every imported channel).
    pub fn write(&self, out: &mut String) {
        for (r, nodes) in self.nodes.iter().enumerate() {
            let _ = writeln!(
                out,
                "\n[[router]]\nname = \"r{r}\"\nterminals = {}",
                nodes.len()
            );
            let ports: Vec<String> = self.links[r]
                .keys()
                .map(|s| format!("{{ name = \"r{s}\" }}"))
                .collect();
            let _ = writeln!(out, "ports = [{}]", ports.join(", "));
        }
        for (r, links) in self.links.iter().enumerate() {
            for (s, latency) in links {
                let _ = writeln!(
                    out,
                    "\n[[channel]]\nfrom = \"r{r}.r{s}\"\nto = \"r{s}.r{r}\"\nlatency = {}",
                    latency + 1
                );
            }
        }
    }
}

/// Routers numbered 0..R and nodes 0..N router by router (flitsim numbers terminals in
/// router order), else an error naming the listing.
fn numbered(
    path: &Path,
    nodes: BTreeMap<u32, Vec<u32>>,
    links: BTreeMap<u32, BTreeMap<u32, u32>>,
) -> Result<AnyNet, ImportError> {
    let refuse = |message: String, help: &str| ImportError::Syntax {
        origin: Origin::File {
            path: path.into(),
            line: 1,
        },
        message,
        help: help.into(),
    };
    if nodes.is_empty() {
        return Err(refuse(
            "the listing has no router".into(),
            "list `router 0 node 0 ...`",
        ));
    }
    if nodes.keys().copied().ne(0..nodes.len() as u32) {
        return Err(refuse(
            "the routers are not numbered 0, 1, 2, ... without a gap".into(),
            "number the routers from 0",
        ));
    }
    let mut next = 0;
    for list in nodes.values() {
        let mut sorted = list.clone();
        sorted.sort_unstable();
        if sorted.iter().copied().ne(next..next + sorted.len() as u32) {
            return Err(refuse(
                "the nodes are not numbered router by router (router 0's first, then router 1's, ...)".into(),
                "renumber the nodes so that flitsim's terminal t is BookSim's node t",
            ));
        }
        next += sorted.len() as u32;
    }
    Ok(AnyNet {
        nodes: nodes
            .into_values()
            .map(|mut l| {
                l.sort_unstable();
                l
            })
            .collect(),
        links: links.into_values().collect(),
    })
}

fn number(word: &str) -> Option<u32> {
    word.parse().ok()
}

/// The listing's text, from a regular file of at most [`MAX_LISTING_BYTES`].
fn read_listing(path: &Path, origin: &Origin) -> Result<String, ImportError> {
    let bad = |message: String| ImportError::BadValue {
        origin: origin.clone(),
        key: "network_file".into(),
        value: path.display().to_string(),
        message,
        help: "give the anynet listing's path (relative paths are read from the config's folder)"
            .into(),
    };
    let (file, meta) = flitsim_netlist::read::open_regular(path).map_err(|m| bad(m.to_string()))?;
    if meta.len() > MAX_LISTING_BYTES {
        return Err(bad(format!(
            "{} bytes is more than {MAX_LISTING_BYTES}",
            meta.len()
        )));
    }
    let mut text = String::new();
    file.take(MAX_LISTING_BYTES)
        .read_to_string(&mut text)
        .map_err(|e| bad(e.to_string()))?;
    Ok(text)
}

/// `network_file` resolved against the config's folder.
#[must_use]
pub fn listing_path(value: &str, origin: &Origin) -> PathBuf {
    let file = PathBuf::from(value);
    match origin {
        Origin::File { path, .. } if file.is_relative() => {
            path.parent().map_or(file.clone(), |dir| dir.join(&file))
        }
        _ => file,
    }
}
