//! The frame around the screens as the app draws it: the warning banner, the
//! breadcrumb, the status line with its hints, the size guard, and the screen on top.

use super::*;

impl App {
    /// Warnings above everything: skipped content files, then config.toml problems (at
    /// most two rows of those; the file says the rest).
    pub(super) fn banner_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.broken_files.is_empty() {
            out.push(format!(
                " warning: skipped {} content file(s) with problems: {} (run `kubedrill check`)",
                self.broken_files.len(),
                self.broken_files.join(", ")
            ));
        }
        for w in self.config_warnings.iter().take(2) {
            out.push(format!(" warning: {w} (using the default)"));
        }
        if self.config_warnings.len() > 2 {
            out.push(format!(
                " warning: {} more problem(s) with config.toml: `?` lists them all",
                self.config_warnings.len() - 2
            ));
        }
        if self.not_saving() {
            out.push(format!(
                " not saving progress: {}",
                self.progress_notices.join("; ")
            ));
        }
        out
    }

    pub(super) fn breadcrumb(&self) -> Vec<String> {
        let mut out = vec!["kubedrill".to_string()];
        for s in &self.stack[1..] {
            out.push(match s {
                Screen::Home(_) => "topics".into(),
                Screen::List(l) => l.title(&self.deck),
                Screen::Card(c) => c.id.clone(),
                Screen::Settings(_) => "settings".into(),
                Screen::Demo(_) => "demo".into(),
                Screen::Review(r) => r.title(&self.deck),
                Screen::Stats(_) => "stats".into(),
                Screen::Setup(s) => format!("{} setup", s.title()),
                Screen::Mock(_) => "mock interview".into(),
                Screen::Quiz(_) => "quiz".into(),
            });
        }
        out
    }

    pub(super) fn hints(&self) -> String {
        let ctx = self.context();
        let hints = self.keymap.hints(ctx);
        // One key starts an answer and finishes it; say which it does now (a follow-up's
        // clock starts as the interviewer asks it).
        match self.screen() {
            Screen::Mock(m) if ctx == Context::Interview => {
                let word = if m.mock.phase() == crate::study::mock::Phase::Prompt {
                    "start"
                } else {
                    "finish"
                };
                hints.replace(crate::tui::keymap::START_FINISH, word)
            }
            // The result page of a quiz: only scrolling and leaving are left to do.
            Screen::Quiz(q) if q.quiz.is_done() => {
                let keys = |a: &[Action]| self.keymap.keys_for(Context::Quiz, a);
                format!(
                    "{} scroll · {} back",
                    keys(&[Action::Up, Action::Down]),
                    keys(&[Action::Back])
                )
            }
            _ => hints,
        }
    }
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            let msg = format!(
                "kubedrill needs at least {MIN_WIDTH}x{MIN_HEIGHT} (now {}x{})",
                area.width, area.height
            );
            let h = (msg.len() as u16)
                .div_ceil(area.width.max(1))
                .min(area.height);
            let [_, mid, _] = Layout::vertical([
                Constraint::Fill(1),
                Constraint::Length(h),
                Constraint::Fill(1),
            ])
            .areas(area);
            Paragraph::new(msg)
                .centered()
                .wrap(Wrap { trim: true })
                .render(mid, buf);
            return;
        }
        let f = self.frame(area);
        if let Some(b) = f.banner {
            let lines: Vec<Line> = self
                .banner_lines()
                .iter()
                .map(|t| Line::from(crate::tui::text::truncate(t, b.width as usize)))
                .collect();
            Paragraph::new(lines).style(theme.warning).render(b, buf);
        }
        let crumbs = self.breadcrumb().join(" › ");
        Paragraph::new(Span::styled(
            crate::tui::text::truncate(&format!(" {crumbs}"), f.title.width as usize),
            theme.title,
        ))
        .render(f.title, buf);

        let ctx = Ctx {
            deck: &self.deck,
            settings: &self.settings,
            theme,
            keymap: &self.keymap,
            solved: &self.solved,
            config_warnings: &self.config_warnings,
        };
        match self.screen() {
            Screen::Home(state) => {
                let due = self.progress.as_ref().and_then(|p| {
                    crate::study::session::due_by_topic(&self.deck, p, self.now).ok()
                });
                (&home::View {
                    ctx,
                    state,
                    due: due.as_ref(),
                })
                    .render(f.main, buf)
            }
            Screen::List(state) => (&list::View { ctx, state }).render(f.main, buf),
            Screen::Card(state) => (&card::View { ctx, state }).render(f.main, buf),
            Screen::Settings(state) => (&settings::View { ctx, state }).render(f.main, buf),
            Screen::Demo(id) => {
                if let Some(demo) = self.demos.get(id) {
                    (&demo_view::View { ctx, demo }).render(f.main, buf);
                }
            }
            Screen::Review(state) => (&review::View {
                ctx,
                state,
                progress: self.progress.as_ref(),
                now: self.now,
            })
                .render(f.main, buf),
            Screen::Stats(state) => (&stats::View { ctx, state }).render(f.main, buf),
            Screen::Setup(state) => (&setup::View { ctx, state }).render(f.main, buf),
            Screen::Mock(state) => (&mock::View {
                ctx,
                state,
                now: self.now,
            })
                .render(f.main, buf),
            Screen::Quiz(state) => (&quiz::View { ctx, state }).render(f.main, buf),
        }
        if self.help {
            (&help::View {
                ctx,
                context: self.context(),
                scroll: self.help_scroll,
            })
                .render(f.main, buf);
        }
        let status = match &self.status {
            Some(m) => Line::from(Span::styled(format!(" {m}"), theme.accent)),
            None => Line::from(Span::styled(format!(" {}", self.hints()), theme.status)),
        };
        Paragraph::new(status).render(f.status, buf);
    }
}
