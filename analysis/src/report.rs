//! The report as data: figures made of tables and chart descriptions.
//!
//! Analysis builds this value once; the HTML page, the Markdown file, the CSV files, the
//! charts and `--format json` are all renderings of it, so they can never disagree.

use std::time::Duration;

use serde::Serialize;

/// One value of a table.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Int(i64),
    /// A number and the digits after the point to show in HTML and Markdown; CSV and JSON
    /// keep full precision.
    Num(f64, u8),
    Text(String),
    Empty,
}

impl Cell {
    pub fn text(s: impl Into<String>) -> Cell {
        Cell::Text(s.into())
    }

    /// A number, or an empty cell when it is not finite (no data, no interval).
    pub fn num(v: f64, digits: u8) -> Cell {
        if v.is_finite() {
            Cell::Num(v, digits)
        } else {
            Cell::Empty
        }
    }

    pub fn opt(v: Option<f64>, digits: u8) -> Cell {
        v.map_or(Cell::Empty, |v| Cell::num(v, digits))
    }

    /// For HTML and Markdown.
    pub fn display(&self) -> String {
        match self {
            Cell::Int(v) => v.to_string(),
            Cell::Num(v, d) => format!("{v:.prec$}", prec = usize::from(*d)),
            Cell::Text(s) => s.clone(),
            Cell::Empty => String::new(),
        }
    }

    /// For CSV: full precision, so scripts lose nothing.
    pub fn raw(&self) -> String {
        match self {
            Cell::Int(v) => v.to_string(),
            Cell::Num(v, _) => format!("{v}"),
            Cell::Text(s) => s.clone(),
            Cell::Empty => String::new(),
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Cell::Int(v) => Some(*v as f64),
            Cell::Num(v, _) => Some(*v),
            _ => None,
        }
    }
}

impl Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Cell::Int(v) => s.serialize_i64(*v),
            Cell::Num(v, _) => s.serialize_f64(*v),
            Cell::Text(t) => s.serialize_str(t),
            Cell::Empty => s.serialize_none(),
        }
    }
}

/// One table; `name` is also its CSV file name (without `.csv`).
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub name: String,
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    pub fn new(name: &str, title: &str, columns: &[&str]) -> Table {
        Table {
            name: name.to_owned(),
            title: title.to_owned(),
            columns: columns.iter().map(|c| (*c).to_owned()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn push(&mut self, row: Vec<Cell>) {
        self.rows.push(row);
    }

    /// The cell in `column` of every row, for tests and scripts.
    pub fn column(&self, column: &str) -> Vec<&Cell> {
        let Some(i) = self.columns.iter().position(|c| c == column) else {
            return Vec::new();
        };
        self.rows.iter().filter_map(|r| r.get(i)).collect()
    }

    /// The first row whose cells in the given columns display as the given values.
    pub fn find(&self, keys: &[(&str, &str)]) -> Option<&[Cell]> {
        let idx: Vec<(usize, &str)> = keys
            .iter()
            .filter_map(|(c, v)| self.columns.iter().position(|x| x == c).map(|i| (i, *v)))
            .collect();
        if idx.len() != keys.len() {
            return None;
        }
        self.rows
            .iter()
            .find(|r| {
                idx.iter()
                    .all(|(i, v)| r.get(*i).map(Cell::raw).as_deref() == Some(*v))
            })
            .map(Vec::as_slice)
    }

    /// The value in `column` of the row found by `keys`.
    pub fn get(&self, keys: &[(&str, &str)], column: &str) -> Option<&Cell> {
        let i = self.columns.iter().position(|c| c == column)?;
        self.find(keys)?.get(i)
    }
}

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SeriesKind {
    /// Points joined by lines.
    Line,
    /// Points only (categories that have no order between them).
    Points,
    /// The published values: hollow markers, so they never hide ours.
    Report,
}

/// One point with an optional 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl Point {
    /// A point with its interval; an end that is not finite (no interval, as with one
    /// value) is left out rather than drawn.
    pub fn new(x: f64, y: f64, low: f64, high: f64) -> Point {
        Point {
            x,
            y,
            low: low.is_finite().then_some(low),
            high: high.is_finite().then_some(high),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Series {
    pub name: String,
    pub kind: SeriesKind,
    pub points: Vec<Point>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    Linear,
    Log,
}

/// A chart; `name` is also its file name (without `.png` / `.svg`).
#[derive(Debug, Clone, Serialize)]
pub struct Chart {
    pub name: String,
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_scale: Scale,
    pub y_scale: Scale,
    /// Labels of x = 0, 1, 2, ... when the x axis is categorical.
    pub categories: Option<Vec<String>>,
    pub series: Vec<Series>,
}

/// One figure of the report (or the meta-solver comparison).
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// Anchor and file prefix, such as `fig08`.
    pub id: String,
    pub title: String,
    /// Which rows feed the figure, in one sentence.
    pub source: String,
    /// The example sweep that produces the rows.
    pub example: String,
    /// Why the figure is missing, when the dataset lacks what it needs.
    pub missing: Option<String>,
    /// Findings and caveats, including how ours compares with the report.
    pub notes: Vec<String>,
    pub tables: Vec<Table>,
    pub charts: Vec<Chart>,
}

impl Figure {
    pub fn new(id: &str, title: &str, source: &str, example: &str) -> Figure {
        Figure {
            id: id.to_owned(),
            title: title.to_owned(),
            source: source.to_owned(),
            example: example.to_owned(),
            missing: None,
            notes: Vec::new(),
            tables: Vec::new(),
            charts: Vec::new(),
        }
    }

    pub fn missing(mut self, why: impl Into<String>) -> Figure {
        self.missing = Some(why.into());
        self
    }

    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name)
    }
}

/// What the rows say about how complete the sweep is.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Completeness {
    /// Rows present divided by rows expected when every (experiment, config, n) group of
    /// an experiment covered the widest game range seen in that experiment. A lower bound
    /// on the share missing: whole groups or trailing games that never arrived are
    /// invisible in the rows.
    pub rows_present: u64,
    pub rows_expected: u64,
    pub groups: u64,
    pub groups_with_gaps: u64,
    pub duplicate_rows: u64,
    /// The coordinator state directory (`DATASET/.hammer-state`) exists.
    pub coordinator_state: bool,
    /// What that directory says about the sweep, when the caller could read it.
    pub sweep_state: Option<SweepState>,
}

/// What the coordinator's state directory says about the sweep behind a dataset: the
/// exact answer to "is it finished?", which the rows alone cannot give. Read by the
/// caller (the command line reads it with `hammer-coordinator`, which this crate does not
/// depend on).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SweepState {
    pub sweep: String,
    pub units: u64,
    pub units_committed: u64,
    pub games: u64,
    pub games_committed: u64,
    /// A coordinator holds the state directory's lock right now.
    pub running: bool,
}

/// The whole analysis.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The page's heading: the figures of the report, or a tuning report.
    pub title: String,
    pub dataset: String,
    pub hammer_version: String,
    pub rows: u64,
    pub parts: u64,
    pub games: u64,
    pub sweeps: Vec<String>,
    pub experiments: Vec<String>,
    pub warnings: Vec<String>,
    pub completeness: Completeness,
    pub figures: Vec<Figure>,
    /// Rows read and the time of reading and of each figure; differs from run to run.
    pub reading: ReadStats,
}

impl Report {
    pub fn figure(&self, id: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.id == id)
    }

    /// Every table of every figure, in report order.
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.figures.iter().flat_map(|f| f.tables.iter())
    }

    pub fn charts(&self) -> impl Iterator<Item = &Chart> {
        self.figures.iter().flat_map(|f| f.charts.iter())
    }

    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables().find(|t| t.name == name)
    }
}

/// What reading the dataset took: the report says it, so that a slow analysis shows
/// whether the time went into reading or into a figure.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ReadStats {
    /// Rows in the part files (every family).
    pub rows_read: u64,
    pub parts: u64,
    /// Wall time of reading the parts, in seconds.
    pub read_seconds: f64,
    /// Rows fed to the figures that pair games, in the second pass.
    pub rows_kept: u64,
    /// Part files read in the second pass (a part is read once per window it meets).
    pub parts_reread: u64,
    /// Windows of games the second pass fed, and the most rows one of them held.
    pub paired_windows: u64,
    pub largest_window: u64,
    /// Wall time of each stage (deduplication, each figure), in seconds.
    pub stages: Vec<(String, f64)>,
}

impl ReadStats {
    pub(crate) fn stage(&mut self, name: &str, took: Duration) {
        self.stages.push((name.to_owned(), took.as_secs_f64()));
    }
}
