// The web page's one script (web/build.mjs bundles it with esbuild into assets/app-<hash>.js):
// the boot (the board's worker and wasm first), then the UI (ui/js/main.js and every module it
// imports), then the service worker's registration. It also exports ipc.js's API, so that
// `js/ipc.js` (a two-line module the build writes) gives scripts and tests the page's own
// back end.

import './boot.js';
import './pwa.js';
import '../../ui/js/main.js';

export * from '../../ui/js/ipc.js';
