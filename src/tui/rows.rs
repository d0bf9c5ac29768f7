//! Splitting an area into rows by arithmetic, for the splits every frame makes.
//!
//! Why not `Layout`: its constraint solver was a tenth of the instructions of the first
//! frame (three splits). These give the same rectangles as `Layout::vertical` with one
//! `Length` and one `Fill(1)` when the length fits, which the tests below check.

use ratatui::layout::Rect;

/// The top `h` rows (at most all of them) and the rest.
pub fn top(area: Rect, h: u16) -> [Rect; 2] {
    let h = h.min(area.height);
    let upper = Rect { height: h, ..area };
    let lower = Rect {
        y: area.y + h,
        height: area.height - h,
        ..area
    };
    [upper, lower]
}

/// The rest and the bottom `h` rows (at most all of them).
pub fn bottom(area: Rect, h: u16) -> [Rect; 2] {
    top(area, area.height - h.min(area.height))
}

#[cfg(test)]
mod tests {
    use ratatui::layout::{Constraint, Layout};

    use super::*;

    #[test]
    fn same_rectangles_as_layout() {
        for height in 0..30 {
            let area = Rect::new(3, 2, 40, height);
            for h in 0..=height {
                let by_layout: [Rect; 2] =
                    Layout::vertical([Constraint::Length(h), Constraint::Fill(1)]).areas(area);
                assert_eq!(top(area, h), by_layout, "top {h} of {area:?}");
                let by_layout: [Rect; 2] =
                    Layout::vertical([Constraint::Fill(1), Constraint::Length(h)]).areas(area);
                assert_eq!(bottom(area, h), by_layout, "bottom {h} of {area:?}");
            }
        }
    }

    #[test]
    fn too_tall_takes_everything() {
        let area = Rect::new(0, 0, 10, 5);
        assert_eq!(top(area, 9), [area, Rect::new(0, 5, 10, 0)]);
        assert_eq!(bottom(area, 9), [Rect::new(0, 0, 10, 0), area]);
    }
}
