package app.huarong.puzzles

import android.content.pm.ActivityInfo
import android.content.res.Configuration
import android.graphics.Color
import android.os.Bundle
import android.webkit.WebView
import androidx.activity.SystemBarStyle
import androidx.activity.enableEdgeToEdge
import androidx.core.view.ViewCompat
import androidx.core.view.WindowInsetsCompat
import androidx.webkit.ScriptHandler
import androidx.webkit.WebViewCompat
import androidx.webkit.WebViewFeature
import java.util.Locale

// Huarong's changes to the activity `tauri android init` generates (see src-tauri/mobile/README.md):
//  1. Portrait on phones; tablets (smallest width >= 600 dp) rotate freely.
//  2. The app draws edge to edge, and Android WebViews older than about version 140 report
//     env(safe-area-inset-*) as 0. So the real system-bar and display-cutout insets, converted
//     to CSS pixels, are written into --safe-top/--safe-right/--safe-bottom/--safe-left on
//     <html>; ui/css/app.css uses max(env(safe-area-inset-*), var(--safe-*, 0px)). The listener
//     first lets the WebView apply the insets itself (newer WebViews derive env() from them).
//     The keyboard's (IME) inset counts into --safe-bottom, so nothing hides under it.
//  3. The system bars' icons follow the app's theme, not the system's: ui/js/platform.js posts
//     "light" or "dark" to the `huarongSystemBars` message listener (app origin, main frame
//     only), which picks the matching SystemBarStyle.
class MainActivity : TauriActivity() {
  private var insetsScript: ScriptHandler? = null
  private var lastInsetsJs: String? = null
  private var webView: WebView? = null
  private var barsDark: Boolean? = null

  override fun onCreate(savedInstanceState: Bundle?) {
    // Until the page says which theme it shows, assume it follows the system.
    applySystemBars(systemIsDark())
    if (resources.configuration.smallestScreenWidthDp < TABLET_MIN_WIDTH_DP) {
      requestedOrientation = ActivityInfo.SCREEN_ORIENTATION_USER_PORTRAIT
    }
    super.onCreate(savedInstanceState)
  }

  override fun onWebViewCreate(webView: WebView) {
    super.onWebViewCreate(webView)
    this.webView = webView
    ViewCompat.setOnApplyWindowInsetsListener(webView) { view, insets ->
      // Chain to the WebView's own inset handling instead of replacing it.
      val applied = ViewCompat.onApplyWindowInsets(view, insets)
      val bars = insets.getInsets(
        WindowInsetsCompat.Type.systemBars() or WindowInsetsCompat.Type.displayCutout()
      )
      // The on-screen keyboard: edge to edge (enforced from Android 15) the window no longer
      // shrinks for it, so its height joins the bottom inset and the page's content (the code
      // screen's buttons) stays above it. 0 while the keyboard is hidden.
      val ime = insets.getInsets(WindowInsetsCompat.Type.ime())
      val bottom = maxOf(bars.bottom, ime.bottom)
      val density = view.resources.displayMetrics.density
      publishInsets(
        view as WebView,
        insetsJs(bars.top / density, bars.right / density, bottom / density, bars.left / density)
      )
      applied
    }
    ViewCompat.requestApplyInsets(webView)
    // Registered before the first page load (wry calls this before loadUrl), so the object
    // exists when the page's scripts run. WebViews without the feature keep the system's style.
    if (WebViewFeature.isFeatureSupported(WebViewFeature.WEB_MESSAGE_LISTENER)) {
      WebViewCompat.addWebMessageListener(
        webView,
        SYSTEM_BARS_OBJECT,
        APP_ORIGINS,
        WebViewCompat.WebMessageListener { _, message, _, isMainFrame, _ ->
          if (isMainFrame) {
            when (message.data) {
              "dark" -> applySystemBars(true)
              "light" -> applySystemBars(false)
              else -> {} // anything else is ignored
            }
          }
        }
      )
    }
  }

  override fun onResume() {
    super.onResume()
    // A WebView without document-start scripts may have loaded its page after the last
    // insets pass; applying the same values again is harmless.
    val view = webView
    val js = lastInsetsJs
    if (view != null && js != null) {
      view.evaluateJavascript(js, null)
    }
  }

  private fun systemIsDark(): Boolean =
    (resources.configuration.uiMode and Configuration.UI_MODE_NIGHT_MASK) ==
      Configuration.UI_MODE_NIGHT_YES

  /** Dark app theme: light icons; light theme: dark icons. Bars stay transparent. */
  private fun applySystemBars(dark: Boolean) {
    if (barsDark == dark) {
      return
    }
    barsDark = dark
    val status = if (dark) {
      SystemBarStyle.dark(Color.TRANSPARENT)
    } else {
      SystemBarStyle.light(Color.TRANSPARENT, Color.TRANSPARENT)
    }
    // Android 7.x cannot draw dark navigation-bar icons: it gets a translucent ink scrim instead.
    val navigation = if (dark) {
      SystemBarStyle.dark(Color.TRANSPARENT)
    } else {
      SystemBarStyle.light(Color.TRANSPARENT, LEGACY_NAVIGATION_SCRIM)
    }
    enableEdgeToEdge(statusBarStyle = status, navigationBarStyle = navigation)
  }

  private fun publishInsets(view: WebView, js: String) {
    if (js == lastInsetsJs) {
      return
    }
    lastInsetsJs = js
    // Future page loads (and reloads) get the values before any of the page's own scripts run;
    // the page already shown gets them now.
    if (WebViewFeature.isFeatureSupported(WebViewFeature.DOCUMENT_START_SCRIPT)) {
      insetsScript?.remove()
      insetsScript = WebViewCompat.addDocumentStartJavaScript(view, js, setOf("*"))
    }
    view.evaluateJavascript(js, null)
  }

  companion object {
    private const val TABLET_MIN_WIDTH_DP = 600

    /** The JavaScript object ui/js/platform.js posts the resolved theme to. */
    const val SYSTEM_BARS_OBJECT = "huarongSystemBars"

    /** Where Tauri serves the app on Android (http by default, https with useHttpsScheme). */
    val APP_ORIGINS = setOf("http://tauri.localhost", "https://tauri.localhost")

    /** #131519 (the dark --bg) at 50 % alpha. */
    private const val LEGACY_NAVIGATION_SCRIM = 0x80131519.toInt()

    /** The script that sets the four variables; waits for <html> when run at document start. */
    fun insetsJs(top: Float, right: Float, bottom: Float, left: Float): String {
      // Locale.ROOT: a decimal comma ("24,5px") would be invalid CSS.
      val values = String.format(
        Locale.ROOT,
        "{'--safe-top':'%.2fpx','--safe-right':'%.2fpx','--safe-bottom':'%.2fpx','--safe-left':'%.2fpx'}",
        top, right, bottom, left
      )
      return "(function(){var v=$values;" +
        "function a(){var e=document.documentElement;if(!e){return false;}" +
        "for(var k in v){e.style.setProperty(k,v[k]);}return true;}" +
        "if(!a()){document.addEventListener('DOMContentLoaded',a,{once:true});}})();"
    }
  }
}
