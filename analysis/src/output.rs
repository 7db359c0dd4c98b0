//! Writing the report directory: `index.html`, `report.md`, `report.json`, one CSV per
//! table, one PNG and one SVG per chart.
//!
//! Everything is written into a hidden temporary directory beside the target and renamed
//! into place at the end, so a reader (or a web server) never sees half a report, and a
//! failed run leaves the previous report untouched.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use crate::chart;
use crate::error::{Error, Result};
use crate::report::{Chart, Completeness, Figure, Report, Table};

/// A file that marks a directory as written by `hammer analyze`, so that re-running the
/// command may replace it, while any other existing directory is refused.
pub const MARKER: &str = ".hammer-report";

fn io<'a>(path: &'a Path, action: &'static str) -> impl FnOnce(std::io::Error) -> Error + 'a {
    move |source| Error::Io {
        path: path.to_owned(),
        action,
        source,
    }
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One table as CSV (RFC 4180 quoting), with full-precision numbers.
pub fn csv(table: &Table) -> String {
    fn field(s: &str) -> String {
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_owned()
        }
    }
    let mut out = String::new();
    out.push_str(
        &table
            .columns
            .iter()
            .map(|c| field(c))
            .collect::<Vec<_>>()
            .join(","),
    );
    out.push('\n');
    for row in &table.rows {
        out.push_str(
            &row.iter()
                .map(|c| field(&c.raw()))
                .collect::<Vec<_>>()
                .join(","),
        );
        out.push('\n');
    }
    out
}

/// What the rows imply about completeness (only Martello's rows imply anything: other
/// families' instances are not numbered per group) and what the coordinator's journal says.
fn completeness_line(c: &Completeness) -> String {
    let mut parts = Vec::new();
    if c.groups > 0 {
        parts.push(format!(
            "{} of {} rows that the rows themselves imply ({} groups, {} with gaps, {} \
             duplicate rows)",
            c.rows_present, c.rows_expected, c.groups, c.groups_with_gaps, c.duplicate_rows
        ));
    }
    match (&c.sweep_state, c.coordinator_state) {
        (Some(s), _) => parts.push(format!(
            "the coordinator's journal: sweep {:?} {}, {} of {} units ({} of {} games)",
            s.sweep,
            if s.running {
                "running"
            } else if s.units_committed == s.units {
                "complete"
            } else {
                "unfinished"
            },
            s.units_committed,
            s.units,
            s.games_committed,
            s.games
        )),
        (None, true) => parts.push("a coordinator state directory is present".to_owned()),
        (None, false) => {}
    }
    if parts.is_empty() {
        parts.push("nothing to check".to_owned());
    }
    format!("Completeness: {}", parts.join("; "))
}

fn summary_lines(report: &Report) -> Vec<String> {
    vec![
        format!("Dataset: {}", report.dataset),
        format!(
            "{} rows in {} part files; {} distinct games; sweeps: {}; experiments: {}",
            report.rows,
            report.parts,
            report.games,
            report.sweeps.join(", "),
            report.experiments.join(", ")
        ),
        completeness_line(&report.completeness),
        format!(
            "Made by hammer-analysis {}. Every proportion has a 95% Wilson interval, every \
             mean a 95% Student t interval, every ratio of means a 95% percentile bootstrap \
             interval (2,000 resamples of games, fixed seed). 'report_within_ci' says whether \
             the 2013 report's value lies inside our interval.",
            report.hammer_version
        ),
        reading_line(&report.reading),
    ]
}

/// How many rows were read and where the time went, so a slow analysis says why.
fn reading_line(r: &crate::report::ReadStats) -> String {
    let stages: Vec<String> = r
        .stages
        .iter()
        .map(|(stage, s)| format!("{stage} {s:.2} s"))
        .collect();
    format!(
        "Read {} rows from {} part files in {:.2} s; {} rows of the figures that pair games \
         read again from {} parts, in {} windows of games (at most {} rows held at once); \
         stages: {}.",
        r.rows_read,
        r.parts,
        r.read_seconds,
        r.rows_kept,
        r.parts_reread,
        r.paired_windows,
        r.largest_window,
        stages.join(", ")
    )
}

const STYLE: &str = "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;\
color:#222;line-height:1.4}table{border-collapse:collapse;margin:1em 0;font-size:13px}\
caption{text-align:left;font-weight:bold;padding:4px 0}th,td{border:1px solid #ccc;\
padding:3px 6px;text-align:right}th{background:#f2f2f2}td.t{text-align:left}\
.missing{background:#fff4e0;border-left:4px solid #f0a020;padding:8px}\
.warning{background:#fde8e8;border-left:4px solid #d03030;padding:8px}\
figure{margin:1em 0}figure svg{max-width:100%;height:auto}.source{color:#555}\
.scroll{overflow-x:auto}";

/// The self-contained page: charts are inline SVG and the style is inline, so the file can
/// be mailed or attached on its own.
pub fn html(report: &Report, svgs: &[(String, String)]) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>hammer analysis: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>{}</h1>\n",
        escape(&report.dataset),
        escape(&report.title)
    );
    for line in summary_lines(report) {
        let _ = writeln!(h, "<p>{}</p>", escape(&line));
    }
    if !report.warnings.is_empty() {
        h.push_str("<section id=\"warnings\">\n<h2>Warnings</h2>\n");
        for w in &report.warnings {
            let _ = writeln!(h, "<p class=\"warning\">{}</p>", escape(w));
        }
        h.push_str("</section>\n");
    }
    h.push_str("<nav>\n<h2>Contents</h2>\n<ul>\n");
    for f in &report.figures {
        let _ = writeln!(
            h,
            "<li>{}{}</li>",
            escape(&f.title),
            if f.missing.is_some() {
                " (not in this dataset)"
            } else {
                ""
            }
        );
    }
    h.push_str("</ul>\n</nav>\n");
    for f in &report.figures {
        html_figure(&mut h, f, svgs);
    }
    h.push_str("</body>\n</html>\n");
    h
}

fn html_figure(h: &mut String, f: &Figure, svgs: &[(String, String)]) {
    let _ = writeln!(
        h,
        "<section id=\"{}\" class=\"figure\">\n<h2>{}</h2>\n<p class=\"source\">Rows: {}</p>",
        escape(&f.id),
        escape(&f.title),
        escape(&f.source)
    );
    if let Some(why) = &f.missing {
        let _ = writeln!(
            h,
            "<p class=\"missing\">Not in this dataset: {}. The example sweep <code>{}</code> \
             produces the rows it needs.</p>",
            escape(why),
            escape(&f.example)
        );
    }
    if !f.notes.is_empty() {
        h.push_str("<ul class=\"notes\">\n");
        for n in &f.notes {
            let _ = writeln!(h, "<li>{}</li>", escape(n));
        }
        h.push_str("</ul>\n");
    }
    for c in &f.charts {
        let svg = svgs
            .iter()
            .find(|(name, _)| *name == c.name)
            .map_or("", |(_, s)| s.as_str());
        let svg = svg.find("<svg").map_or(svg, |i| &svg[i..]);
        let _ = writeln!(
            h,
            "<figure id=\"chart-{0}\" class=\"chart\">\n{1}\n<figcaption>{2} (files {0}.png, \
             {0}.svg)</figcaption>\n</figure>",
            escape(&c.name),
            svg,
            escape(&c.title)
        );
    }
    for t in &f.tables {
        html_table(h, t);
    }
    h.push_str("</section>\n");
}

fn html_table(h: &mut String, t: &Table) {
    let _ = writeln!(
        h,
        "<div class=\"scroll\"><table id=\"table-{0}\" class=\"data\">\n<caption>{1} ({0}.csv)\
         </caption>\n<thead><tr>",
        escape(&t.name),
        escape(&t.title)
    );
    for c in &t.columns {
        let _ = write!(h, "<th>{}</th>", escape(c));
    }
    h.push_str("</tr></thead>\n<tbody>\n");
    for row in &t.rows {
        h.push_str("<tr>");
        for cell in row {
            let class = if matches!(cell, crate::report::Cell::Text(_)) {
                " class=\"t\""
            } else {
                ""
            };
            let _ = write!(h, "<td{class}>{}</td>", escape(&cell.display()));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody>\n</table></div>\n");
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// The Markdown report; charts are referenced as the PNG files beside it.
pub fn markdown(report: &Report) -> String {
    let mut m = format!("# {}\n\n", report.title);
    for line in summary_lines(report) {
        let _ = writeln!(m, "{line}\n");
    }
    if !report.warnings.is_empty() {
        m.push_str("## Warnings\n\n");
        for w in &report.warnings {
            let _ = writeln!(m, "- {}", md_escape(w));
        }
        m.push('\n');
    }
    for f in &report.figures {
        let _ = writeln!(m, "## {}\n\nRows: {}\n", f.title, f.source);
        if let Some(why) = &f.missing {
            let _ = writeln!(
                m,
                "**Not in this dataset**: {why}. The example sweep `{}` produces the rows it \
                 needs.\n",
                f.example
            );
        }
        for n in &f.notes {
            let _ = writeln!(m, "- {}", md_escape(n));
        }
        if !f.notes.is_empty() {
            m.push('\n');
        }
        for c in &f.charts {
            let _ = writeln!(m, "![{}]({}.png)\n", md_escape(&c.title), c.name);
        }
        for t in &f.tables {
            let _ = writeln!(m, "**{}** (`{}.csv`)\n", md_escape(&t.title), t.name);
            let _ = writeln!(
                m,
                "| {} |",
                t.columns
                    .iter()
                    .map(|c| md_escape(c))
                    .collect::<Vec<_>>()
                    .join(" | ")
            );
            let _ = writeln!(m, "|{}", "---|".repeat(t.columns.len()));
            for row in &t.rows {
                let _ = writeln!(
                    m,
                    "| {} |",
                    row.iter()
                        .map(|c| md_escape(&c.display()))
                        .collect::<Vec<_>>()
                        .join(" | ")
                );
            }
            m.push('\n');
        }
    }
    m
}

/// The report as pretty JSON: the same tables (and chart data) for scripts.
pub fn json(report: &Report) -> Result<String> {
    Ok(serde_json::to_string_pretty(report)?)
}

fn write_file(path: &Path, content: &[u8]) -> Result<()> {
    fs::write(path, content).map_err(io(path, "cannot write"))
}

fn render_into(report: &Report, dir: &Path) -> Result<()> {
    let mut svgs = Vec::new();
    let charts: Vec<&Chart> = report.charts().collect();
    for c in charts {
        let svg_path = dir.join(format!("{}.svg", c.name));
        let png_path = dir.join(format!("{}.png", c.name));
        let svg = chart::svg(c).map_err(|message| Error::Chart {
            path: svg_path.clone(),
            message,
        })?;
        write_file(&svg_path, svg.as_bytes())?;
        chart::png(c, &png_path).map_err(|message| Error::Chart {
            path: png_path.clone(),
            message,
        })?;
        svgs.push((c.name.clone(), svg));
    }
    for t in report.tables() {
        write_file(&dir.join(format!("{}.csv", t.name)), csv(t).as_bytes())?;
    }
    write_file(&dir.join("index.html"), html(report, &svgs).as_bytes())?;
    write_file(&dir.join("report.md"), markdown(report).as_bytes())?;
    write_file(&dir.join("report.json"), json(report)?.as_bytes())?;
    write_file(&dir.join(MARKER), report.hammer_version.as_bytes())?;
    Ok(())
}

/// Absolute form of a path that may not exist yet (its parent must, or be creatable).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}

/// Writes the whole report to `out`, replacing an earlier report there.
///
/// Refuses an `out` inside the dataset (the report's files would break the dataset
/// layout) and an existing `out` that is neither empty nor an earlier report (it might
/// be anything; deleting it is not this command's call).
pub fn write_report(report: &Report, dataset: &Path, out: &Path) -> Result<()> {
    let out_abs = absolute(out);
    let data_abs = fs::canonicalize(dataset).unwrap_or_else(|_| absolute(dataset));
    let Some(name) = out_abs
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
    else {
        return Err(Error::OutputRefused {
            path: out.to_owned(),
            reason: "the report directory needs a name".to_owned(),
        });
    };
    let parent = out_abs
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    fs::create_dir_all(&parent).map_err(io(&parent, "cannot create directory"))?;
    let parent = fs::canonicalize(&parent).unwrap_or(parent);
    let target = parent.join(&name);
    if target.starts_with(&data_abs) {
        return Err(Error::OutputRefused {
            path: out.to_owned(),
            reason: format!(
                "the report directory is inside the dataset {}; its files would break the \
                 dataset layout, choose a directory outside it",
                dataset.display()
            ),
        });
    }
    let replace_old = match fs::symlink_metadata(&target) {
        Err(_) => false,
        Ok(meta) if meta.is_dir() => {
            let empty = fs::read_dir(&target)
                .map_err(io(&target, "cannot list directory"))?
                .next()
                .is_none();
            if !empty && !target.join(MARKER).is_file() {
                return Err(Error::OutputRefused {
                    path: out.to_owned(),
                    reason: "exists and is not a report written by hammer analyze (no \
                             .hammer-report file); refusing to replace it"
                        .to_owned(),
                });
            }
            true
        }
        Ok(_) => {
            return Err(Error::OutputRefused {
                path: out.to_owned(),
                reason: "exists and is not a directory".to_owned(),
            });
        }
    };

    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let tmp = parent.join(format!(".{name}.tmp-{}-{stamp}", std::process::id()));
    fs::create_dir(&tmp).map_err(io(&tmp, "cannot create directory"))?;
    if let Err(e) = render_into(report, &tmp) {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if replace_old {
        let old = parent.join(format!(".{name}.old-{}-{stamp}", std::process::id()));
        if let Err(e) = fs::rename(&target, &old) {
            let _ = fs::remove_dir_all(&tmp);
            return Err(io(&target, "cannot move the previous report aside")(e));
        }
        if let Err(e) = fs::rename(&tmp, &target) {
            // Put the previous report back rather than leave nothing.
            let _ = fs::rename(&old, &target);
            let _ = fs::remove_dir_all(&tmp);
            return Err(io(&target, "cannot move the new report into place")(e));
        }
        fs::remove_dir_all(&old).map_err(io(&old, "cannot remove the previous report"))?;
    } else if let Err(e) = fs::rename(&tmp, &target) {
        let _ = fs::remove_dir_all(&tmp);
        return Err(io(&target, "cannot move the new report into place")(e));
    }
    Ok(())
}
