//! A small blocking client for the three Slack Web API methods phasegate
//! needs: `auth.test`, `chat.postMessage` and `conversations.replies`.
//!
//! Blocking on purpose: a question is posted, then its thread is polled now
//! and then; an async runtime would cost far more than it gives. TLS is
//! rustls with the ring provider (no cmake, no system OpenSSL).
//!
//! The token is a [`Token`], which never prints its value: not in `Debug`,
//! not in `Display`, not in any [`SlackError`]. Every failure is typed, and
//! its message names the fix where Slack's error code allows one.
//!
//! ```no_run
//! use phasegate_slack::{Client, Token};
//!
//! let token = Token::new(std::env::var("PHASEGATE_SLACK_TOKEN")?)?;
//! let client = Client::new("https://slack.com/api/", token)?;
//! let posted = client.post_message("C0123456789", "Ship it?", None)?;
//! let answers = client.replies(&posted.channel, &posted.ts)?;
//! let from_people = answers.iter().skip(1).filter(|m| m.is_from_person()).count();
//! # let _ = from_people;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![cfg_attr(test, allow(clippy::disallowed_methods))]

mod client;
mod error;
mod token;

pub use client::{Auth, Client, Message, Posted};
pub use error::SlackError;
pub use token::{Token, TokenKind, scrub_secrets};
