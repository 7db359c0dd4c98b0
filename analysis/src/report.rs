//! The report as data: figures made of tables and chart descriptions.
//!
//! Analysis builds this value once; the HTML page, the Markdown file, the CSV files, the
//! charts and `--format json` are all renderings of it, so they can never disagree.

use std::time::Duration;

use serde::Serialize;

/// One value of a table.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// A count or an integer parameter, shown as it is.
    Int(i64),
    /// A number and the digits after the point to show in HTML and Markdown; CSV and JSON
    /// keep full precision.
    Num(f64, u8),
    /// A label or a verdict.
    Text(String),
    /// No value: no data, or no interval.
    Empty,
}

impl Cell {
    /// A text cell from anything string-like, so callers need not wrap by hand.
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

    /// A number when there is one, an empty cell otherwise.
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

    /// The cell's number, for tests and scripts that compare values.
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
    /// Identifies the table in the page and names its CSV file.
    pub name: String,
    pub(crate) title: String,
    /// The column headings, also the CSV header.
    pub columns: Vec<String>,
    /// The rows, each with one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// An empty table with its headings, to be filled with [`Table::push`].
    pub fn new(name: &str, title: &str, columns: &[&str]) -> Table {
        Table {
            name: name.to_owned(),
            title: title.to_owned(),
            columns: columns.iter().map(|c| (*c).to_owned()).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row, one cell per column.
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
    /// Where the point lies along the x axis, so callers can find a chart's range.
    pub x: f64,
    pub(crate) y: f64,
    pub(crate) low: Option<f64>,
    pub(crate) high: Option<f64>,
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

/// One line or set of points of a chart, with its legend entry.
#[derive(Debug, Clone, Serialize)]
pub struct Series {
    /// The legend entry.
    pub name: String,
    /// How the series is drawn.
    pub kind: SeriesKind,
    /// The points, in drawing order.
    pub points: Vec<Point>,
}

/// How an axis maps values, so that costs spanning decades stay readable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scale {
    /// Equal steps for equal differences.
    Linear,
    /// Equal steps for equal ratios.
    Log,
}

/// A chart; `name` is also its file name (without `.png` / `.svg`).
#[derive(Debug, Clone, Serialize)]
pub struct Chart {
    /// Identifies the chart in the page and names its image files.
    pub name: String,
    /// The heading drawn above the chart.
    pub title: String,
    /// The x axis's label.
    pub x_label: String,
    /// The y axis's label.
    pub y_label: String,
    /// How the x axis maps values.
    pub x_scale: Scale,
    /// How the y axis maps values.
    pub y_scale: Scale,
    /// Labels of x = 0, 1, 2, ... when the x axis is categorical.
    pub categories: Option<Vec<String>>,
    /// What is drawn.
    pub series: Vec<Series>,
}

/// One figure of the report (or the meta-solver comparison).
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// Anchor and file prefix, such as `fig08`.
    pub id: String,
    /// The figure's heading.
    pub title: String,
    /// Which rows feed the figure, in one sentence.
    pub source: String,
    /// The example sweep that produces the rows.
    pub example: String,
    /// Why the figure is missing, when the dataset lacks what it needs.
    pub missing: Option<String>,
    /// Findings and caveats, including how ours compares with the report.
    pub notes: Vec<String>,
    /// The figure's numbers.
    pub tables: Vec<Table>,
    /// The figure's drawings of those numbers.
    pub charts: Vec<Chart>,
}

impl Figure {
    /// An empty figure, to which tables, charts and notes are added.
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

    /// The figure marked missing, so the page says why instead of showing nothing.
    pub fn missing(mut self, why: impl Into<String>) -> Figure {
        self.missing = Some(why.into());
        self
    }

    #[cfg(test)]
    pub(crate) fn table(&self, name: &str) -> Option<&Table> {
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
    /// The rows expected by that estimate.
    pub rows_expected: u64,
    pub(crate) groups: u64,
    /// Groups that miss games other groups of their experiment have.
    pub groups_with_gaps: u64,
    /// Rows of a game seen more than once, which the figures count once.
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
    /// The sweep's name, to check it is the dataset's.
    pub sweep: String,
    /// Work units in the sweep.
    pub units: u64,
    /// Work units whose rows are in the dataset.
    pub units_committed: u64,
    /// Games in the sweep.
    pub games: u64,
    /// Games whose rows are in the dataset.
    pub games_committed: u64,
    /// A coordinator holds the state directory's lock right now.
    pub running: bool,
}

/// The whole analysis.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The page's heading: the figures of the report, or a tuning report.
    pub title: String,
    /// The dataset's path, as given.
    pub dataset: String,
    /// The hammer that made the report ([`crate::VERSION`]).
    pub hammer_version: String,
    /// Rows read.
    pub rows: u64,
    /// Part files read.
    pub parts: u64,
    /// Distinct games among the rows.
    pub games: u64,
    /// Names of the sweeps the rows came from.
    pub sweeps: Vec<String>,
    /// Names of the experiments the rows came from.
    pub experiments: Vec<String>,
    /// Problems the reader should know of before trusting the figures.
    pub warnings: Vec<String>,
    /// How complete the sweep behind the dataset is.
    pub completeness: Completeness,
    /// The figures, in page order.
    pub figures: Vec<Figure>,
    /// Rows read and the time of reading and of each figure; differs from run to run.
    pub reading: ReadStats,
}

impl Report {
    /// The figure with this id, for tests and scripts.
    pub fn figure(&self, id: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.id == id)
    }

    /// Every table of every figure, in report order.
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.figures.iter().flat_map(|f| f.tables.iter())
    }

    /// Every chart of every figure, in report order.
    pub fn charts(&self) -> impl Iterator<Item = &Chart> {
        self.figures.iter().flat_map(|f| f.charts.iter())
    }

    /// The table with this name, for tests and scripts.
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
    /// Part files read.
    pub parts: u64,
    /// Wall time of reading the parts, in seconds.
    pub read_seconds: f64,
    /// Rows fed to the figures that pair games, in the second pass.
    pub rows_kept: u64,
    /// Part files read in the second pass (a part is read once per window it meets).
    pub parts_reread: u64,
    /// Windows of games the second pass fed, and the most rows one of them held.
    pub paired_windows: u64,
    /// The most rows one window held: what the second pass's memory went to.
    pub largest_window: u64,
    /// Wall time of each stage (deduplication, each figure), in seconds.
    pub stages: Vec<(String, f64)>,
}

impl ReadStats {
    pub(crate) fn stage(&mut self, name: &str, took: Duration) {
        self.stages.push((name.to_owned(), took.as_secs_f64()));
    }
}
