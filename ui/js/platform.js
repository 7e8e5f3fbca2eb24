// Hooks into the phone shells that the page itself cannot reach. Only one so far:
//
// applySystemBars(theme): make the status and navigation bar icons readable on the theme the
// page shows ('light' or 'dark', already resolved from the "system" setting). On Android the
// committed MainActivity registers a message listener `huarongSystemBars` for the app's own
// origin (WebViewCompat.addWebMessageListener), which sets the matching SystemBarStyle. Anywhere
// else that object does not exist and the call does nothing.

const BRIDGE = 'huarongSystemBars';
let posted = null;

/** Returns true when the theme reached Android's system bars, false where there are none. */
export function applySystemBars(theme) {
  if (theme !== 'light' && theme !== 'dark') {
    throw new TypeError(`applySystemBars: theme must be 'light' or 'dark', got ${String(theme)}`);
  }
  const bridge = globalThis[BRIDGE];
  if (!bridge || typeof bridge.postMessage !== 'function') return false;
  if (posted !== theme) {
    bridge.postMessage(theme);
    posted = theme;
  }
  return true;
}
