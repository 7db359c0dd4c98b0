//! Filtering, sorting and paging the browse index.
//!
//! A filter is checked per group first (experiment, configuration, puzzle, size, params
//! are the same for every row of a group), then the numeric conditions run over the row
//! columns in parallel chunks. Sorting only orders as many rows as the requested page
//! needs (`select_nth_unstable_by`), so the first pages of a million matches are cheap.
//! Ties are broken by the row's place in the dataset, so a page is the same each time.

use std::cmp::Ordering;
use std::collections::HashMap;

use rayon::prelude::*;
use serde::Serialize;

use crate::error::ViewError;
use crate::index::{EXHAUSTIVE, Index, SOLVABLE};

/// The most rows a page may ask for.
pub const MAX_PER_PAGE: usize = 500;

/// A parsed browse request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    pub puzzle: Option<String>,
    pub experiment: Option<String>,
    pub config: Option<String>,
    pub params: Option<String>,
    pub n: Option<i32>,
    pub solvable: Option<bool>,
    pub exhaustive: Option<bool>,
    pub score_min: Option<i32>,
    pub score_max: Option<i32>,
    pub exp_min: Option<i64>,
    pub exp_max: Option<i64>,
    pub sort: SortKey,
    pub desc: bool,
    pub page: usize,
    pub per: usize,
}

/// What a page can be sorted by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SortKey {
    /// The dataset's order: part files by path, rows in file order.
    #[default]
    Dataset,
    GameIndex,
    Score,
    Expansions,
    Wall,
    Experiment,
    Config,
    N,
}

const SORT_NAMES: &[(&str, SortKey)] = &[
    ("dataset", SortKey::Dataset),
    ("game_index", SortKey::GameIndex),
    ("score", SortKey::Score),
    ("min_stones", SortKey::Score),
    ("expansions", SortKey::Expansions),
    ("wall_ns", SortKey::Wall),
    ("experiment", SortKey::Experiment),
    ("config", SortKey::Config),
    ("n", SortKey::N),
];

fn bad(field: &'static str, value: &str, expected: &str) -> ViewError {
    ViewError::BadQuery {
        field,
        value: value.to_owned(),
        expected: expected.to_owned(),
    }
}

fn number<T: std::str::FromStr>(field: &'static str, value: &str) -> Result<T, ViewError> {
    value
        .trim()
        .parse()
        .map_err(|_| bad(field, value, "a whole number"))
}

fn boolean(field: &'static str, value: &str) -> Result<bool, ViewError> {
    match value.trim() {
        "true" | "yes" | "1" => Ok(true),
        "false" | "no" | "0" => Ok(false),
        _ => Err(bad(field, value, "true or false")),
    }
}

impl Filter {
    /// Parses the query string's pairs; empty values mean "any", unknown keys are refused.
    pub fn parse(pairs: &HashMap<String, String>) -> Result<Filter, ViewError> {
        let mut f = Filter {
            per: 50,
            ..Filter::default()
        };
        for (key, value) in pairs {
            if value.trim().is_empty() {
                continue;
            }
            let text = || Some(value.trim().to_owned());
            match key.as_str() {
                "puzzle" => f.puzzle = text(),
                "experiment" => f.experiment = text(),
                "config" => f.config = text(),
                "params" => f.params = text(),
                "n" => f.n = Some(number("n", value)?),
                "solvable" => f.solvable = Some(boolean("solvable", value)?),
                "exhaustive" => f.exhaustive = Some(boolean("exhaustive", value)?),
                "score_min" => f.score_min = Some(number("score_min", value)?),
                "score_max" => f.score_max = Some(number("score_max", value)?),
                "exp_min" => f.exp_min = Some(number("exp_min", value)?),
                "exp_max" => f.exp_max = Some(number("exp_max", value)?),
                "sort" => {
                    f.sort = SORT_NAMES
                        .iter()
                        .find(|(name, _)| *name == value.trim())
                        .map(|(_, k)| *k)
                        .ok_or_else(|| {
                            let names: Vec<&str> = SORT_NAMES.iter().map(|(n, _)| *n).collect();
                            bad("sort", value, &format!("one of {}", names.join(", ")))
                        })?;
                }
                "desc" => f.desc = boolean("desc", value)?,
                "page" => f.page = number("page", value)?,
                "per" => {
                    f.per = number("per", value)?;
                    if f.per == 0 || f.per > MAX_PER_PAGE {
                        return Err(bad("per", value, &format!("1 to {MAX_PER_PAGE}")));
                    }
                }
                // The page's own state (the tab shown) may ride along in the same URL.
                "token" | "view" => {}
                _ => {
                    return Err(ViewError::UnknownField { field: key.clone() });
                }
            }
        }
        Ok(f)
    }

    fn group_matches(&self, index: &Index) -> Vec<bool> {
        index
            .groups
            .iter()
            .map(|g| {
                self.puzzle.as_ref().is_none_or(|v| *v == g.puzzle)
                    && self.experiment.as_ref().is_none_or(|v| *v == g.experiment)
                    && self.config.as_ref().is_none_or(|v| *v == g.config)
                    && self.params.as_ref().is_none_or(|v| *v == g.params)
                    && self.n.is_none_or(|v| v == g.n)
            })
            .collect()
    }

    fn row_matches(&self, index: &Index, i: usize) -> bool {
        let flags = index.flags[i];
        let score = index.score[i];
        let exp = index.expansions[i];
        self.solvable.is_none_or(|v| v == (flags & SOLVABLE != 0))
            && self
                .exhaustive
                .is_none_or(|v| v == (flags & EXHAUSTIVE != 0))
            && self.score_min.is_none_or(|v| score >= v)
            && self.score_max.is_none_or(|v| score <= v)
            && self.exp_min.is_none_or(|v| exp >= v)
            && self.exp_max.is_none_or(|v| exp <= v)
    }
}

/// One page of matching rows: their places in the index, and how many rows matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Page {
    pub total: usize,
    pub rows: Vec<usize>,
}

/// The rows of `index` that `filter` keeps, sorted and cut to its page.
pub fn run(index: &Index, filter: &Filter) -> Page {
    let groups = filter.group_matches(index);
    let mut matches: Vec<usize> = (0..index.len())
        .into_par_iter()
        .with_min_len(1 << 14)
        .filter(|&i| groups[index.group[i] as usize] && filter.row_matches(index, i))
        .collect();
    let total = matches.len();
    let start = filter.page.saturating_mul(filter.per).min(total);
    let end = start.saturating_add(filter.per).min(total);
    if filter.sort != SortKey::Dataset || filter.desc {
        let ranks = group_ranks(index, filter.sort);
        let cmp = |a: &usize, b: &usize| {
            let by_key = compare(index, &ranks, filter.sort, *a, *b);
            let by_key = if filter.desc {
                by_key.reverse()
            } else {
                by_key
            };
            by_key.then(a.cmp(b))
        };
        if end < total && end > 0 {
            matches.select_nth_unstable_by(end - 1, cmp);
            matches.truncate(end);
        }
        matches.par_sort_unstable_by(cmp);
    }
    Page {
        total,
        rows: matches
            .get(start..end)
            .map(<[usize]>::to_vec)
            .unwrap_or_default(),
    }
}

/// For the sorts by a group's string: each group's rank in that order.
fn group_ranks(index: &Index, key: SortKey) -> Vec<u32> {
    let mut order: Vec<usize> = (0..index.groups.len()).collect();
    let g = &index.groups;
    match key {
        SortKey::Experiment => order.sort_by(|&a, &b| {
            (&g[a].experiment, &g[a].params, &g[a].config).cmp(&(
                &g[b].experiment,
                &g[b].params,
                &g[b].config,
            ))
        }),
        SortKey::Config => order.sort_by(|&a, &b| {
            (&g[a].config, &g[a].experiment, &g[a].params).cmp(&(
                &g[b].config,
                &g[b].experiment,
                &g[b].params,
            ))
        }),
        _ => {}
    }
    let mut ranks = vec![0u32; order.len()];
    for (rank, &group) in order.iter().enumerate() {
        ranks[group] = rank as u32;
    }
    ranks
}

fn compare(index: &Index, ranks: &[u32], key: SortKey, a: usize, b: usize) -> Ordering {
    match key {
        SortKey::Dataset => a.cmp(&b),
        SortKey::GameIndex => index.game_index[a].cmp(&index.game_index[b]),
        SortKey::Score => index.score[a].cmp(&index.score[b]),
        SortKey::Expansions => index.expansions[a].cmp(&index.expansions[b]),
        SortKey::Wall => index.wall_ns[a].cmp(&index.wall_ns[b]),
        SortKey::N => index.groups[index.group[a] as usize]
            .n
            .cmp(&index.groups[index.group[b] as usize].n),
        SortKey::Experiment | SortKey::Config => ranks[index.group[a] as usize]
            .cmp(&ranks[index.group[b] as usize])
            .then(index.game_index[a].cmp(&index.game_index[b])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::Group;

    fn index() -> Index {
        let group = |experiment: &str, n| Group {
            sweep: "s".into(),
            experiment: experiment.into(),
            config: "c".into(),
            params: format!("n={n}"),
            puzzle: "martello".into(),
            n,
            order: "standard".into(),
            schedule: "exact".into(),
        };
        let rows = 10usize;
        Index {
            groups: vec![group("b", 6), group("a", 5)],
            group: (0..rows).map(|i| (i % 2) as u32).collect(),
            part: vec![0; rows],
            row: (0..rows as u32).collect(),
            game_index: (0..rows as i64).collect(),
            score: (0..rows as i32).map(|i| 1 + i % 3).collect(),
            flags: (0..rows)
                .map(|i| if i % 3 == 0 { SOLVABLE } else { 0 })
                .collect(),
            expansions: (0..rows as i64).map(|i| (i * 7) % 10).collect(),
            wall_ns: vec![0; rows],
            ..Index::default()
        }
    }

    fn filter(pairs: &[(&str, &str)]) -> Result<Filter, ViewError> {
        Filter::parse(
            &pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn filters_sorts_and_pages() {
        let index = index();
        let f = filter(&[
            ("n", "5"),
            ("sort", "expansions"),
            ("desc", "true"),
            ("per", "2"),
        ])
        .unwrap();
        let page = run(&index, &f);
        assert_eq!(page.total, 5);
        // rows 1,3,5,7,9 have expansions 7,1,5,9,3: descending 9 (row 7), 7 (row 1)
        assert_eq!(page.rows, vec![7, 1]);
        let f = filter(&[
            ("n", "5"),
            ("sort", "expansions"),
            ("desc", "true"),
            ("per", "2"),
            ("page", "2"),
        ])
        .unwrap();
        assert_eq!(run(&index, &f).rows, vec![3]);
        let f = filter(&[("solvable", "true"), ("experiment", "b")]).unwrap();
        assert_eq!(run(&index, &f).rows, vec![0, 6]);
        let f = filter(&[("sort", "experiment"), ("per", "3")]).unwrap();
        assert_eq!(run(&index, &f).rows, vec![1, 3, 5]);
    }

    #[test]
    fn bad_fields_are_named() {
        let e = filter(&[("n", "six")]).unwrap_err().to_string();
        assert!(e.contains("n") && e.contains("six"), "{e}");
        let e = filter(&[("colour", "red")]).unwrap_err().to_string();
        assert!(e.contains("colour"), "{e}");
        let e = filter(&[("sort", "size")]).unwrap_err().to_string();
        assert!(e.contains("size") && e.contains("expansions"), "{e}");
        assert!(filter(&[("per", "100000")]).is_err());
        assert_eq!(filter(&[("n", "")]).unwrap().n, None);
    }
}
