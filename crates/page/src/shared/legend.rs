//! The words of the legends: what each customer's fate and each timeline mark is called.

use sim::timeline::MarkKind;
use sim::world::Fate;

/// A customer's fate, as the grid's legend names it.
pub const fn fate_label(fate: Fate) -> &'static str {
    match fate {
        Fate::Pending => "not done yet",
        Fate::Charged => "charged once",
        Fate::ChargedMoreThanOnce => "charged twice or more",
        Fate::Declined => "declined",
        Fate::GaveUp => "gave up",
        Fate::GaveUpButCharged => "gave up, but charged",
    }
}

/// A timeline mark, as the legend names it.
pub const fn mark_label(kind: MarkKind) -> &'static str {
    match kind {
        MarkKind::Ok => "200 charged",
        MarkKind::Declined => "400 declined",
        MarkKind::Conflict => "409 in progress",
        MarkKind::TooMany => "429 too many",
        MarkKind::ServerError => "500 failed",
        MarkKind::Overloaded => "503 overloaded",
        MarkKind::TimedOut => "client timed out",
        MarkKind::Waiting => "waiting",
    }
}

/// The grid's legend as markup: each fate's swatch, its name and how many customers
/// met it (`data-result="grid.<fate>"`, read by the tests).
pub fn fates_markup(fates: &[Fate]) -> String {
    Fate::ALL
        .into_iter()
        .map(|k| {
            format!(
                "<li><span class=\"rll-swatch\" data-fate=\"{f}\" aria-hidden=\"true\"></span>{}: \
                 <span class=\"rll-num\" data-result=\"grid.{f}\">{}</span></li>",
                crate::shared::markup::escape(fate_label(k)),
                fates.iter().filter(|x| **x == k).count(),
                f = k.as_str()
            )
        })
        .collect()
}

/// Under the grid, when the run has more customers than it draws.
pub fn grid_caption() -> String {
    format!(
        "The grid shows the first {} customers.",
        crate::shared::format::count(sim::budget::GRID_MAX_CELLS.into())
    )
}

/// What the grid announces for the focused cell.
pub fn focused_cell(customer: u32, fate: Fate) -> String {
    format!(
        "Customer {customer}: {}. Press Enter to open the story.",
        fate_label(fate)
    )
}

/// The timeline's legend as markup: each mark's shape, drawn as the canvas draws it, in
/// its kind's colour, with its name; then the slow line and the late-charge ring. One
/// node of markup costs the page's module far less than a view per item (README, "Sizes").
pub fn marks_markup() -> String {
    const SVG: &str =
        "<svg viewBox=\"-6 -6 12 12\" width=\"12\" height=\"12\" aria-hidden=\"true\"";
    let mut items: String = MarkKind::ALL
        .into_iter()
        .map(|k| {
            format!(
                "<li>{SVG} style=\"color: var(--rll-mark-{})\">{}</svg>{}</li>",
                k.as_str(),
                mark_icon(k),
                crate::shared::markup::escape(mark_label(k))
            )
        })
        .collect();
    items.push_str(&format!(
        "<li>{SVG} class=\"rll-legend-line\"><line x1=\"-6\" y1=\"0\" x2=\"6\" y2=\"0\" stroke=\"currentColor\" stroke-width=\"1.5\"></line></svg>slow: time the provider spent</li>\
         <li>{SVG} class=\"rll-legend-harm\"><circle r=\"4.5\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\"></circle></svg>charged after the client stopped waiting</li>"
    ));
    items
}

/// A mark's shape in SVG, in a 12 × 12 box centred on 0.
fn mark_icon(kind: MarkKind) -> &'static str {
    match kind {
        MarkKind::Ok => "<circle r=\"4\" fill=\"currentColor\"></circle>",
        MarkKind::Declined => "<rect x=\"-4\" y=\"-4\" width=\"8\" height=\"8\" fill=\"currentColor\" stroke=\"currentColor\"></rect>",
        MarkKind::Waiting => "<rect x=\"-4\" y=\"-4\" width=\"8\" height=\"8\" fill=\"none\" stroke=\"currentColor\"></rect>",
        MarkKind::Conflict => "<polygon points=\"0,-5 5,4 -5,4\" fill=\"currentColor\"></polygon>",
        MarkKind::TooMany => "<path d=\"M-4,-4 L4,4 M4,-4 L-4,4\" stroke=\"currentColor\" stroke-width=\"1.6\"></path>",
        MarkKind::ServerError => "<polygon points=\"0,-5 5,0 0,5 -5,0\" fill=\"currentColor\"></polygon>",
        MarkKind::Overloaded => "<polygon points=\"-5,-4 5,-4 0,5\" fill=\"currentColor\"></polygon>",
        MarkKind::TimedOut => "<circle r=\"4.5\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\"></circle>",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_marks_legend_names_every_kind_in_its_colour_and_adds_the_two_lines() {
        let m = marks_markup();
        assert_eq!(m.matches("<li>").count(), MarkKind::ALL.len() + 2);
        for k in MarkKind::ALL {
            let item = format!(
                "var(--rll-mark-{})\">{}</svg>{}</li>",
                k.as_str(),
                mark_icon(k),
                mark_label(k)
            );
            assert!(m.contains(&item), "{k:?}: {m}");
        }
        // Hollow and filled squares differ, as on the canvas.
        assert_ne!(mark_icon(MarkKind::Declined), mark_icon(MarkKind::Waiting));
        assert!(m.ends_with("charged after the client stopped waiting</li>"));
    }

    #[test]
    fn the_fates_legend_counts_each_fate() {
        let fates = [Fate::Charged, Fate::Charged, Fate::GaveUp];
        let m = fates_markup(&fates);
        assert_eq!(m.matches("<li>").count(), Fate::ALL.len());
        assert!(m.contains(&format!("data-fate=\"{}\" aria-hidden=\"true\"></span>charged once: <span class=\"rll-num\" data-result=\"grid.{}\">2</span>", Fate::Charged.as_str(), Fate::Charged.as_str())), "{m}");
        assert!(
            m.contains(&format!(
                "data-result=\"grid.{}\">1</span>",
                Fate::GaveUp.as_str()
            )),
            "{m}"
        );
        assert!(
            m.contains(&format!(
                "data-result=\"grid.{}\">0</span>",
                Fate::Declined.as_str()
            )),
            "{m}"
        );
        assert_eq!(
            focused_cell(7, Fate::Declined),
            "Customer 7: declined. Press Enter to open the story."
        );
    }
}
