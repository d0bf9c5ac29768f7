//! Quiz generation and the quiz state machine, on fixed seeds.

mod mock_support;

use std::collections::HashSet;

use kubedrill::content::{Deck, Level};
use kubedrill::study::quiz::generate::as_claim;
use kubedrill::study::quiz::{FALSE, Item, Quiz, QuizError, QuizPhase, QuizSetup, RoundKind, TRUE};
use mock_support::{fixture_deck, shipped_deck};
use proptest::prelude::*;

fn quiz_setup(per_round: usize, seed: u64) -> QuizSetup {
    QuizSetup {
        per_round,
        seed,
        ..QuizSetup::default()
    }
}

/// Checks an item against the content it came from: exactly one right option, and it is
/// the right one.
fn assert_item_is_sound(deck: &Deck, item: &Item) {
    let q = deck
        .question(&item.question_id)
        .expect("item names a question");
    let unique: HashSet<&String> = item.options.iter().collect();
    assert_eq!(
        unique.len(),
        item.options.len(),
        "distinct options: {item:?}"
    );
    assert!(item.answer < item.options.len());
    let right = &item.options[item.answer];
    match item.kind {
        RoundKind::PitfallOrFact => {
            assert_eq!(item.options, [TRUE, FALSE]);
            let pitfall = q.pitfalls.iter().find(|p| as_claim(&p.claim) == item.stem);
            match pitfall {
                Some(p) => {
                    assert_eq!(right, FALSE);
                    assert_eq!(item.explanation, p.why);
                }
                None => {
                    assert!(
                        q.keypoints.iter().any(|k| as_claim(k) == item.stem),
                        "{item:?}"
                    );
                    assert_eq!(right, TRUE);
                }
            }
        }
        RoundKind::WhichQuestion => {
            assert_eq!(item.stem, q.basics.text);
            assert_eq!(*right, q.prompt);
            for (i, o) in item.options.iter().enumerate() {
                let is_prompt = deck.questions.iter().any(|d| d.prompt == *o);
                assert!(is_prompt, "option {i} is some question's prompt");
            }
        }
        RoundKind::FollowupRecall => {
            let f = q
                .followups
                .iter()
                .find(|f| f.q == item.stem)
                .expect("stem is a follow-up");
            assert_eq!(*right, f.a);
        }
    }
    assert!(item.options.len() >= 2 && item.options.len() <= 4);
}

#[test]
fn the_same_seed_gives_the_same_quiz_and_other_seeds_differ() {
    let deck = fixture_deck();
    let a = Quiz::new(&deck, &quiz_setup(4, 99)).unwrap();
    let b = Quiz::new(&deck, &quiz_setup(4, 99)).unwrap();
    assert_eq!(a.items(), b.items());
    let quizzes: HashSet<Vec<Item>> = (0..5)
        .map(|seed| {
            Quiz::new(&deck, &quiz_setup(4, seed))
                .unwrap()
                .items()
                .to_vec()
        })
        .collect();
    assert_eq!(quizzes.len(), 5, "five seeds, five different quizzes");
}

#[test]
fn rounds_come_in_order_and_each_item_is_sound() {
    let deck = fixture_deck();
    let quiz = Quiz::new(&deck, &quiz_setup(3, 5)).unwrap();
    let kinds: Vec<RoundKind> = quiz.items().iter().map(|i| i.kind).collect();
    use RoundKind::*;
    assert_eq!(
        kinds,
        [
            PitfallOrFact,
            PitfallOrFact,
            PitfallOrFact,
            WhichQuestion,
            WhichQuestion,
            WhichQuestion,
            FollowupRecall,
            FollowupRecall,
            FollowupRecall
        ]
    );
    for item in quiz.items() {
        assert_item_is_sound(&deck, item);
    }
    // Multiple-choice items offer four options when the deck has enough distractors.
    assert!(quiz.items()[3..].iter().all(|i| i.options.len() == 4));
}

#[test]
fn half_of_the_claims_are_pitfalls() {
    let deck = fixture_deck();
    for seed in 0..20 {
        let setup = QuizSetup {
            rounds: vec![RoundKind::PitfallOrFact],
            per_round: 6,
            seed,
            ..QuizSetup::default()
        };
        let quiz = Quiz::new(&deck, &setup).unwrap();
        let pitfalls = quiz.items().iter().filter(|i| i.answer == 1).count();
        assert_eq!((quiz.items().len(), pitfalls), (6, 3), "seed {seed}");
    }
}

#[test]
fn filters_limit_the_subjects_not_the_distractors() {
    let deck = fixture_deck();
    let setup = QuizSetup {
        topic: Some("apply".into()),
        ..quiz_setup(5, 1)
    };
    let quiz = Quiz::new(&deck, &setup).unwrap();
    assert!(
        quiz.items()
            .iter()
            .all(|i| i.question_id == "create-vs-apply")
    );
    // One keypoint pair and one pitfall: 3 claims; one one-liner; one follow-up.
    assert_eq!(quiz.items().len(), 5);
    for item in quiz.items() {
        assert_item_is_sound(&deck, item);
    }
    let junior = QuizSetup {
        level: Some(Level::Junior),
        ..quiz_setup(50, 1)
    };
    let quiz = Quiz::new(&deck, &junior).unwrap();
    assert!(quiz.items().iter().all(|i| i.question_id == "spec-status"));
    let e = Quiz::new(
        &deck,
        &QuizSetup {
            topic: Some("nope".into()),
            ..quiz_setup(5, 1)
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "no topic with id `nope`; topics: apply, controllers"
    );
    let nothing = QuizSetup {
        rounds: vec![],
        ..quiz_setup(5, 1)
    };
    assert_eq!(Quiz::new(&deck, &nothing).unwrap_err(), QuizError::Empty);
}

#[test]
fn answering_shows_the_correction_and_mistakes_go_to_review() {
    let deck = fixture_deck();
    let setup = QuizSetup {
        rounds: vec![RoundKind::PitfallOrFact, RoundKind::FollowupRecall],
        ..quiz_setup(2, 3)
    };
    let mut quiz = Quiz::new(&deck, &setup).unwrap();
    assert_eq!(quiz.position(), (0, 4));
    assert_eq!(quiz.round_position(), Some((0, 2)));
    assert_eq!(
        quiz.advance(),
        Err(QuizError::WrongPhase {
            action: "move on",
            when: "before answering"
        })
    );
    assert_eq!(
        quiz.answer(7).unwrap_err().to_string(),
        "no option number 7: this item has 2"
    );
    let mut expected_review = Vec::new();
    let mut expected_correct = 0;
    let mut n = 0;
    while let Some(item) = quiz.current().cloned() {
        // Right on even items, wrong on odd ones.
        let choice = if n % 2 == 0 {
            item.answer
        } else {
            (item.answer + 1) % item.options.len()
        };
        let feedback = quiz.answer(choice).unwrap();
        assert_eq!(feedback.correct, n % 2 == 0);
        assert_eq!(feedback.right, item.answer);
        assert_eq!(feedback.explanation, item.explanation);
        assert_eq!(quiz.phase(), QuizPhase::Feedback);
        assert!(quiz.answer(0).is_err(), "one answer per item");
        if n % 2 == 0 {
            expected_correct += 1;
        } else if !expected_review.contains(&item.question_id) {
            expected_review.push(item.question_id.clone());
        }
        quiz.advance().unwrap();
        n += 1;
    }
    assert!(quiz.is_done());
    let result = quiz.result();
    assert_eq!(
        (result.answered, result.correct, result.percent()),
        (4, expected_correct, 50)
    );
    assert_eq!(result.mistakes.len(), 2);
    assert_eq!(result.review, expected_review);
    let m = &result.mistakes[0];
    let item = &quiz.items()[1];
    assert_eq!(
        (&m.stem, &m.right),
        (&item.stem, &item.options[item.answer])
    );
    assert_ne!(m.chosen, m.right);
    assert_eq!(
        result
            .rounds
            .iter()
            .map(|r| (r.kind, r.correct, r.answered))
            .collect::<Vec<_>>(),
        [
            (RoundKind::PitfallOrFact, 1, 2),
            (RoundKind::FollowupRecall, 1, 2)
        ]
    );
}

#[test]
fn a_pitfall_claim_shows_its_why_after_answering() {
    let deck = fixture_deck();
    let setup = QuizSetup {
        rounds: vec![RoundKind::PitfallOrFact],
        topic: Some("apply".into()),
        ..quiz_setup(3, 8)
    };
    let mut quiz = Quiz::new(&deck, &setup).unwrap();
    while let Some(item) = quiz.current().cloned() {
        let f = quiz.answer(0).unwrap(); // always "True"
        if item.stem == "Apply always replaces the whole object." {
            assert!(!f.correct);
            assert_eq!(
                f.explanation,
                "apply patches only the fields in the manifest and those it set before."
            );
        } else {
            assert!(f.correct, "{}", item.stem);
        }
        quiz.advance().unwrap();
    }
    assert_eq!(quiz.result().review, ["create-vs-apply"]);
}

#[test]
fn ending_early_scores_only_answered_items() {
    let deck = fixture_deck();
    let mut quiz = Quiz::new(&deck, &quiz_setup(2, 1)).unwrap();
    let right = quiz.current().unwrap().answer;
    quiz.answer(right).unwrap();
    quiz.end();
    assert!(quiz.is_done() && quiz.current().is_none());
    let r = quiz.result();
    assert_eq!((r.planned, r.answered, r.correct), (6, 1, 1));
    assert!(r.review.is_empty());
}

#[test]
fn malformed_items_are_refused() {
    let item = Item {
        kind: RoundKind::WhichQuestion,
        question_id: "q".into(),
        stem: "s".into(),
        options: vec!["a".into()],
        answer: 1,
        explanation: String::new(),
    };
    assert_eq!(
        Quiz::from_items(0, vec![item]).unwrap_err(),
        QuizError::BadItem { index: 0 }
    );
}

#[test]
fn the_shipped_deck_makes_every_kind_of_round() {
    let deck = shipped_deck();
    let quiz = Quiz::new(&deck, &QuizSetup::default()).unwrap();
    for &kind in RoundKind::ALL {
        // One which-question item per question at most: the shipped deck may have fewer
        // than five.
        let expected = match kind {
            RoundKind::WhichQuestion => deck.questions.len().min(5),
            _ => 5,
        };
        assert_eq!(
            quiz.items().iter().filter(|i| i.kind == kind).count(),
            expected,
            "{kind}"
        );
    }
    for item in quiz.items() {
        assert_item_is_sound(&deck, item);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_item_has_exactly_one_right_answer_and_none_repeats(seed in any::<u64>(), per_round in 1usize..12) {
        let deck = fixture_deck();
        let quiz = Quiz::new(&deck, &quiz_setup(per_round, seed)).unwrap();
        let mut seen = HashSet::new();
        for item in quiz.items() {
            assert_item_is_sound(&deck, item);
            prop_assert!(seen.insert((item.kind, item.stem.clone())), "repeated {:?}", item);
        }
        for &kind in RoundKind::ALL {
            prop_assert!(quiz.items().iter().filter(|i| i.kind == kind).count() <= per_round);
        }
        let again = Quiz::new(&deck, &quiz_setup(per_round, seed)).unwrap();
        prop_assert_eq!(quiz.items(), again.items());
    }
}

/// True and false claims are worded alike: whether a claim came from a keypoint or a
/// pitfall must not show in its first letter or its last character.
#[test]
fn true_and_false_claims_look_alike() {
    let deck = shipped_deck();
    let questions: Vec<_> = deck.questions.iter().collect();
    let mut rng = <rand::rngs::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(7);
    let items = kubedrill::study::quiz::generate::pitfall_or_fact(&questions, 10_000, &mut rng);
    let (truths, falsehoods): (Vec<&Item>, Vec<&Item>) =
        items.iter().partition(|i| i.options[i.answer] == TRUE);
    assert!(truths.len() > 50 && falsehoods.len() > 50);
    let capital = |v: &[&Item]| {
        v.iter()
            .filter(|i| i.stem.starts_with(|c: char| c.is_uppercase()))
            .count() as f64
            / v.len() as f64
    };
    for i in &items {
        assert!(i.stem.ends_with('.'), "{:?}", i.stem);
    }
    let (t, f) = (capital(&truths), capital(&falsehoods));
    assert!(
        (t - f).abs() < 0.2,
        "capitalised: true {t:.2}, false {f:.2}"
    );
}

#[test]
fn claims_capitalise_plain_words_only() {
    assert_eq!(as_claim("spec records intent"), "Spec records intent.");
    assert_eq!(
        as_claim("observedGeneration catches up"),
        "observedGeneration catches up."
    );
    assert_eq!(
        as_claim("pod-template-hash is a hash"),
        "pod-template-hash is a hash."
    );
    assert_eq!(
        as_claim("kubectl names managers"),
        "kubectl names managers."
    );
    assert_eq!(
        as_claim("The kubelet restarts it."),
        "The kubelet restarts it."
    );
}
