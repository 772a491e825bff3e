//! Oversight of several sessions (seed 004 §7, §8): the monitor's check
//! (stuck tasks, deadlocks, sessions down, the clean-up), the PM's
//! decisions and their effects, and the views people look at (`watch`,
//! `status`, `report`). It reads every capability's state (task lists, questions,
//! leases, events), so it stands above them.

pub mod monitor;
mod pm;
pub mod report;
pub mod view;
