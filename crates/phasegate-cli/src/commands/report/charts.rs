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

/// A bar chart of `bars` (`unit`: `$` for USD, else a word after the value).
pub fn bars(bars: &[Bar], unit: &str) -> Result<String, String> {
    let mut svg = String::new();
    {
        let width = (90 * bars.len() as u32 + 90).clamp(360, 900);
        let root = SVGBackend::with_string(&mut svg, (width, 240)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let top = bars.iter().map(|b| b.value).fold(0.0_f64, f64::max);
        let top = if top > 0.0 { top * 1.18 } else { 1.0 };
        let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
        let mut chart = axes(&root, &labels, 0.0..top, unit)?;
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
        let mut chart = axes(&root, &labels, lo..hi, unit)?;
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
/// x, `y` up the side with its values as money or numbers.
fn axes<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    labels: &[String],
    y: std::ops::Range<f64>,
    unit: &str,
) -> Result<Chart<'a, 'b>, String> {
    let mut chart = ChartBuilder::on(root)
        .margin(10)
        .x_label_area_size(28)
        .y_label_area_size(58)
        .build_cartesian_2d(segments(labels.len() as u32), y)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(WHITE)
        .bold_line_style(INK.mix(0.08))
        .axis_style(INK.mix(0.5))
        .label_style((FONT, 15).into_font().color(&INK))
        .x_labels(labels.len())
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => labels.get(*i as usize).cloned().unwrap_or_default(),
            SegmentValue::Exact(_) | SegmentValue::Last => String::new(),
        })
        .y_label_formatter(&|v| money_or(*v, unit))
        .draw()
        .map_err(|e| e.to_string())?;
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

    #[test]
    fn a_line_of_one_feature_still_draws() {
        let svg = line(&[("004-a".into(), 0.5)], "", true).unwrap();
        assert!(svg.contains("<circle") && svg.contains("\n004\n</text>"), "{svg}");
    }
}
