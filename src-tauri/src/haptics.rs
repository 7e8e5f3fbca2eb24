//! Haptic feedback kinds mapped onto `tauri-plugin-haptics` (Android/iOS; a no-op that
//! returns `Ok` on desktop). Called from Rust, so the plugin needs no capability entry.

use crate::error::{AppError, AppResult};
use huarong_engine::ErrorCode;
use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_haptics::{Haptics, ImpactFeedbackStyle, NotificationFeedbackType};

/// What happened in the game, as far as the hand should feel it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feedback {
    /// A tap on something selectable (a piece picked up).
    Tap,
    /// A move was made.
    Move,
    /// A move was refused (wall, illegal slide).
    Blocked,
    /// 2048 tiles merged.
    Merge,
    Win,
    Lose,
    Undo,
}

pub const KINDS: &[&str] = &["tap", "move", "blocked", "merge", "win", "lose", "undo"];

impl Feedback {
    pub fn parse(s: &str) -> AppResult<Feedback> {
        Ok(match s {
            "tap" => Feedback::Tap,
            "move" => Feedback::Move,
            "blocked" => Feedback::Blocked,
            "merge" => Feedback::Merge,
            "win" => Feedback::Win,
            "lose" => Feedback::Lose,
            "undo" => Feedback::Undo,
            _ => {
                return Err(AppError::bad_argument(format!(
                    "haptic kind {:?} is not one of {KINDS:?}",
                    s.chars().take(20).collect::<String>()
                )))
            }
        })
    }
}

/// The plugin call for each kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    Selection,
    Impact(ImpactFeedbackStyle),
    Notification(NotificationFeedbackType),
}

pub fn call_for(f: Feedback) -> Call {
    match f {
        Feedback::Tap => Call::Selection,
        Feedback::Move => Call::Impact(ImpactFeedbackStyle::Light),
        Feedback::Undo => Call::Impact(ImpactFeedbackStyle::Soft),
        Feedback::Merge => Call::Impact(ImpactFeedbackStyle::Medium),
        Feedback::Blocked => Call::Notification(NotificationFeedbackType::Warning),
        Feedback::Win => Call::Notification(NotificationFeedbackType::Success),
        Feedback::Lose => Call::Notification(NotificationFeedbackType::Error),
    }
}

pub fn play<R: Runtime>(app: &AppHandle<R>, f: Feedback) -> AppResult<()> {
    let Some(h) = app.try_state::<Haptics<R>>() else {
        return Err(AppError::new(
            ErrorCode::Unsupported,
            "haptics are not available",
        ));
    };
    let r = match call_for(f) {
        Call::Selection => h.selection_feedback(),
        Call::Impact(style) => h.impact_feedback(style),
        Call::Notification(t) => h.notification_feedback(t),
    };
    r.map_err(|e| {
        AppError::new(
            ErrorCode::Unsupported,
            format!("haptic feedback failed: {e}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_parses_and_maps() {
        for k in KINDS {
            let f = Feedback::parse(k).unwrap();
            let _ = call_for(f);
        }
        assert_eq!(
            call_for(Feedback::Win),
            Call::Notification(NotificationFeedbackType::Success)
        );
        assert_eq!(call_for(Feedback::Tap), Call::Selection);
        assert!(Feedback::parse("explode").is_err());
    }
}
