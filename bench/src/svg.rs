//! A small hand-written SVG line chart, so the report needs no plotting
//! library (or Python) to draw its one figure.

use std::fmt::Write;

/// One line of the chart.
#[derive(Debug, Clone)]
pub struct Series {
    pub name: String,
    /// Any SVG colour.
    pub color: String,
    pub dashed: bool,
    /// (x, y) points; x must be positive (the x axis is log₂).
    pub points: Vec<(f64, f64)>,
}

/// A line chart with a log₂ x axis and a linear y axis starting at 0.
#[derive(Debug, Clone)]
pub struct Chart {
    pub title: String,
    pub subtitle: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
}

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 460.0;
const LEFT: f64 = 84.0;
const RIGHT: f64 = 36.0;
const TOP: f64 = 70.0;
const BOTTOM: f64 = 62.0;
const LEGEND_W: f64 = 230.0;

/// Renders `chart` as a standalone SVG document.
pub fn line_chart(chart: &Chart) -> String {
    let points = chart.series.iter().flat_map(|s| s.points.iter().copied());
    let xs: Vec<f64> = {
        let mut xs: Vec<f64> = points.clone().map(|(x, _)| x).filter(|x| *x > 0.0).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        xs
    };
    let y_max = points.map(|(_, y)| y).fold(0.0, f64::max);
    let (y_top, y_step) = nice_axis(y_max);
    let (x_lo, x_hi) = match (xs.first(), xs.last()) {
        (Some(&lo), Some(&hi)) if hi > lo => (lo.log2(), hi.log2()),
        (Some(&lo), _) => (lo.log2() - 1.0, lo.log2() + 1.0),
        _ => (0.0, 1.0),
    };
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let px = |x: f64| LEFT + (x.log2() - x_lo) / (x_hi - x_lo) * plot_w;
    let py = |y: f64| TOP + plot_h - y / y_top * plot_h;

    let mut svg = String::new();
    let w = &mut svg;
    // Writing to a String cannot fail.
    let _ = writeln!(
        w,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="Helvetica, Arial, sans-serif" font-size="12">"#
    );
    let _ = writeln!(w, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(w, r#"<text x="{LEFT}" y="26" font-size="16" font-weight="bold">{}</text>"#, esc(&chart.title));
    let _ = writeln!(w, r##"<text x="{LEFT}" y="46" fill="#555">{}</text>"##, esc(&chart.subtitle));

    // Grid and y ticks.
    let mut y = 0.0;
    while y <= y_top + y_step / 2.0 {
        let at = py(y);
        let _ = writeln!(
            w,
            r##"<line x1="{LEFT}" y1="{at:.1}" x2="{:.1}" y2="{at:.1}" stroke="#e4e4e4"/>"##,
            LEFT + plot_w
        );
        let _ = writeln!(w, r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#, LEFT - 8.0, at + 4.0, si(y));
        y += y_step;
    }
    // x ticks at the measured points.
    for &x in &xs {
        let at = px(x);
        let _ =
            writeln!(w, r##"<line x1="{at:.1}" y1="{TOP}" x2="{at:.1}" y2="{:.1}" stroke="#f0f0f0"/>"##, TOP + plot_h);
        let _ = writeln!(w, r#"<text x="{at:.1}" y="{:.1}" text-anchor="middle">{x}</text>"#, TOP + plot_h + 18.0);
    }
    // Axes and their labels.
    let _ = writeln!(
        w,
        r##"<path d="M{LEFT},{TOP} V{:.1} H{:.1}" fill="none" stroke="#333"/>"##,
        TOP + plot_h,
        LEFT + plot_w
    );
    let _ = writeln!(
        w,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        LEFT + plot_w / 2.0,
        HEIGHT - 16.0,
        esc(&chart.x_label)
    );
    let _ = writeln!(
        w,
        r#"<text transform="translate(18,{:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        TOP + plot_h / 2.0,
        esc(&chart.y_label)
    );

    // The lines, with a dot per point.
    for series in &chart.series {
        let path: Vec<String> = series.points.iter().map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y))).collect();
        let dash = if series.dashed { r#" stroke-dasharray="6 4""# } else { "" };
        let _ = writeln!(
            w,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2.5"{dash}/>"#,
            path.join(" "),
            series.color
        );
        for &(x, y) in &series.points {
            let _ = writeln!(w, r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{}"/>"#, px(x), py(y), series.color);
        }
    }

    // Legend, in the corner of the plot the lines cross least (top left
    // when free).
    let legend_h = 10.0 + 20.0 * chart.series.len() as f64;
    let corners = [
        (LEFT + 12.0, TOP + 10.0),
        (LEFT + plot_w - 12.0 - LEGEND_W, TOP + 10.0),
        (LEFT + plot_w - 12.0 - LEGEND_W, TOP + plot_h - 10.0 - legend_h),
        (LEFT + 12.0, TOP + plot_h - 10.0 - legend_h),
    ];
    let lines: Vec<Vec<(f64, f64)>> =
        chart.series.iter().map(|s| s.points.iter().map(|&(x, y)| (px(x), py(y))).collect()).collect();
    let (lx, ly) = corners
        .into_iter()
        .min_by_key(|&(x, y)| lines.iter().map(|line| crossings(line, (x, y, LEGEND_W, legend_h))).sum::<usize>())
        .expect("four corners");
    let _ = writeln!(
        w,
        r##"<rect x="{lx:.1}" y="{ly:.1}" width="{LEGEND_W}" height="{legend_h:.1}" fill="white" fill-opacity="0.9" stroke="#ccc"/>"##,
    );
    for (i, series) in chart.series.iter().enumerate() {
        let y = ly + 16.0 + 20.0 * i as f64;
        let dash = if series.dashed { r#" stroke-dasharray="6 4""# } else { "" };
        let _ = writeln!(
            w,
            r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{}" stroke-width="2.5"{dash}/>"#,
            lx + 10.0,
            lx + 38.0,
            series.color
        );
        let _ = writeln!(w, r#"<text x="{:.1}" y="{:.1}">{}</text>"#, lx + 46.0, y + 4.0, esc(&series.name));
    }
    let _ = writeln!(w, "</svg>");
    svg
}

/// How many of 64 samples along each segment of `line` (in pixels) fall
/// inside the box `(x, y, width, height)`, widened by a small margin.
fn crossings(line: &[(f64, f64)], (x, y, width, height): (f64, f64, f64, f64)) -> usize {
    const MARGIN: f64 = 6.0;
    let inside = |(px, py): (f64, f64)| {
        px >= x - MARGIN && px <= x + width + MARGIN && py >= y - MARGIN && py <= y + height + MARGIN
    };
    let mut count = line.iter().filter(|&&p| inside(p)).count();
    for pair in line.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        count += (1..64).map(|i| i as f64 / 64.0).filter(|t| inside((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t))).count();
    }
    count
}

/// A round axis top at or above `max`, and a tick step giving about 5 ticks.
fn nice_axis(max: f64) -> (f64, f64) {
    if max <= 0.0 || !max.is_finite() {
        return (1.0, 0.2);
    }
    let rough = max / 5.0;
    let magnitude = 10f64.powf(rough.log10().floor());
    let step =
        [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * magnitude).find(|&s| s >= rough).unwrap_or(10.0 * magnitude);
    ((max / step).ceil() * step, step)
}

/// 12500 → "12.5k", 3000000 → "3M".
fn si(value: f64) -> String {
    let (scaled, suffix) = match value.abs() {
        v if v >= 1e6 => (value / 1e6, "M"),
        v if v >= 1e3 => (value / 1e3, "k"),
        _ => (value, ""),
    };
    let text = format!("{scaled:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text}{suffix}")
}

fn esc(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_and_labels() {
        assert_eq!(nice_axis(93_000.0), (100_000.0, 20_000.0));
        assert_eq!(nice_axis(12.0), (12.5, 2.5));
        assert_eq!(si(12_500.0), "12.5k");
        assert_eq!(si(3e6), "3M");
        assert_eq!(si(0.0), "0");
    }

    #[test]
    fn draws_every_series() {
        let chart = Chart {
            title: "t".into(),
            subtitle: "s".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![
                Series { name: "a<b".into(), color: "red".into(), dashed: false, points: vec![(1.0, 1.0), (4.0, 3.0)] },
                Series { name: "c".into(), color: "blue".into(), dashed: true, points: vec![(2.0, 2.0)] },
            ],
        };
        let svg = line_chart(&chart);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("a&lt;b"));
    }

    #[test]
    fn the_legend_avoids_the_lines() {
        let legend_at = |points: Vec<(f64, f64)>| {
            let chart = Chart {
                title: "t".into(),
                subtitle: "s".into(),
                x_label: "x".into(),
                y_label: "y".into(),
                series: vec![Series { name: "a".into(), color: "red".into(), dashed: false, points }],
            };
            let svg = line_chart(&chart);
            svg.lines().find(|l| l.contains(r#"width="230""#)).expect("a legend").to_string()
        };
        // Rising: the top left is free.
        assert!(legend_at(vec![(1.0, 0.0), (64.0, 100.0)]).contains(&format!(r#"x="{:.1}""#, LEFT + 12.0)));
        // Falling: the line crosses the top left, so the legend moves.
        assert!(!legend_at(vec![(1.0, 100.0), (64.0, 0.0)]).contains(&format!(r#"x="{:.1}""#, LEFT + 12.0)));
    }
}
