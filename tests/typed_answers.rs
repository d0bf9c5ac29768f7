//! Answers typed in review: the grade the ticks suggest, and what the store keeps.

mod mock_support;

use kubedrill::content::Question;
use kubedrill::study::Grade;
use kubedrill::study::answer::AnswerCheck;

fn question() -> Question {
    mock_support::shipped_deck()
        .questions
        .into_iter()
        .find(|q| q.keypoints.len() >= 4 && !q.pitfalls.is_empty())
        .expect("a shipped question with four key points and a pitfall")
}

#[test]
fn the_suggestion_follows_the_mocks_rule() {
    let q = question();
    let k = q.keypoints.len();
    let mut c = AnswerCheck::new(&q, "spec is desired state");
    assert_eq!(c.suggest(&q).0, Grade::Again, "nothing covered");
    for i in 0..k.div_ceil(2) {
        c.toggle(i);
    }
    assert_eq!(c.suggest(&q).0, Grade::Hard, "half the key points");
    for i in 0..k {
        if !c.covered[i] {
            c.toggle(i);
        }
    }
    let (g, why) = c.suggest(&q);
    assert_eq!(g, Grade::Easy, "every key point and no pitfall");
    assert_eq!(why, format!("{k} of {k} key points, no pitfall"));
    c.toggle(k);
    let (g, why) = c.suggest(&q);
    assert_eq!(g, Grade::Again, "a pitfall loses it, as in the mock");
    assert_eq!(why, "1 pitfall fallen into");
}

#[test]
fn the_record_keeps_what_was_ticked() {
    let q = question();
    let mut c = AnswerCheck::new(&q, "text");
    c.toggle(1);
    c.toggle(q.keypoints.len());
    let r = c.record(&q, 42, Grade::Hard);
    assert_eq!(r.keypoints_covered, vec![1]);
    assert_eq!(r.pitfalls_said, vec![0]);
    assert_eq!(r.keypoints_total as usize, q.keypoints.len());
    assert_eq!((r.answered_at, r.grade), (42, Grade::Hard));
}
