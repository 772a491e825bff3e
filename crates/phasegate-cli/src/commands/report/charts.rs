//! The report's charts, drawn by plotters into inline SVG: a feature's cost
//! by phase as bars, and a metric over the last features as a line.

use plotters::coord::Shift;
use plotters::coord::ranged1d::{SegmentValue, SegmentedCoord};
use plotters::coord::types::{RangedCoordf64, RangedCoordu32};
use plotters::prelude::*;

/// The colours of the page (its CSS uses the same).
const INK: RGBColor = RGBColor(0x1f, 0x29, 0x37);
const BAR: RGBColor = RGBColor(0x25, 0x63, 0xeb);
const OUTSIDE: RGBColor = RGBColor(0x9c, 0xa3, 0xaf);
const LINE: RGBColor = RGBColor(0x0f, 0x76, 0x6e);
const FONT: &str = "sans-serif";

/// One bar: its label, its value, and whether it is the share outside
/// every phase (drawn grey).
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub outside: bool,
}

/// How wide a label is at the axis font (15 px sans-serif), generously:
/// 0.6 em a character.
const LABEL_CHAR_PX: u32 = 9;
/// The least room between two labels on one row.
const LABEL_GAP_PX: u32 = 8;
/// A bar's segment, at least.
const SEGMENT_PX: u32 = 90;
/// The widest a segment grows for its label to stay on one row.
const ONE_ROW_MAX_PX: u32 = 140;

fn label_px(label: &str) -> u32 {
    label.chars().count() as u32 * LABEL_CHAR_PX
}

/// A bar chart of `bars` (`unit`: `$` for USD, else a word after the value).
/// Labels that do not fit under their bar (a pipeline's states) take two
/// rows, every other one lower, and the chart widens until each has the
/// room of two bars: no label runs into another.
pub fn bars(bars: &[Bar], unit: &str) -> Result<String, String> {
    let mut svg = String::new();
    {
        let needs = bars.iter().map(|b| label_px(&b.label)).max().unwrap_or(0) + LABEL_GAP_PX;
        let two_rows = needs > ONE_ROW_MAX_PX;
        let segment = match two_rows {
            true => SEGMENT_PX.max(needs.div_ceil(2)),
            false => needs.clamp(SEGMENT_PX, ONE_ROW_MAX_PX),
        };
        let width = (segment * bars.len() as u32 + 90).max(360);
        let root = SVGBackend::with_string(&mut svg, (width, if two_rows { 262 } else { 240 })).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let top = bars.iter().map(|b| b.value).fold(0.0_f64, f64::max);
        let top = if top > 0.0 { top * 1.18 } else { 1.0 };
        let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
        let rows = if two_rows { 2 } else { 1 };
        let mut chart = axes(&root, &labels, 0.0..top, unit, rows)?;
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                let i = i as u32;
                let colour = if b.outside { OUTSIDE } else { BAR };
                let mut r = Rectangle::new(
                    [(SegmentValue::Exact(i), 0.0), (SegmentValue::Exact(i + 1), b.value)],
                    colour.filled(),
                );
                r.set_margin(0, 0, 10, 10);
                r
            }))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                Text::new(
                    money_or(b.value, unit),
                    (SegmentValue::CenterOf(i as u32), b.value + top * 0.02),
                    (FONT, 14).into_font().color(&INK).pos(plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Center,
                        plotters::style::text_anchor::VPos::Bottom,
                    )),
                )
            }))
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// A line chart of `values` (feature, value), oldest first; `unit` as for
/// [`bars`]; `unit_range`: the axis runs from 0 to 1 (a rate).
pub fn line(values: &[(String, f64)], unit: &str, unit_range: bool) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (420, 220)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (lo, hi) = if unit_range {
            (0.0, 1.0)
        } else {
            let hi = values.iter().map(|v| v.1).fold(0.0_f64, f64::max);
            (0.0, if hi > 0.0 { hi * 1.15 } else { 1.0 })
        };
        let labels: Vec<String> = values.iter().map(|v| short_feature(&v.0)).collect();
        let mut chart = axes(&root, &labels, lo..hi, unit, 1)?;
        let points: Vec<(SegmentValue<u32>, f64)> =
            values.iter().enumerate().map(|(i, v)| (SegmentValue::CenterOf(i as u32), v.1)).collect();
        chart.draw_series(LineSeries::new(points.clone(), LINE.stroke_width(2))).map_err(|e| e.to_string())?;
        chart
            .draw_series(points.iter().map(|p| Circle::new(p.clone(), 4, LINE.filled())))
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<SegmentedCoord<RangedCoordu32>, RangedCoordf64>>;

/// The axes both charts share: one labelled segment per bar or point along
/// x, on `rows` rows (2: every other label lower), `y` up the side with
/// its values as money or numbers.
fn axes<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    labels: &[String],
    y: std::ops::Range<f64>,
    unit: &str,
    rows: u32,
) -> Result<Chart<'a, 'b>, String> {
    const ROW_PX: i32 = 20;
    let mut chart = ChartBuilder::on(root)
        .margin(10)
        .x_label_area_size(28 + ROW_PX as u32 * (rows - 1))
        .y_label_area_size(58)
        .build_cartesian_2d(segments(labels.len() as u32), y.clone())
        .map_err(|e| e.to_string())?;
    let one_row = rows == 1;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE)
        .bold_line_style(INK.mix(0.08))
        .axis_style(INK.mix(0.5))
        .label_style((FONT, 15).into_font().color(&INK))
        .x_labels(labels.len())
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) if one_row => labels.get(*i as usize).cloned().unwrap_or_default(),
            SegmentValue::CenterOf(_) | SegmentValue::Exact(_) | SegmentValue::Last => String::new(),
        })
        .y_label_formatter(&|v| money_or(*v, unit))
        .draw()
        .map_err(|e| e.to_string())?;
    if !one_row {
        let style = (FONT, 15).into_font().color(&INK).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Top,
        ));
        for (i, label) in labels.iter().enumerate() {
            let (x, axis) = chart.backend_coord(&(SegmentValue::CenterOf(i as u32), y.start));
            let row = (i as i32) % rows as i32;
            root.draw(&Text::new(label.clone(), (x, axis + 8 + row * ROW_PX), style.clone()))
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(chart)
}

/// `n` segments along x, one per bar or point (plotters' integer ranges
/// include their end; one segment alone would have no width).
fn segments(n: u32) -> SegmentedCoord<RangedCoordu32> {
    (0..n.saturating_sub(1).max(1)).into_segmented()
}

/// `$1.23` for USD; else the value and the unit (`0.75`, `12k tokens`).
fn money_or(v: f64, unit: &str) -> String {
    match unit {
        "$" => format!("${v:.2}"),
        "" => format!("{v:.2}"),
        "tokens" if v >= 1000.0 => format!("{:.0}k", v / 1000.0),
        _ => format!("{v:.0}"),
    }
}

/// A feature's number (`007`) for a crowded axis; the whole name otherwise.
fn short_feature(name: &str) -> String {
    match name.split_once('-') {
        Some((num, _)) if num.chars().all(|c| c.is_ascii_digit()) => num.to_owned(),
        _ => name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_chart_has_a_bar_and_a_label_per_phase() {
        let svg = bars(
            &[
                Bar { label: "specify".into(), value: 1.5, outside: false },
                Bar { label: "implement".into(), value: 4.25, outside: false },
                Bar { label: "outside".into(), value: 0.5, outside: true },
            ],
            "$",
        )
        .unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        for text in ["specify", "implement", "outside", "$4.25", "$1.50"] {
            assert!(svg.contains(&format!("\n{text}\n</text>")), "{text} missing: {svg}");
        }
        // Three filled bars beside the white background.
        assert_eq!(svg.matches(r##"fill="#2563EB""##).count(), 2, "{svg}");
        assert_eq!(svg.matches(r##"fill="#9CA3AF""##).count(), 1, "{svg}");
    }

    /// Each `<text x=.. y=..>label</text>` of `svg` whose label is one of
    /// `labels`: (label, x, y).
    fn placed<'a>(svg: &str, labels: &[&'a str]) -> Vec<(&'a str, i32, i32)> {
        let attr = |tag: &str, name: &str| -> i32 {
            let at = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            tag[at..].split('"').next().unwrap().parse::<f64>().unwrap() as i32
        };
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                let (tag, rest) = t.split_once('>')?;
                let text = rest.split("</text>").next()?.trim();
                let label = labels.iter().find(|l| **l == text)?;
                Some((*label, attr(tag, "x"), attr(tag, "y")))
            })
            .collect()
    }

    /// Friction: on a pipeline, the cost chart's labels (its states, up to
    /// 22 characters under 90-pixel bars) ran into each other. Each label
    /// now has the room it needs on its row.
    #[test]
    fn the_chart_labels_overlap_on_a_pipeline() {
        let states = [
            "requirements_gathering",
            "plan_drafting",
            "plan_refining",
            "plan_reviewing",
            "implementing",
            "implementing_loop",
            "code_reviewing",
            "outside",
        ];
        let bars_of: Vec<Bar> =
            states.iter().map(|s| Bar { label: (*s).into(), value: 1.0, outside: *s == "outside" }).collect();
        let svg = bars(&bars_of, "$").unwrap();
        let at = placed(&svg, &states);
        assert_eq!(at.len(), states.len(), "every state is labelled once: {at:?}");
        // Two labels side by side are a row apart, or far enough apart on
        // their row.
        for (i, a) in at.iter().enumerate() {
            for b in &at[i + 1..] {
                let room = (label_px(a.0) + label_px(b.0)) / 2 + LABEL_GAP_PX;
                assert!(a.1.abs_diff(b.1) >= room || a.2.abs_diff(b.2) >= 15, "{} and {} overlap: {at:?}", a.0, b.0);
            }
        }
        // Short labels stay on one row, as before.
        let phases = ["specify", "design", "create-tasks", "implement"];
        let short: Vec<Bar> = phases.iter().map(|s| Bar { label: (*s).into(), value: 1.0, outside: false }).collect();
        let svg = bars(&short, "$").unwrap();
        assert_eq!(placed(&svg, &phases).len(), 4);
        assert!(svg.contains("height=\"240\""), "one row of labels: {}", &svg[..120]);
    }

    #[test]
    fn a_line_of_one_feature_still_draws() {
        let svg = line(&[("004-a".into(), 0.5)], "", true).unwrap();
        assert!(svg.contains("<circle") && svg.contains("\n004\n</text>"), "{svg}");
    }
}
