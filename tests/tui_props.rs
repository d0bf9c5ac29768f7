//! Every screen renders at any size from 1x1 to 250x80 without panicking.

mod common;

use common::*;
use kubedrill::tui::App;
use proptest::prelude::*;
use ratatui::crossterm::event::KeyCode;

fn screen(n: u8, w: u16, h: u16) -> App {
    let mut a = app(w, h);
    let enter = || key(KeyCode::Enter);
    match n {
        0 => {}
        1 => a.update(enter()),
        2 => {
            a.update(enter());
            a.update(ch('/'));
            typed(&mut a, "zz");
        }
        3 => {
            a.update(enter());
            a.update(enter());
        }
        4 => {
            a.update(enter());
            a.update(enter());
            a.update(ch('a'));
            a.update(ch('9'));
        }
        5 => a.update(ch('?')),
        6 => {
            a.update(enter());
            a.update(enter());
            a.update(ch('?'));
        }
        7 => a.update(ch('o')),
        8..=11 => {
            a.update(enter());
            a.update(ch('j'));
            a.update(enter());
            a.update(ch('d'));
            a.update(ch('x'));
            a.update(kubedrill::tui::Msg::Tick);
            match n {
                9 => a.update(ch('e')),
                10 => {
                    a.update(ch(':'));
                    typed(&mut a, "kubectl describe deploy");
                    a.update(key(KeyCode::Enter));
                    // The output across the whole screen, with a line being typed.
                    a.update(ch('v'));
                    a.update(ch(':'));
                    typed(&mut a, "kubectl get po");
                }
                11 => a.update(ch('?')),
                _ => {}
            }
        }
        13 => a.update(ch('m')),
        14..=16 => {
            a.update(ch('m'));
            a.update(enter());
            a.update(enter());
            a.now += 70_000;
            match n {
                15 => {
                    a.update(enter());
                    a.update(ch(' '));
                }
                16 => a.update(ch('E')),
                _ => {}
            }
        }
        17 | 18 => {
            a.update(ch('z'));
            a.update(enter());
            a.update(ch('1'));
            if n == 18 {
                a.update(ch('E'));
            }
        }
        _ => {
            // The card's runnable code, run in the demo.
            a.update(enter());
            a.update(enter());
            a.update(ch('r'));
        }
    }
    a
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn renders_at_any_size(n in 0u8..20, w in 1u16..=250, h in 1u16..=80) {
        let a = screen(n, w, h);
        let _ = render(&a, w, h);
    }
}

#[test]
fn corner_sizes() {
    for n in 0..20 {
        for (w, h) in [
            (1, 1),
            (20, 5),
            (59, 15),
            (60, 16),
            (61, 17),
            (250, 80),
            (250, 16),
            (60, 80),
        ] {
            let a = screen(n, w, h);
            let _ = render(&a, w, h);
        }
    }
}
