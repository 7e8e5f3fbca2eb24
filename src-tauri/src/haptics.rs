//! Haptics on `tauri-plugin-haptics` (Android/iOS; a no-op that returns `Ok` on desktop): the
//! core's `Feedback` kinds mapped onto the plugin's calls. Called from Rust, so the plugin
//! needs no capability entry.

use huarong_core::platform::{self, Feedback};
use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_haptics::{Haptics, ImpactFeedbackStyle, NotificationFeedbackType};

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
        // A tile in its place: a firmer, sharper tap than a plain move.
        Feedback::Placed => Call::Impact(ImpactFeedbackStyle::Rigid),
        Feedback::Undo => Call::Impact(ImpactFeedbackStyle::Soft),
        Feedback::Merge => Call::Impact(ImpactFeedbackStyle::Medium),
        Feedback::Blocked => Call::Notification(NotificationFeedbackType::Warning),
        Feedback::Win => Call::Notification(NotificationFeedbackType::Success),
        Feedback::Lose => Call::Notification(NotificationFeedbackType::Error),
    }
}

/// The core's `Haptics` service on the plugin.
pub struct Plugin<R: Runtime>(pub AppHandle<R>);

impl<R: Runtime> platform::Haptics for Plugin<R> {
    fn play(&self, f: Feedback) -> Result<(), String> {
        let Some(h) = self.0.try_state::<Haptics<R>>() else {
            return Err("haptics are not available".into());
        };
        let r = match call_for(f) {
            Call::Selection => h.selection_feedback(),
            Call::Impact(style) => h.impact_feedback(style),
            Call::Notification(t) => h.notification_feedback(t),
        };
        r.map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_parses_and_maps() {
        for k in platform::FEEDBACK_KINDS {
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
