//! The learned move order against its radius (issue 14): Figure 13's rows of the orders
//! `learned:KB,R,T`, which compare every order on the same solvable games with a paired
//! interval of its ratio to the standard order, drawn against the radius `R` at which
//! the order cuts its transitions. Nothing is read again: a learned order is one more
//! order of Figure 13.

use std::collections::BTreeMap;

use crate::report::{Cell, Figure, Point, Scale, SeriesKind, Table};

use super::{chart, series};

pub const EXAMPLE_LEARNED: &str = "examples/learned_2_radius.toml";

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
    let Some(rows) = fig13.tables.iter().find(|t| t.name == "fig13_move_orders") else {
        return fig.missing("the dataset has no exact rows of two or more move orders");
    };
    let col = |name: &str| rows.columns.iter().position(|c| c == name);
    let (Some(n), Some(order)) = (col("n"), col("order")) else {
        return fig.missing("Figure 13's table has no n and order columns");
    };
    let copied = [
        "games",
        "mean_expansions",
        "ci_low",
        "ci_high",
        "ratio_to_standard",
        "ratio_ci_low",
        "ratio_ci_high",
    ];
    let mut columns = vec!["n", "knowledge_base", "temperature", "radius"];
    columns.extend(copied);
    let mut t = Table::new(
        "learned_radius",
        "Learned orders on Figure 13's games: mean expansions (95% t interval) and ratio to \
         standard (95% paired bootstrap interval), by radius",
        &columns,
    );
    // (n, knowledge base, temperature) -> radius -> the copied cells.
    let mut lines: BTreeMap<(i64, String, String), BTreeMap<u32, Vec<Cell>>> = BTreeMap::new();
    for row in &rows.rows {
        let (Some(Cell::Int(size)), Some(Cell::Text(text))) = (row.get(n), row.get(order)) else {
            continue;
        };
        let Some((kb, temperature, radius)) = parse(text) else {
            continue;
        };
        let cells = copied
            .iter()
            .map(|c| {
                col(c)
                    .and_then(|i| row.get(i))
                    .cloned()
                    .unwrap_or(Cell::Empty)
            })
            .collect();
        lines
            .entry((*size, kb, temperature))
            .or_default()
            .insert(radius, cells);
    }
    if lines.is_empty() {
        return fig.missing(
            "the dataset has no exact rows of a learned order (learned:KB,R) beside another \
             order on the same games",
        );
    }
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
        for (&radius, cells) in by_radius {
            let mut row = vec![
                Cell::Int(*size),
                Cell::Text(kb.clone()),
                Cell::Text(temperature.clone()),
                Cell::Int(i64::from(radius)),
            ];
            row.extend(cells.iter().cloned());
            t.push(row);
            let value = |i: usize| cells.get(i).and_then(Cell::as_f64);
            if let (Some(v), Some(lo), Some(hi)) = (value(4), value(5), value(6)) {
                pts.push(Point::new(f64::from(radius), v, lo, hi));
            }
        }
        let name = kb.split('#').next().unwrap_or(kb);
        let label = format!("n={size}, {name}, T={temperature}");
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
}
