//! The learned move order against its radius: Figure 13's rows of the orders
//! `learned:KB,R,T`, which compare every order on the same solvable games with a paired
//! interval of its ratio to the standard order, drawn against the radius `R` at which
//! the order cuts its transitions. Nothing is read again: a learned order is one more
//! order of Figure 13. The learning curve draws the same rows against the number of
//! games each knowledge base was learned from, which the analysis takes from the number
//! that ends the base's file name (`kb-100000.bin`), as the example sweeps name them: a
//! dataset records the base's path and digest, not its contents.

use std::collections::BTreeMap;

use crate::report::{Cell, Figure, Point, Scale, SeriesKind, Table};

use super::{chart, series};

pub const EXAMPLE_LEARNED: &str = "examples/learned_2_radius.toml";
pub const EXAMPLE_CURVE: &str = "examples/learned_4_curve.toml";

/// A learned order's text as the dataset writes it (`learned:PATH,R,T#DIGEST`): the
/// knowledge base (`PATH#DIGEST`), the temperature and the radius.
fn parse(order: &str) -> Option<(String, String, u32)> {
    let spec = order.strip_prefix("learned:")?;
    let (spec, digest) = spec.split_once('#').unwrap_or((spec, ""));
    let mut fields = spec.rsplitn(3, ',');
    let temperature = fields.next()?.to_owned();
    let radius = fields.next()?.parse().ok()?;
    let path = fields.next()?;
    let kb = match digest {
        "" => path.to_owned(),
        d => format!("{path}#{d}"),
    };
    Some((kb, temperature, radius))
}

/// The columns of Figure 13's table each learned row carries over.
const COPIED: [&str; 7] = [
    "games",
    "mean_expansions",
    "ci_low",
    "ci_high",
    "ratio_to_standard",
    "ratio_ci_low",
    "ratio_ci_high",
];

/// One learned order's row of Figure 13.
struct Learned {
    n: i64,
    /// `PATH#DIGEST`.
    kb: String,
    temperature: String,
    radius: u32,
    /// The [`COPIED`] cells.
    cells: Vec<Cell>,
}

impl Learned {
    /// The ratio to standard with its interval, at `x`.
    fn ratio_point(&self, x: f64) -> Option<Point> {
        let value = |i: usize| self.cells.get(i).and_then(Cell::as_f64);
        Some(Point::new(x, value(4)?, value(5)?, value(6)?))
    }
}

/// The learned orders' rows of Figure 13, or why there are none.
fn learned_rows(fig13: &Figure) -> Result<Vec<Learned>, &'static str> {
    let Some(rows) = fig13.tables.iter().find(|t| t.name == "fig13_move_orders") else {
        return Err("the dataset has no exact rows of two or more move orders");
    };
    let col = |name: &str| rows.columns.iter().position(|c| c == name);
    let (Some(n), Some(order)) = (col("n"), col("order")) else {
        return Err("Figure 13's table has no n and order columns");
    };
    let learned: Vec<Learned> = rows
        .rows
        .iter()
        .filter_map(|row| {
            let (Some(Cell::Int(size)), Some(Cell::Text(text))) = (row.get(n), row.get(order))
            else {
                return None;
            };
            let (kb, temperature, radius) = parse(text)?;
            let cell = |c: &str| col(c).and_then(|i| row.get(i)).cloned();
            let cells = COPIED
                .iter()
                .map(|c| cell(c).unwrap_or(Cell::Empty))
                .collect();
            Some(Learned {
                n: *size,
                kb,
                temperature,
                radius,
                cells,
            })
        })
        .collect();
    if learned.is_empty() {
        return Err(
            "the dataset has no exact rows of a learned order (learned:KB,R) beside another \
             order on the same games",
        );
    }
    Ok(learned)
}

/// Mean expansions and ratio to standard of the learned orders, by radius.
pub fn learned_radius(fig13: &Figure) -> Figure {
    let mut fig = Figure::new(
        "learned_radius",
        "The learned move order by radius",
        "Figure 13's rows of learned:KB,R,T orders (exact schedule, the same solvable games \
         as every other order): mean expansions and the ratio to the standard order with \
         its paired bootstrap interval, against the radius R.",
        EXAMPLE_LEARNED,
    );
    let rows = match learned_rows(fig13) {
        Ok(rows) => rows,
        Err(why) => return fig.missing(why),
    };
    // (n, knowledge base, temperature) -> radius -> its row.
    let mut lines: BTreeMap<(i64, &str, &str), BTreeMap<u32, &Learned>> = BTreeMap::new();
    for l in &rows {
        let key = (l.n, l.kb.as_str(), l.temperature.as_str());
        lines.entry(key).or_default().insert(l.radius, l);
    }
    let mut columns = vec!["n", "knowledge_base", "temperature", "radius"];
    columns.extend(COPIED);
    let mut t = Table::new(
        "learned_radius",
        "Learned orders on Figure 13's games: mean expansions (95% t interval) and ratio to \
         standard (95% paired bootstrap interval), by radius",
        &columns,
    );
    let mut c = chart(
        "learned_radius",
        "Learned order: expansions relative to the standard order, by radius",
        "radius R of the transitions",
        "mean expansions / standard's (same games)",
        Scale::Linear,
        Scale::Linear,
    );
    for ((size, kb, temperature), by_radius) in &lines {
        let mut pts = Vec::new();
        for (&radius, l) in by_radius {
            let mut row = vec![
                Cell::Int(*size),
                Cell::text(*kb),
                Cell::text(*temperature),
                Cell::Int(i64::from(radius)),
            ];
            row.extend(l.cells.iter().cloned());
            t.push(row);
            pts.extend(l.ratio_point(f64::from(radius)));
        }
        let name = kb.split('#').next().unwrap_or(kb);
        let label = format!("n={size}, {name}, T={temperature}");
        c.series.push(series(label, SeriesKind::Line, pts));
    }
    fig.tables.push(t);
    fig.charts.push(c);
    fig
}

/// The number that ends a knowledge base's file name (`data/kb-100000.bin`: 100,000),
/// the games it was learned from by the examples' convention.
fn training_games(kb: &str) -> Option<u64> {
    let path = kb.split('#').next()?;
    let stem = std::path::Path::new(path).file_stem()?.to_str()?;
    let digits = stem.len() - stem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    stem[stem.len() - digits..].parse().ok()
}

/// The learned orders' ratio to standard against the games their knowledge base was
/// learned from.
pub fn learned_curve(fig13: &Figure) -> Figure {
    let mut fig = Figure::new(
        "learned_curve",
        "The learned move order: learning curve",
        "The rows of figure learned_radius whose knowledge base's file name ends in the \
         number of games it was learned from (kb-100000.bin): the ratio to the standard \
         order against that number, one line per (n, radius, temperature).",
        EXAMPLE_CURVE,
    );
    let Ok(rows) = learned_rows(fig13) else {
        return fig.missing("the dataset has no exact rows of a learned order");
    };
    // (n, radius, temperature) -> training games -> its row.
    let mut lines: BTreeMap<(i64, u32, &str), BTreeMap<u64, &Learned>> = BTreeMap::new();
    for l in &rows {
        if let Some(games) = training_games(&l.kb) {
            let key = (l.n, l.radius, l.temperature.as_str());
            lines.entry(key).or_default().insert(games, l);
        }
    }
    if lines.values().all(|l| l.len() < 2) {
        return fig.missing(
            "the dataset has no two knowledge bases of the same size, radius and temperature \
             whose file names end in their number of training games (kb-1000.bin, \
             kb-10000.bin)",
        );
    }
    let mut columns = vec![
        "n",
        "radius",
        "temperature",
        "training_games",
        "knowledge_base",
    ];
    columns.extend(COPIED);
    let mut t = Table::new(
        "learned_curve",
        "Learned orders by the games their knowledge base was learned from: mean expansions \
         (95% t interval) and ratio to standard (95% paired bootstrap interval)",
        &columns,
    );
    let mut c = chart(
        "learned_curve",
        "Learned order: expansions relative to the standard order, by training games",
        "games the knowledge base was learned from",
        "mean expansions / standard's (same games)",
        Scale::Log,
        Scale::Linear,
    );
    for ((n, r, temp), by_games) in &lines {
        let mut pts = Vec::new();
        for (&games, l) in by_games {
            let mut row = vec![
                Cell::Int(*n),
                Cell::Int(i64::from(*r)),
                Cell::text(*temp),
                Cell::Int(games as i64),
                Cell::text(l.kb.as_str()),
            ];
            row.extend(l.cells.iter().cloned());
            t.push(row);
            pts.extend(l.ratio_point(games as f64));
        }
        let label = format!("n={n}, radius {r}, T={temp}");
        c.series.push(series(label, SeriesKind::Line, pts));
    }
    fig.tables.push(t);
    fig.charts.push(c);
    fig
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_are_parsed_as_the_dataset_writes_them() {
        let text = "learned:data/kb8.bin,3,0.1#00ff";
        assert_eq!(
            parse(text),
            Some(("data/kb8.bin#00ff".to_owned(), "0.1".to_owned(), 3))
        );
        assert_eq!(parse("random"), None);
        assert_eq!(parse("learned:kb,x,0#1"), None);
    }

    #[test]
    fn training_games_come_from_the_file_name() {
        assert_eq!(training_games("data/kb-100000.bin#00ff"), Some(100_000));
        assert_eq!(training_games("kb1000"), Some(1000));
        assert_eq!(training_games("data/kb8.x/base.bin#1"), None);
    }
}
