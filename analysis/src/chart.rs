//! Drawing a [`Chart`] with plotters, once as SVG text (inlined in the HTML page and saved
//! as a file) and once as PNG.
//!
//! Log axes are drawn as linear axes over log10 of the values, with ticks only at powers
//! of ten: one code path then serves every chart, and the tick labels stay readable
//! (1k, 10k, 1M) instead of plotters' long decimal labels.

use std::path::Path;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::report::{Chart, Scale, SeriesKind};

pub const WIDTH: u32 = 960;
pub const HEIGHT: u32 = 560;

const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The chart as an SVG document.
pub fn svg(chart: &Chart) -> Result<String, String> {
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (WIDTH, HEIGHT)).into_drawing_area();
        draw(&root, chart)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(buf)
}

/// The chart as a PNG file at `path`.
pub fn png(chart: &Chart, path: &Path) -> Result<(), String> {
    let root = BitMapBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    draw(&root, chart)?;
    root.present().map_err(|e| e.to_string())
}

fn to_axis(scale: Scale, v: f64) -> Option<f64> {
    match scale {
        Scale::Linear => v.is_finite().then_some(v),
        Scale::Log => (v.is_finite() && v > 0.0).then(|| v.log10()),
    }
}

/// A number for a tick label: 1, 10, 100, 1k, 10k, 100k, 1M, ...
fn short(v: f64) -> String {
    let a = v.abs();
    let (d, suffix) = if a >= 1e9 {
        (1e9, "G")
    } else if a >= 1e6 {
        (1e6, "M")
    } else if a >= 1e3 {
        (1e3, "k")
    } else {
        (1.0, "")
    };
    let x = v / d;
    if (x - x.round()).abs() < 1e-9 {
        format!("{}{suffix}", x.round())
    } else {
        format!("{x:.2}{suffix}")
    }
}

/// Axis range over all values (and interval ends) of one axis.
fn range(values: &[f64], scale: Scale, integers: bool) -> (f64, f64) {
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    match scale {
        Scale::Log => {
            // Whole decades, so that ticks fall on powers of ten, plus a margin when a
            // point sits on the edge and its marker would be cut in half.
            let (mut a, mut b) = (lo.floor(), hi.ceil());
            if b <= a {
                b = a + 1.0;
            }
            if lo - a < 0.05 {
                a -= 0.1;
            }
            if b - hi < 0.05 {
                b += 0.1;
            }
            (a, b)
        }
        Scale::Linear if integers => (lo - 0.5, hi + 0.5),
        Scale::Linear => {
            let span = hi - lo;
            let pad = if span > 0.0 {
                span * 0.08
            } else {
                (lo.abs() * 0.05).max(0.05)
            };
            (lo - pad, hi + pad)
        }
    }
}

/// Every value the axes must show: the points' x and y, and their intervals' ends, on
/// the axes' scales (a value a log axis cannot show is left out).
fn axis_values(chart: &Chart) -> (Vec<f64>, Vec<f64>) {
    let (xs, ys) = (chart.x_scale, chart.y_scale);
    let mut x_values = Vec::new();
    let mut y_values = Vec::new();
    for s in &chart.series {
        for p in &s.points {
            if let (Some(x), Some(y)) = (to_axis(xs, p.x), to_axis(ys, p.y)) {
                x_values.push(x);
                y_values.push(y);
                y_values.extend(p.low.and_then(|v| to_axis(ys, v)));
                y_values.extend(p.high.and_then(|v| to_axis(ys, v)));
            }
        }
    }
    (x_values, y_values)
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &Chart) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    root.fill(&WHITE).map_err(|e| err(&e))?;

    let xs = chart.x_scale;
    let ys = chart.y_scale;
    let (x_values, y_values) = axis_values(chart);
    let categories = chart.categories.clone().unwrap_or_default();
    let x_integers = chart.categories.is_some()
        || (xs == Scale::Linear && x_values.iter().all(|v| (v - v.round()).abs() < 1e-9));
    let (x0, x1) = if chart.categories.is_some() {
        (-0.5, categories.len().max(1) as f64 - 0.5)
    } else {
        range(&x_values, xs, x_integers)
    };
    let (y0, y1) = range(&y_values, ys, false);

    let x_fmt = |v: &f64| -> String {
        if chart.categories.is_some() {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 {
                return categories.get(i as usize).cloned().unwrap_or_default();
            }
            return String::new();
        }
        match xs {
            Scale::Log if (v - v.round()).abs() < 1e-6 => short(10f64.powf(v.round())),
            Scale::Log => String::new(),
            Scale::Linear if x_integers && (v - v.round()).abs() > 1e-6 => String::new(),
            Scale::Linear => short(*v),
        }
    };
    let y_fmt = |v: &f64| -> String {
        match ys {
            Scale::Log if (v - v.round()).abs() < 1e-6 => short(10f64.powf(v.round())),
            Scale::Log => String::new(),
            Scale::Linear => {
                let span = y1 - y0;
                if span < 0.05 {
                    format!("{v:.4}")
                } else if span < 2.0 {
                    format!("{v:.2}")
                } else {
                    short(*v)
                }
            }
        }
    };
    let x_labels = if chart.categories.is_some() {
        categories.len().max(1)
    } else if xs == Scale::Log || x_integers {
        ((x1 - x0).round() as usize + 1).clamp(2, 20)
    } else {
        10
    };
    let y_labels = match ys {
        Scale::Log => ((y1 - y0).round() as usize + 1).max(2),
        Scale::Linear => 8,
    };

    let mut cc = ChartBuilder::on(root)
        .caption(&chart.title, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(84)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| err(&e))?;
    cc.configure_mesh()
        .x_desc(chart.x_label.as_str())
        .y_desc(chart.y_label.as_str())
        .x_labels(x_labels)
        .y_labels(y_labels)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 15))
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(|e| err(&e))?;

    let reports = chart
        .series
        .iter()
        .filter(|s| s.kind == SeriesKind::Report)
        .count();
    let (mut ours_i, mut report_i) = (0usize, 0usize);
    for s in &chart.series {
        let color = if s.kind == SeriesKind::Report {
            report_i += 1;
            if reports == 1 {
                BLACK
            } else {
                PALETTE[(report_i - 1) % PALETTE.len()]
            }
        } else {
            ours_i += 1;
            PALETTE[(ours_i - 1) % PALETTE.len()]
        };
        let pts = axis_points(s, xs, ys);
        if !pts.is_empty() {
            draw_series(&mut cc, s, &pts, color)?;
        }
    }
    if !chart.series.is_empty() {
        cc.configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .label_font(("sans-serif", 13))
            .draw()
            .map_err(|e| err(&e))?;
    }
    Ok(())
}

/// A series' points on the axes (a value a log axis cannot show is left out), each with
/// its interval's ends where it has them.
fn axis_points(s: &crate::report::Series, xs: Scale, ys: Scale) -> Vec<AxisPoint> {
    s.points
        .iter()
        .filter_map(|p| {
            Some((
                to_axis(xs, p.x)?,
                to_axis(ys, p.y)?,
                // A t interval can reach below zero; on a log axis it is cut at 1/1000
                // of the value rather than dropped.
                p.low.and_then(|v| match ys {
                    Scale::Log => to_axis(ys, v.max(p.y * 1e-3)),
                    Scale::Linear => to_axis(ys, v),
                }),
                p.high.and_then(|v| to_axis(ys, v)),
            ))
        })
        .collect()
}

/// A point on the axes: x, y, and the interval's low and high ends.
type AxisPoint = (f64, f64, Option<f64>, Option<f64>);

/// Draws one series: ours as points with interval bars (and a line for a line series),
/// the report's as open circles; each with its legend entry.
fn draw_series<'a, DB: DrawingBackend + 'a>(
    cc: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    s: &crate::report::Series,
    pts: &[AxisPoint],
    color: RGBColor,
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| e.to_string();
    if s.kind == SeriesKind::Line {
        cc.draw_series(LineSeries::new(
            pts.iter().map(|p| (p.0, p.1)),
            color.stroke_width(2),
        ))
        .map_err(|e| err(&e))?;
    }
    if s.kind != SeriesKind::Report {
        cc.draw_series(pts.iter().filter_map(|&(x, y, lo, hi)| {
            let (lo, hi) = (lo.unwrap_or(y), hi.unwrap_or(y));
            (hi > lo).then(|| PathElement::new(vec![(x, lo), (x, hi)], color.stroke_width(1)))
        }))
        .map_err(|e| err(&e))?;
        cc.draw_series(pts.iter().filter_map(|&(x, y, lo, hi)| {
            let (lo, hi) = (lo.unwrap_or(y), hi.unwrap_or(y));
            (hi > lo).then(|| {
                EmptyElement::at((x, lo))
                    + PathElement::new(vec![(-4, 0), (4, 0)], color.stroke_width(1))
            })
        }))
        .map_err(|e| err(&e))?;
        cc.draw_series(pts.iter().filter_map(|&(x, y, lo, hi)| {
            let (lo, hi) = (lo.unwrap_or(y), hi.unwrap_or(y));
            (hi > lo).then(|| {
                EmptyElement::at((x, hi))
                    + PathElement::new(vec![(-4, 0), (4, 0)], color.stroke_width(1))
            })
        }))
        .map_err(|e| err(&e))?;
        cc.draw_series(
            pts.iter()
                .map(|&(x, y, _, _)| Circle::new((x, y), 4, color.filled())),
        )
        .map_err(|e| err(&e))?
        .label(s.name.as_str())
        .legend(move |(x, y)| {
            EmptyElement::at((x, y))
                + PathElement::new(vec![(0, 0), (18, 0)], color.stroke_width(2))
                + Circle::new((9, 0), 4, color.filled())
        });
    } else {
        cc.draw_series(
            pts.iter()
                .map(|&(x, y, _, _)| Circle::new((x, y), 7, color.stroke_width(2))),
        )
        .map_err(|e| err(&e))?
        .label(s.name.as_str())
        .legend(move |(x, y)| Circle::new((x + 9, y), 6, color.stroke_width(2)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_labels() {
        assert_eq!(short(1.0), "1");
        assert_eq!(short(1000.0), "1k");
        assert_eq!(short(250_000.0), "250k");
        assert_eq!(short(1e6), "1M");
        assert_eq!(short(0.5), "0.50");
    }
}
