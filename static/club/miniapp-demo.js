// The embedded site's stand-in for Telegram's Mini App script, loaded only where the site
// runs with DEBUG and no bot (templates/miniapp/_scripts.html). The developer page /dev/tg/
// puts signed launch data and Telegram's theme in the address's hash, as Telegram does;
// Telegram's own script reads them when telegram.org answers, and when it does not this file
// does, keeping them for the session's later pages as Telegram's script keeps its own.
(() => {
  if (window.Telegram && window.Telegram.WebApp && window.Telegram.WebApp.initData) return;
  const KEY = "club-demo-launch";
  let params = new URLSearchParams(location.hash.slice(1));
  try {
    if (params.get("tgWebAppData")) sessionStorage.setItem(KEY, params.toString());
    else params = new URLSearchParams(sessionStorage.getItem(KEY) || "");
  } catch (error) {
    // A browser without sessionStorage: this page's hash is all there is.
  }
  const initData = params.get("tgWebAppData");
  if (!initData) return;
  let theme = {};
  try {
    theme = JSON.parse(params.get("tgWebAppThemeParams") || "{}");
  } catch (error) {
    theme = {};
  }
  // Telegram calls a theme dark by its background's brightness.
  const bg = /^#[0-9a-fA-F]{6}$/.test(theme.bg_color || "") ? theme.bg_color : "#ffffff";
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(bg.slice(at, at + 2), 16));
  const dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
  // The launch's fields as Telegram's script hands them over (the user as an object).
  const unsafe = {};
  for (const [key, value] of new URLSearchParams(initData)) {
    try {
      unsafe[key] = ["user", "receiver", "chat"].includes(key) ? JSON.parse(value) : value;
    } catch (error) {
      // Not JSON: left out, as Telegram's script leaves it.
    }
  }
  const nothing = () => {};
  const app = {
    initData,
    initDataUnsafe: unsafe,
    version: params.get("tgWebAppVersion") || "8.0",
    platform: params.get("tgWebAppPlatform") || "web",
    colorScheme: dark ? "dark" : "light",
    themeParams: theme,
    ready: nothing,
    expand: nothing,
    onEvent: nothing,
    BackButton: { show: nothing, hide: nothing, onClick: nothing },
  };
  window.Telegram = Object.assign(window.Telegram || {}, { WebApp: app });
})();
