// Hooks into the phone shells that the page itself cannot reach. Only one so far:
//
// applySystemBars(theme): make the status and navigation bar icons readable on the theme the
// page shows ('light' or 'dark', already resolved from the "system" setting). The same message
// goes to the same name on both phones:
// - Android: the committed MainActivity registers a message listener `huarongSystemBars` for the
//   app's own origin (WebViewCompat.addWebMessageListener), which sets the matching
//   SystemBarStyle;
// - iOS: src-tauri/src/mobile.rs registers a script message handler `huarongSystemBars` on the
//   WKWebView (window.webkit.messageHandlers), which sets the root view controller's status-bar
//   style.
// Anywhere else neither object exists and the call does nothing.

const BRIDGE = 'huarongSystemBars';
let posted = null;

/** The phone's listener for BRIDGE, or null (desktop, browsers). */
function bridge() {
  const android = globalThis[BRIDGE];
  if (android && typeof android.postMessage === 'function') return android;
  const handlers = globalThis.webkit && globalThis.webkit.messageHandlers;
  const ios = handlers && handlers[BRIDGE];
  if (ios && typeof ios.postMessage === 'function') return ios;
  return null;
}

/** Returns true when the theme reached the phone's system bars, false where there are none. */
export function applySystemBars(theme) {
  if (theme !== 'light' && theme !== 'dark') {
    throw new TypeError(`applySystemBars: theme must be 'light' or 'dark', got ${String(theme)}`);
  }
  const target = bridge();
  if (!target) return false;
  if (posted !== theme) {
    target.postMessage(theme);
    posted = theme;
  }
  return true;
}
