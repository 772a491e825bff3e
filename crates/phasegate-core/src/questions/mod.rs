//! Questions that wait for a person without stopping the rest of the work:
//! question objects and their routing, suspension markers, the STATUS round
//! loop and its replies, and the questions configuration.

mod config;
mod question;
mod reply;
mod rounds;
mod said;

pub use config::{QUESTIONS_CONFIG_PATH, QuestionsConfig};
pub use question::{
    Answer, DEFAULT_TIMEOUT_MINUTES, Item, ItemType, Preference, Preferences, QUESTIONS_DIR, Question, QuestionFile,
    QuestionState, QuestionType, Request, Route, SUSPENDED_DIR, Skip, Source, preference_keys, route, skip,
};
pub use reply::{ReplyError, parse_reply};
pub use rounds::{
    AnsweredBy, DEFAULT_MAX_ROUNDS, ROUNDS_FILE, RoundDecision, RoundLoop, RoundNext, RoundOutcome, RoundsError,
    RoundsFile, check_open_questions,
};
pub use said::AskSaid;
