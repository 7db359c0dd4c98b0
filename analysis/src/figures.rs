//! One function per figure of the report. Each returns a [`Figure`] with its tables and
//! charts, or a figure marked missing that names the example sweep producing its rows.

use std::collections::{BTreeMap, BTreeSet};

use crate::load::Row;
use crate::paper;
use crate::prepare::{GameKey, Prepared};
use crate::report::{Cell, Chart, Figure, Point, Scale, Series, SeriesKind, Table};
use crate::stats::{Mean, Proportion, mean_t, paired_ratio, quantile, wilson, within};

pub const EXAMPLE_SOLVABILITY: &str = "examples/fig05_fig08_solvability.toml";
pub const EXAMPLE_PREFIX: &str = "examples/fig07_random_prefix.toml";
pub const EXAMPLE_ORDERS: &str = "examples/fig13_move_orders.toml";
pub const EXAMPLE_BUDGETS: &str = "examples/fig14_16_budgets.toml";
pub const EXAMPLE_META: &str = "examples/meta_solver.toml";

/// The verdict column: whether the published value lies in our 95% interval.
fn verdict(report: Option<f64>, low: f64, high: f64) -> Cell {
    match report {
        None => Cell::Empty,
        Some(v) => match within(v, low, high) {
            Some(true) => Cell::text("yes"),
            Some(false) => Cell::text("no"),
            None => Cell::text("no interval"),
        },
    }
}

fn verdict_word(report: f64, low: f64, high: f64) -> &'static str {
    match within(report, low, high) {
        Some(true) => "agrees (inside our 95% interval)",
        Some(false) => "differs (outside our 95% interval)",
        None => "cannot be compared (no interval)",
    }
}

fn prop_cells(p: &Proportion) -> [Cell; 3] {
    [
        Cell::num(p.value, 5),
        Cell::num(p.low, 5),
        Cell::num(p.high, 5),
    ]
}

fn mean_cells(m: &Mean) -> [Cell; 3] {
    [
        Cell::num(m.value, 1),
        Cell::num(m.low, 1),
        Cell::num(m.high, 1),
    ]
}

fn chart(name: &str, title: &str, x: &str, y: &str, xs: Scale, ys: Scale) -> Chart {
    Chart {
        name: name.to_owned(),
        title: title.to_owned(),
        x_label: x.to_owned(),
        y_label: y.to_owned(),
        x_scale: xs,
        y_scale: ys,
        categories: None,
        series: Vec::new(),
    }
}

fn series(name: impl Into<String>, kind: SeriesKind, points: Vec<Point>) -> Series {
    Series {
        name: name.into(),
        kind,
        points,
    }
}

fn count_text(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A table of the dataset's experiments, so the reader sees what the figures were made
/// from before looking at any figure.
pub fn overview(p: &Prepared) -> Figure {
    let mut fig = Figure::new(
        "dataset",
        "Dataset overview",
        "All rows, grouped by experiment and board size.",
        "",
    );
    #[derive(Default)]
    struct Acc {
        rows: u64,
        configs: BTreeSet<u32>,
        games: BTreeSet<i64>,
        orders: BTreeSet<u32>,
        schedules: BTreeSet<u32>,
        prefixes: BTreeSet<i32>,
        budgets: BTreeSet<i64>,
        trials: BTreeSet<i32>,
        exhaustive: u64,
    }
    let mut groups: BTreeMap<(&str, i32), Acc> = BTreeMap::new();
    for row in p.rows {
        let acc = groups.entry((p.name(row.experiment), row.n)).or_default();
        acc.rows += 1;
        acc.configs.insert(row.config);
        acc.games.insert(row.game_index);
        acc.orders.insert(row.order);
        acc.schedules.insert(row.schedule);
        acc.prefixes.insert(row.prefix);
        acc.budgets.insert(row.budget);
        acc.trials.insert(row.trial);
        acc.exhaustive += u64::from(row.exhaustive);
    }
    let join = |ids: &BTreeSet<u32>| {
        ids.iter()
            .map(|&i| p.name(i).to_owned())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let join_num = |v: Vec<String>| v.join(" ");
    let mut t = Table::new(
        "dataset_overview",
        "Rows per experiment and board size",
        &[
            "experiment",
            "n",
            "rows",
            "configs",
            "games",
            "exhaustive_rows",
            "orders",
            "schedules",
            "prefixes",
            "budgets",
            "trials",
        ],
    );
    for ((experiment, n), acc) in &groups {
        t.push(vec![
            Cell::text(*experiment),
            Cell::Int(i64::from(*n)),
            Cell::Int(acc.rows as i64),
            Cell::Int(acc.configs.len() as i64),
            Cell::Int(acc.games.len() as i64),
            Cell::Int(acc.exhaustive as i64),
            Cell::text(join(&acc.orders)),
            Cell::text(join(&acc.schedules)),
            Cell::text(join_num(
                acc.prefixes.iter().map(ToString::to_string).collect(),
            )),
            Cell::text(join_num(
                acc.budgets.iter().map(ToString::to_string).collect(),
            )),
            Cell::Int(acc.trials.len() as i64),
        ]);
    }
    fig.tables.push(t);
    fig
}

fn solvability_missing(fig: Figure) -> Figure {
    fig.missing(
        "the dataset has no exact results of unmodified games: rows with prefix 0, budget 0 \
         and a schedule that ends exact (exact, paper, luby, ...)",
    )
}

/// Figure 8: solvable ratio by board size.
pub fn fig08(p: &Prepared) -> Figure {
    let mut fig = Figure::new(
        "fig08",
        "Figure 8: solvable ratio by board size",
        "One exact result per game: rows with prefix 0, budget 0, exhaustive, and a schedule \
         that always ends exact; a game solved by several configurations counts once.",
        EXAMPLE_SOLVABILITY,
    );
    if p.facts.is_empty() {
        return solvability_missing(fig);
    }
    let mut per_n: BTreeMap<i32, (u64, u64)> = BTreeMap::new();
    for (key, fact) in &p.facts {
        let e = per_n.entry(key.n).or_default();
        e.0 += 1;
        e.1 += u64::from(fact.solvable());
    }
    let mut t = Table::new(
        "fig08_solvable_ratio",
        "Solvable ratio by n (95% Wilson interval) beside the report's Figure 8",
        &[
            "n",
            "games",
            "solvable",
            "ratio",
            "ci_low",
            "ci_high",
            "report_ratio",
            "report_within_ci",
        ],
    );
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for (&n, &(games, solvable)) in &per_n {
        let prop = wilson(solvable, games);
        let report = paper::FIG8_SOLVABLE
            .iter()
            .find(|(m, _)| *m == n)
            .map(|(_, v)| *v);
        let [v, lo, hi] = prop_cells(&prop);
        t.push(vec![
            Cell::Int(i64::from(n)),
            Cell::Int(games as i64),
            Cell::Int(solvable as i64),
            v,
            lo,
            hi,
            Cell::opt(report, 5),
            verdict(report, prop.low, prop.high),
        ]);
        ours.push(Point::new(f64::from(n), prop.value, prop.low, prop.high));
        if let Some(r) = report {
            theirs.push(Point::new(f64::from(n), r, f64::NAN, f64::NAN));
            fig.notes.push(format!(
                "n={n}: {:.5} (95% CI {:.5} to {:.5}, {} games) vs the report's {r:.5}: {}.",
                prop.value,
                prop.low,
                prop.high,
                count_text(games),
                verdict_word(r, prop.low, prop.high)
            ));
        }
    }
    if !theirs.is_empty() {
        fig.notes.push(
            "The report gives no sample size per board size (only its 2,918,608 6x6 games), so \
             its values carry sampling error of their own: with a large sample here, a report \
             value just outside our interval need not be a real disagreement."
                .to_owned(),
        );
    }
    let mut c = chart(
        "fig08_solvable_ratio",
        "Solvable ratio by board size",
        "board size n",
        "share of games solvable",
        Scale::Linear,
        Scale::Linear,
    );
    c.series
        .push(series("hammer (95% Wilson)", SeriesKind::Line, ours));
    c.series
        .push(series("report 2013", SeriesKind::Report, theirs));
    fig.tables.push(t);
    fig.charts.push(c);
    fig
}

/// Figure 5: distribution of the minimum stone count among unsolvable games.
pub fn fig05(p: &Prepared) -> Figure {
    let mut fig = Figure::new(
        "fig05",
        "Figure 5: minimum stone count of unsolvable games",
        "The exact results of Figure 8 whose minimum stone count is above 1.",
        EXAMPLE_SOLVABILITY,
    );
    if p.facts.is_empty() {
        return solvability_missing(fig);
    }
    let mut games: BTreeMap<i32, u64> = BTreeMap::new();
    let mut counts: BTreeMap<(i32, i32), u64> = BTreeMap::new();
    for (key, fact) in &p.facts {
        *games.entry(key.n).or_default() += 1;
        if !fact.solvable() {
            *counts.entry((key.n, fact.min_stones)).or_default() += 1;
        }
    }
    let unsolvable = |n: i32| -> u64 {
        counts
            .iter()
            .filter(|((m, _), _)| *m == n)
            .map(|(_, c)| *c)
            .sum()
    };
    if counts.is_empty() {
        return fig.missing(format!(
            "none of the {} exactly solved games is unsolvable; a larger sample is needed \
             (at n=6 about 1.65% are)",
            count_text(p.facts.len() as u64)
        ));
    }
    let mut t = Table::new(
        "fig05_min_stones",
        "Minimum stone count among unsolvable games (share of unsolvable and of all games, \
         95% Wilson intervals)",
        &[
            "n",
            "min_stones",
            "games",
            "share_of_unsolvable",
            "ci_low",
            "ci_high",
            "share_of_all",
            "all_ci_low",
            "all_ci_high",
            "report_share_of_all",
            "report_within_ci",
        ],
    );
    let mut c = chart(
        "fig05_min_stones",
        "Minimum stone count of unsolvable games",
        "minimum stone count",
        "share of unsolvable games",
        Scale::Linear,
        Scale::Linear,
    );
    for (&n, &all) in &games {
        let unsolv = unsolvable(n);
        if unsolv == 0 {
            fig.notes.push(format!(
                "n={n}: none of {} games is unsolvable.",
                count_text(all)
            ));
            continue;
        }
        // Every count from 2 to n*n, zeros included, for real board sizes (n comes from a
        // directory name, so anything else gets only the counts seen), plus any value seen
        // outside that range.
        let mut values: BTreeSet<i32> = counts
            .keys()
            .filter(|(m, _)| *m == n)
            .map(|(_, s)| *s)
            .collect();
        if (1..=8).contains(&n) {
            values.extend(2..=n * n);
        }
        let mut pts = Vec::new();
        for m in values {
            let k = counts.get(&(n, m)).copied().unwrap_or(0);
            let share = wilson(k, unsolv);
            let of_all = wilson(k, all);
            let report = (n == 6 && m == 36)
                .then(|| paper::FIG5_STUCK.0 as f64 / paper::FIG5_STUCK.1 as f64);
            let [v, lo, hi] = prop_cells(&share);
            t.push(vec![
                Cell::Int(i64::from(n)),
                Cell::Int(i64::from(m)),
                Cell::Int(k as i64),
                v,
                lo,
                hi,
                Cell::num(of_all.value, 7),
                Cell::num(of_all.low, 7),
                Cell::num(of_all.high, 7),
                Cell::opt(report, 7),
                verdict(report, of_all.low, of_all.high),
            ]);
            pts.push(Point::new(f64::from(m), share.value, share.low, share.high));
        }
        fig.notes.push(format!(
            "n={n}: {} of {} games unsolvable ({:.3}%).",
            count_text(unsolv),
            count_text(all),
            100.0 * unsolv as f64 / all as f64
        ));
        c.series
            .push(series(format!("n={n}"), SeriesKind::Line, pts));
    }
    if games.contains_key(&6) {
        fig.notes.push(
            "The report found 2 of 2,918,608 6x6 games stuck from the start (36 stones), a \
             share of 6.9e-7; the row n=6, min_stones=36 compares ours with it."
                .to_owned(),
        );
    }
    fig.tables.push(t);
    fig.charts.push(c);
    fig
}

/// Figure 7: share of solvable games still solvable after I random moves.
pub fn fig07(p: &Prepared) -> Figure {
    let mut fig = Figure::new(
        "fig07",
        "Figure 7: solvable games still solvable after I random moves",
        "Rows with prefix I >= 1, no budget and a schedule that ends exact, on games whose \
         exact prefix-0 result (Figure 8's sample) is solvable. Configurations with the same \
         trial share the random prefix, so one start per (game, I, trial) is counted.",
        EXAMPLE_PREFIX,
    );
    let prefix_rows: Vec<&Row> = p
        .rows
        .iter()
        .filter(|r| r.prefix >= 1 && r.budget == 0 && p.is_complete(r.schedule))
        .collect();
    if prefix_rows.is_empty() {
        return fig.missing(
            "the dataset has no rows with a random prefix (prefix >= 1, no budget, a schedule \
             that ends exact)",
        );
    }
    // (game, I, trial) -> still solvable?; only starts whose solvability is known.
    let mut starts: BTreeMap<(GameKey, i32, i32), bool> = BTreeMap::new();
    let mut no_fact = 0u64;
    let mut unknown = 0u64;
    let mut conflicts = 0u64;
    let mut solvable_games: BTreeMap<i32, BTreeSet<GameKey>> = BTreeMap::new();
    for r in prefix_rows {
        let key = GameKey::of(r);
        match p.facts.get(&key) {
            None => no_fact += 1,
            Some(f) if !f.solvable() => {}
            Some(_) => {
                if !(r.exhaustive || r.solvable) {
                    unknown += 1;
                    continue;
                }
                solvable_games.entry(key.n).or_default().insert(key);
                match starts.get(&(key, r.prefix, r.trial)) {
                    Some(&s) if s != r.solvable => conflicts += 1,
                    Some(_) => {}
                    None => {
                        starts.insert((key, r.prefix, r.trial), r.solvable);
                    }
                }
            }
        }
    }
    if starts.is_empty() {
        return fig.missing(format!(
            "the {} random-prefix rows have no exact prefix-0 result of the same game that is \
             solvable; the example sweep solves every game with and without a prefix",
            count_text(no_fact)
        ));
    }
    if no_fact > 0 {
        fig.notes.push(format!(
            "{} random-prefix row(s) left out: their game has no exact prefix-0 result.",
            count_text(no_fact)
        ));
    }
    if unknown > 0 {
        fig.notes.push(format!(
            "{} row(s) left out: not exhaustive and not solved, so their solvability is unknown.",
            count_text(unknown)
        ));
    }
    if conflicts > 0 {
        fig.notes.push(format!(
            "{conflicts} row(s) disagree with another row of the same start; the first is used."
        ));
    }
    let mut per: BTreeMap<(i32, i32), (u64, u64)> = BTreeMap::new();
    for (&(key, prefix, _), &solv) in &starts {
        let e = per.entry((key.n, prefix)).or_default();
        e.0 += 1;
        e.1 += u64::from(solv);
    }
    let mut t = Table::new(
        "fig07_random_prefix",
        "Share of solvable games still solvable after I random moves (95% Wilson interval)",
        &[
            "n",
            "moves",
            "starts",
            "still_solvable",
            "share",
            "ci_low",
            "ci_high",
            "report_share",
            "report_within_ci",
        ],
    );
    fig.notes.push(
        "The report used \"several thousand solvable games\", so its own values carry about \
         one percentage point of sampling error (95%) at five moves: a report value just \
         outside our interval need not be a real disagreement."
            .to_owned(),
    );
    let mut c = chart(
        "fig07_random_prefix",
        "Solvable games still solvable after I random moves",
        "random moves played first (I)",
        "share still solvable",
        Scale::Linear,
        Scale::Linear,
    );
    let sizes: BTreeSet<i32> = per.keys().map(|(n, _)| *n).collect();
    for &n in &sizes {
        let base = solvable_games.get(&n).map_or(0, BTreeSet::len) as i64;
        t.push(vec![
            Cell::Int(i64::from(n)),
            Cell::Int(0),
            Cell::Int(base),
            Cell::Int(base),
            Cell::num(1.0, 5),
            Cell::Empty,
            Cell::Empty,
            Cell::Empty,
            Cell::Empty,
        ]);
        let mut pts = vec![Point::new(0.0, 1.0, f64::NAN, f64::NAN)];
        let mut rep = Vec::new();
        for (&(_, prefix), &(total, solv)) in per.range((n, i32::MIN)..=(n, i32::MAX)) {
            let prop = wilson(solv, total);
            let report = (n == 6)
                .then(|| {
                    paper::FIG7_STILL_SOLVABLE
                        .iter()
                        .find(|(i, _)| *i == prefix)
                        .map(|(_, v)| *v)
                })
                .flatten();
            let [v, lo, hi] = prop_cells(&prop);
            t.push(vec![
                Cell::Int(i64::from(n)),
                Cell::Int(i64::from(prefix)),
                Cell::Int(total as i64),
                Cell::Int(solv as i64),
                v,
                lo,
                hi,
                Cell::opt(report, 5),
                verdict(report, prop.low, prop.high),
            ]);
            pts.push(Point::new(
                f64::from(prefix),
                prop.value,
                prop.low,
                prop.high,
            ));
            if let Some(r) = report {
                rep.push(Point::new(f64::from(prefix), r, f64::NAN, f64::NAN));
                fig.notes.push(format!(
                    "n=6, I={prefix}: {:.4} (95% CI {:.4} to {:.4}, {} starts) vs the \
                     report's {r:.3}: {}.",
                    prop.value,
                    prop.low,
                    prop.high,
                    count_text(total),
                    verdict_word(r, prop.low, prop.high)
                ));
            }
        }
        c.series
            .push(series(format!("n={n}"), SeriesKind::Line, pts));
        if !rep.is_empty() {
            c.series
                .push(series("report 2013 (n=6)", SeriesKind::Report, rep));
        }
    }
    fig.notes.push(
        "Starts of the same game are not independent (they share the board), so the Wilson \
         intervals, which assume independent starts, are somewhat too narrow when a game \
         has several trials."
            .to_owned(),
    );
    fig.tables.push(t);
    fig.charts.push(c);
    fig
}

/// Rows of Figures 11 and 12: exact standard-order search of the unmodified game.
fn exact_standard_missing(fig: Figure) -> Figure {
    fig.missing(
        "the dataset has no exhaustive rows with order standard, schedule exact, prefix 0 and \
         budget 0",
    )
}

/// Figure 11: mean expansions by minimum stone count.
pub fn fig11(p: &Prepared) -> Figure {
    let mut fig = Figure::new(
        "fig11",
        "Figure 11: mean expansions by minimum stone count",
        "Exhaustive rows with order standard, schedule exact, prefix 0, budget 0 (one per \
         game).",
        EXAMPLE_SOLVABILITY,
    );
    if p.exact_standard.is_empty() {
        return exact_standard_missing(fig);
    }
    let mut groups: BTreeMap<(i32, i32), Vec<f64>> = BTreeMap::new();
    for (key, &(exp, min)) in &p.exact_standard {
        groups.entry((key.n, min)).or_default().push(exp as f64);
    }
    let mut t = Table::new(
        "fig11_expansions_by_min_stones",
        "Mean expansions of the exact standard-order search by minimum stone count (95% t \
         interval)",
        &[
            "n",
            "min_stones",
            "games",
            "mean_expansions",
            "ci_low",
            "ci_high",
            "median",
            "max",
            "report_mean",
            "report_within_ci",
        ],
    );
    let mut c = chart(
        "fig11_expansions_by_min_stones",
        "Mean expansions by minimum stone count",
        "minimum stone count",
        "mean expansions (exact, standard order)",
        Scale::Linear,
        Scale::Log,
    );
    let sizes: BTreeSet<i32> = groups.keys().map(|(n, _)| *n).collect();
    for &n in &sizes {
        let mut pts = Vec::new();
        for (&(_, min), values) in groups.range((n, i32::MIN)..=(n, i32::MAX)) {
            let m = mean_t(values);
            let mut sorted = values.clone();
            sorted.sort_by(f64::total_cmp);
            let report = (n == 6 && min == 1).then_some(paper::FIG11_SOLVABLE_MEAN);
            let [v, lo, hi] = mean_cells(&m);
            t.push(vec![
                Cell::Int(i64::from(n)),
                Cell::Int(i64::from(min)),
                Cell::Int(m.count as i64),
                v,
                lo,
                hi,
                Cell::num(quantile(&sorted, 0.5), 0),
                Cell::num(sorted.last().copied().unwrap_or(f64::NAN), 0),
                Cell::opt(report, 0),
                verdict(report, m.low, m.high),
            ]);
            if m.value > 0.0 {
                pts.push(Point::new(f64::from(min), m.value, m.low, m.high));
            }
            if let Some(r) = report {
                fig.notes.push(format!(
                    "n=6 solvable games: {:.0} expansions on average (95% CI {:.0} to {:.0}) vs \
                     about {r:.0} in the report: {}. The two are not expected to agree: the \
                     report's solver explored about 170,000 states per second without a lower \
                     bound, while ours prunes with a sound lower bound (connected components of \
                     the shares-colour-or-symbol graph) and stops as soon as it is reached, and \
                     counts an expansion per generated successor list.",
                    m.value,
                    m.low,
                    m.high,
                    verdict_word(r, m.low, m.high)
                ));
            }
        }
        c.series
            .push(series(format!("n={n}"), SeriesKind::Line, pts));
    }
    fig.tables.push(t);
    fig.charts.push(c);
    fig
}

/// Lower edge of quarter-decade bin `b` (bin -1 holds zero expansions).
fn bin_edge(b: i32) -> f64 {
    if b < 0 {
        0.0
    } else {
        10f64.powf(f64::from(b) / 4.0)
    }
}

fn bin_of(v: i64) -> i32 {
    if v < 1 {
        return -1;
    }
    let mut b = ((v as f64).log10() * 4.0).floor() as i32;
    // Guard against rounding at exact powers: v must lie in [edge(b), edge(b+1)).
    while b > 0 && (v as f64) < bin_edge(b) {
        b -= 1;
    }
    while (v as f64) >= bin_edge(b + 1) {
        b += 1;
    }
    b
}

/// Figure 12: histogram of expansions of solvable games.
pub fn fig12(p: &Prepared) -> Figure {
    let mut fig = Figure::new(
        "fig12",
        "Figure 12: expansions of solvable games (histogram, log bins)",
        "The rows of Figure 11 with minimum stone count 1; four bins per power of ten, bin \
         [a, b) holds a <= expansions < b.",
        EXAMPLE_SOLVABILITY,
    );
    let mut per_n: BTreeMap<i32, Vec<i64>> = BTreeMap::new();
    for (key, &(exp, min)) in &p.exact_standard {
        if min == 1 {
            per_n.entry(key.n).or_default().push(exp);
        }
    }
    if per_n.is_empty() {
        return exact_standard_missing(fig);
    }
    let mut hist = Table::new(
        "fig12_histogram",
        "Expansions of solvable games, quarter-decade bins (share with 95% Wilson interval)",
        &[
            "n", "bin_low", "bin_high", "games", "share", "ci_low", "ci_high",
        ],
    );
    let mut summary = Table::new(
        "fig12_summary",
        "Expansions of solvable games: mean (95% t interval), quantiles, and the share the \
         report discusses",
        &[
            "n",
            "games",
            "mean",
            "ci_low",
            "ci_high",
            "median",
            "p90",
            "p99",
            "max",
            "share_at_most_100000",
            "share_ci_low",
            "share_ci_high",
            "share_below_mean",
            "report_mean",
            "report_within_ci",
        ],
    );
    let mut c = chart(
        "fig12_expansions_histogram",
        "Expansions of solvable games",
        "expansions (exact, standard order; bin centre)",
        "share of solvable games",
        Scale::Log,
        Scale::Linear,
    );
    for (&n, values) in &per_n {
        let total = values.len() as u64;
        let mut bins: BTreeMap<i32, u64> = BTreeMap::new();
        for &v in values {
            *bins.entry(bin_of(v)).or_default() += 1;
        }
        let mut pts = Vec::new();
        if let (Some(&lo), Some(&hi)) = (bins.keys().next(), bins.keys().next_back()) {
            for b in lo..=hi {
                let k = bins.get(&b).copied().unwrap_or(0);
                let prop = wilson(k, total);
                let [v, l, h] = prop_cells(&prop);
                hist.push(vec![
                    Cell::Int(i64::from(n)),
                    Cell::num(bin_edge(b), 1),
                    Cell::num(bin_edge(b + 1), 1),
                    Cell::Int(k as i64),
                    v,
                    l,
                    h,
                ]);
                if b >= 0 {
                    let centre = 10f64.powf((f64::from(b) + 0.5) / 4.0);
                    pts.push(Point::new(centre, prop.value, prop.low, prop.high));
                }
            }
        }
        let f: Vec<f64> = values.iter().map(|&v| v as f64).collect();
        let m = mean_t(&f);
        let mut sorted = f.clone();
        sorted.sort_by(f64::total_cmp);
        let small = wilson(
            values.iter().filter(|&&v| v <= 100_000).count() as u64,
            total,
        );
        let below_mean = f.iter().filter(|&&v| v < m.value).count() as f64 / total as f64;
        let report = (n == 6).then_some(paper::FIG11_SOLVABLE_MEAN);
        let [mv, ml, mh] = mean_cells(&m);
        let [sv, sl, sh] = prop_cells(&small);
        summary.push(vec![
            Cell::Int(i64::from(n)),
            Cell::Int(total as i64),
            mv,
            ml,
            mh,
            Cell::num(quantile(&sorted, 0.5), 0),
            Cell::num(quantile(&sorted, 0.9), 0),
            Cell::num(quantile(&sorted, 0.99), 0),
            Cell::num(sorted.last().copied().unwrap_or(f64::NAN), 0),
            sv,
            sl,
            sh,
            Cell::num(below_mean, 5),
            Cell::opt(report, 0),
            verdict(report, m.low, m.high),
        ]);
        c.series
            .push(series(format!("n={n}"), SeriesKind::Line, pts));
        if n == 6 {
            fig.notes.push(format!(
                "n=6: {:.1}% of solvable games need at most 100,000 expansions and {:.1}% fall \
                 below the mean; the report saw most games under 100,000 and almost all below \
                 its mean of 230,000, with a long tail above a million.",
                100.0 * small.value,
                100.0 * below_mean
            ));
        }
    }
    fig.tables.push(hist);
    fig.tables.push(summary);
    fig.charts.push(c);
    fig
}

type Runs = BTreeMap<(i32, String), BTreeMap<GameKey, Vec<f64>>>;

/// Drops the trial numbers once runs are deduplicated.
fn runs_of(trials: BTreeMap<(i32, String), BTreeMap<GameKey, BTreeMap<i32, f64>>>) -> Runs {
    trials
        .into_iter()
        .map(|(k, games)| {
            let games = games
                .into_iter()
                .map(|(g, t)| (g, t.into_values().collect()))
                .collect();
            (k, games)
        })
        .collect()
}

/// Figure 13: mean expansions by move order on solvable games.
pub fn fig13(p: &Prepared) -> Figure {
    let mut fig = Figure::new(
        "fig13",
        "Figure 13: mean expansions by move order (solvable games)",
        "Exhaustive rows with schedule exact, prefix 0, budget 0 and a solvable result, \
         compared on the games that every order present solved; random is summarised per \
         game by the mean and by the minimum over its trials.",
        EXAMPLE_ORDERS,
    );
    let Some(exact) = p.ids.exact else {
        return fig.missing("the dataset has no rows with schedule exact");
    };
    // (n, order) -> game -> expansions of each run. Runs are told apart by trial (it picks
    // the run seed); the same configuration in two experiments is one run, not two.
    let mut trials: BTreeMap<(i32, String), BTreeMap<GameKey, BTreeMap<i32, f64>>> =
        BTreeMap::new();
    for r in p.rows {
        if r.schedule != exact || r.prefix != 0 || r.budget != 0 || !r.exhaustive || !r.solvable {
            continue;
        }
        trials
            .entry((r.n, p.name(r.order).to_owned()))
            .or_default()
            .entry(GameKey::of(r))
            .or_default()
            .entry(r.trial)
            .or_insert(r.expansions as f64);
    }
    let runs = runs_of(trials);
    let sizes: BTreeSet<i32> = runs
        .keys()
        .filter(|(n, _)| runs.keys().filter(|(m, _)| m == n).count() >= 2)
        .map(|(n, _)| *n)
        .collect();
    if sizes.is_empty() {
        return fig.missing(
            "the dataset has exact prefix-0 results of at most one move order per board size; \
             the figure compares standard, most-options, monte-carlo and random",
        );
    }
    let mut t = Table::new(
        "fig13_move_orders",
        "Mean expansions by move order on the same solvable games (95% t interval; ratio to \
         standard with a paired bootstrap interval)",
        &[
            "n",
            "order",
            "games",
            "runs_per_game",
            "mean_expansions",
            "ci_low",
            "ci_high",
            "ratio_to_standard",
            "ratio_ci_low",
            "ratio_ci_high",
            "report_mean",
            "report_within_ci",
        ],
    );
    let mut spread = Table::new(
        "fig13_random_spread",
        "Random order: mean over its trials against the minimum over its trials, per game \
         (paired bootstrap interval of the ratio of the two means)",
        &[
            "n",
            "games",
            "runs_per_game",
            "mean_of_means",
            "mean_of_minimums",
            "ratio",
            "ci_low",
            "ci_high",
            "report_ratio",
            "report_within_ci",
        ],
    );
    let mut labels: Vec<String> = Vec::new();
    let mut chart_points: BTreeMap<i32, Vec<(String, Mean)>> = BTreeMap::new();
    for &n in &sizes {
        let orders: Vec<(&String, &BTreeMap<GameKey, Vec<f64>>)> = runs
            .iter()
            .filter(|((m, _), _)| *m == n)
            .map(|((_, o), g)| (o, g))
            .collect();
        let common: BTreeSet<GameKey> = orders
            .iter()
            .map(|(_, g)| g.keys().copied().collect::<BTreeSet<_>>())
            .reduce(|a, b| a.intersection(&b).copied().collect())
            .unwrap_or_default();
        let most = orders.iter().map(|(_, g)| g.len()).max().unwrap_or(0);
        if common.len() < most {
            fig.notes.push(format!(
                "n={n}: compared on the {} games every order solved (the largest order set has \
                 {}).",
                common.len(),
                most
            ));
        }
        if common.is_empty() {
            continue;
        }
        // label -> per-game value, in `common` order.
        let mut lines: Vec<(String, Vec<f64>, String)> = Vec::new();
        for (order, games) in &orders {
            let per_game: Vec<&Vec<f64>> = common.iter().filter_map(|k| games.get(k)).collect();
            let min_runs = per_game.iter().map(|v| v.len()).min().unwrap_or(0);
            let max_runs = per_game.iter().map(|v| v.len()).max().unwrap_or(0);
            let runs_text = if min_runs == max_runs {
                min_runs.to_string()
            } else {
                format!("{min_runs}-{max_runs}")
            };
            let means: Vec<f64> = per_game
                .iter()
                .map(|v| v.iter().sum::<f64>() / v.len().max(1) as f64)
                .collect();
            if max_runs > 1 {
                let mins: Vec<f64> = per_game
                    .iter()
                    .map(|v| v.iter().copied().fold(f64::INFINITY, f64::min))
                    .collect();
                lines.push((
                    format!("{order} (mean of runs)"),
                    means.clone(),
                    runs_text.clone(),
                ));
                lines.push((
                    format!("{order} (min of runs)"),
                    mins.clone(),
                    runs_text.clone(),
                ));
                let ratio = paired_ratio(&means, &mins, &format!("fig13 spread n={n} {order}"));
                let report = (*order == "random").then_some(paper::FIG13_RANDOM_MEAN_OVER_MIN);
                spread.push(vec![
                    Cell::Int(i64::from(n)),
                    Cell::Int(common.len() as i64),
                    Cell::text(runs_text.clone()),
                    Cell::num(mean_t(&means).value, 1),
                    Cell::num(mean_t(&mins).value, 1),
                    Cell::num(ratio.value, 3),
                    Cell::num(ratio.low, 3),
                    Cell::num(ratio.high, 3),
                    Cell::opt(report, 1),
                    verdict(report, ratio.low, ratio.high),
                ]);
                if let Some(r) = report {
                    fig.notes.push(format!(
                        "n={n}: the random order's mean over {runs_text} runs is {:.2} times its \
                         minimum (95% CI {:.2} to {:.2}); the report found {r} with 10 runs on \
                         6x6: {}.",
                        ratio.value,
                        ratio.low,
                        ratio.high,
                        verdict_word(r, ratio.low, ratio.high)
                    ));
                }
            } else {
                lines.push(((*order).clone(), means, runs_text));
            }
        }
        let standard = lines
            .iter()
            .find(|(l, _, _)| l == "standard")
            .map(|(_, v, _)| v.clone());
        for (label, values, runs_text) in &lines {
            let m = mean_t(values);
            let ratio = standard
                .as_ref()
                .map(|s| paired_ratio(values, s, &format!("fig13 n={n} {label}")));
            let report = (n == 6 && label == "standard").then_some(paper::FIG13_STANDARD_MEAN);
            let [v, lo, hi] = mean_cells(&m);
            t.push(vec![
                Cell::Int(i64::from(n)),
                Cell::text(label.clone()),
                Cell::Int(m.count as i64),
                Cell::text(runs_text.clone()),
                v,
                lo,
                hi,
                Cell::opt(ratio.map(|r| r.value), 3),
                Cell::opt(ratio.map(|r| r.low), 3),
                Cell::opt(ratio.map(|r| r.high), 3),
                Cell::opt(report, 0),
                verdict(report, m.low, m.high),
            ]);
            if !labels.contains(label) {
                labels.push(label.clone());
            }
            chart_points.entry(n).or_default().push((label.clone(), m));
        }
    }
    if t.rows.is_empty() {
        return fig.missing(
            "no game was solved exactly by two or more move orders; the orders must run on the \
             same games",
        );
    }
    fig.notes.push(
        "The report's standard order averaged about 219,000 expansions on 5,200 solvable 6x6 \
         games; our solver prunes with a lower bound, so its counts are not expected to match. \
         The report found no heuristic better than the standard order and most-options clearly \
         worse; compare the ratio column."
            .to_owned(),
    );
    let mut c = chart(
        "fig13_move_orders",
        "Mean expansions by move order (solvable games)",
        "move order",
        "mean expansions",
        Scale::Linear,
        Scale::Log,
    );
    for (n, items) in &chart_points {
        let pts = items
            .iter()
            .filter(|(_, m)| m.value > 0.0)
            .filter_map(|(label, m)| {
                let x = labels.iter().position(|l| l == label)? as f64;
                Some(Point::new(x, m.value, m.low, m.high))
            })
            .collect();
        c.series
            .push(series(format!("n={n}"), SeriesKind::Points, pts));
    }
    c.categories = Some(labels);
    fig.tables.push(t);
    if !spread.rows.is_empty() {
        fig.tables.push(spread);
    }
    fig.charts.push(c);
    fig
}

/// The meta-solver (`paper` schedule) against the exact standard-order search.
pub fn meta(p: &Prepared) -> Figure {
    let mut fig = Figure::new(
        "meta",
        "Meta-solver: the paper schedule against plain exact search",
        "Rows with schedule paper, prefix 0, budget 0 (averaged over trials per game), paired \
         game by game with the exact standard-order rows of Figure 11; all games, solvable or \
         not, as in the report.",
        EXAMPLE_META,
    );
    let Some(paper_id) = p.ids.paper else {
        return fig.missing("the dataset has no rows with schedule paper");
    };
    let mut trials: BTreeMap<(i32, String), BTreeMap<GameKey, BTreeMap<i32, f64>>> =
        BTreeMap::new();
    for r in p.rows {
        if r.schedule == paper_id && r.prefix == 0 && r.budget == 0 {
            trials
                .entry((r.n, p.name(r.order).to_owned()))
                .or_default()
                .entry(GameKey::of(r))
                .or_default()
                .entry(r.trial)
                .or_insert(r.expansions as f64);
        }
    }
    let runs = runs_of(trials);
    let mut t = Table::new(
        "meta_solver",
        "Mean expansions per game: paper schedule vs exact standard order on the same games \
         (95% t intervals; reduction with a paired bootstrap interval)",
        &[
            "n",
            "order",
            "games",
            "mean_paper",
            "paper_ci_low",
            "paper_ci_high",
            "mean_exact",
            "exact_ci_low",
            "exact_ci_high",
            "reduction",
            "reduction_ci_low",
            "reduction_ci_high",
            "report_reduction",
            "report_within_ci",
            "report_mean_paper",
        ],
    );
    let mut labels = Vec::new();
    let mut exact_pts = Vec::new();
    let mut paper_pts = Vec::new();
    let mut unpaired = 0usize;
    for ((n, order), games) in &runs {
        let mut meta_v = Vec::new();
        let mut exact_v = Vec::new();
        for (key, v) in games {
            match p.exact_standard.get(key) {
                Some(&(exp, _)) => {
                    meta_v.push(v.iter().sum::<f64>() / v.len().max(1) as f64);
                    exact_v.push(exp as f64);
                }
                None => unpaired += 1,
            }
        }
        if meta_v.is_empty() {
            continue;
        }
        let mm = mean_t(&meta_v);
        let me = mean_t(&exact_v);
        let ratio = paired_ratio(&meta_v, &exact_v, &format!("meta n={n} {order}"));
        let (red, red_lo, red_hi) = (1.0 - ratio.value, 1.0 - ratio.high, 1.0 - ratio.low);
        let report = (*n == 6).then_some(paper::META_REDUCTION);
        let [a, b, c] = mean_cells(&mm);
        let [d, e, f] = mean_cells(&me);
        t.push(vec![
            Cell::Int(i64::from(*n)),
            Cell::text(order.clone()),
            Cell::Int(mm.count as i64),
            a,
            b,
            c,
            d,
            e,
            f,
            Cell::num(red, 4),
            Cell::num(red_lo, 4),
            Cell::num(red_hi, 4),
            Cell::opt(report, 2),
            verdict(report, red_lo, red_hi),
            Cell::opt((*n == 6).then_some(paper::META_MEAN), 0),
        ]);
        fig.notes.push(format!(
            "n={n}, order {order}: the paper schedule needs {:.1}% {} expansions than exact \
             standard search, {:.0} against {:.0} per game (reduction {:.1}%, 95% CI {:.1}% to \
             {:.1}%, {} games){}",
            100.0 * red.abs(),
            if red >= 0.0 { "fewer" } else { "more" },
            mm.value,
            me.value,
            100.0 * red,
            100.0 * red_lo,
            100.0 * red_hi,
            mm.count,
            match report {
                Some(r) => format!(
                    "; the report found a 29% reduction (144,000 per game): {}.",
                    verdict_word(r, red_lo, red_hi)
                ),
                None => ".".to_owned(),
            }
        ));
        let x = labels.len() as f64;
        labels.push(format!("n={n} {order}"));
        exact_pts.push(Point::new(x, me.value, me.low, me.high));
        paper_pts.push(Point::new(x, mm.value, mm.low, mm.high));
    }
    if t.rows.is_empty() {
        return fig.missing(
            "the paper-schedule rows have no exact standard-order result of the same games to \
             compare with; the example sweep runs both on every game",
        );
    }
    if unpaired > 0 {
        fig.notes.push(format!(
            "{unpaired} game(s) with paper rows but no exact standard-order row are left out."
        ));
    }
    let mut c = chart(
        "meta_solver",
        "Meta-solver (paper schedule) vs exact standard search",
        "board size and order of the budgeted attempts",
        "mean expansions per game",
        Scale::Linear,
        Scale::Linear,
    );
    c.categories = Some(labels);
    c.series.push(series(
        "exact, standard order",
        SeriesKind::Points,
        exact_pts,
    ));
    c.series
        .push(series("paper schedule", SeriesKind::Points, paper_pts));
    fig.tables.push(t);
    fig.charts.push(c);
    fig
}
