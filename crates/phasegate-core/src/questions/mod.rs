//! Questions that wait for a person without stopping the rest of the work:
//! question objects and their routing, suspension markers, the STATUS round
//! loop and its replies, and the questions configuration.

mod config;
mod question;
mod reply;
mod rounds;

pub use config::{Channels, Models, QUESTIONS_CONFIG_PATH, QuestionsConfig, SlackConfig};
pub use question::{
    ASK_MAX_OPTIONS, ASK_MIN_OPTIONS, Answer, Choice, DEFAULT_TIMEOUT_MINUTES, Delivery, Item, ItemType, MAX_ID,
    MAX_MINUTES, Preference, Preferences, QUESTIONS_DIR, Question, QuestionFile, QuestionState, QuestionType, Request,
    RequestError, Route, RoutePreference, SUSPENDED_DIR, Skip, Source, norm, preference_keys, route, skip, validate_id,
};
pub use reply::{REPLY_FORMAT, Reply, ReplyError, parse_reply};
pub use rounds::{
    AnsweredBy, DEFAULT_MAX_ROUNDS, Exchange, MAX_ROUNDS_LIMIT, ROUNDS_FILE, RoundAnswer, RoundDecision, RoundLoop,
    RoundOutcome, RoundsError, RoundsFile, check_open_questions,
};
