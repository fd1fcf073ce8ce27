// The club's app inside Telegram (templates/miniapp/): Telegram's colours on the page, its
// back button off the main page, and, on the start page, the launch data sent to the site.
(() => {
  const app = window.Telegram && window.Telegram.WebApp;
  const root = document.documentElement;

  // WCAG's contrast, for the theme's colours as Telegram gives them ("#rrggbb").
  function rgb(value) {
    if (typeof value !== "string") return null;
    const long = /^#[0-9a-fA-F]{3}$/.test(value) ? value.replace(/[0-9a-fA-F]/g, "$&$&") : value;
    if (!/^#[0-9a-fA-F]{6}$/.test(long)) return null;
    return [1, 3, 5].map((at) => parseInt(long.slice(at, at + 2), 16));
  }
  function luminance(colour) {
    const [r, g, b] = colour.map((v) => v / 255).map(
      (v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4),
    );
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  function contrast(a, b) {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light + 0.05) / (dark + 0.05);
  }
  // The colour moved toward `target` just far enough to read at 4.5:1 on every ground.
  function readable(colour, target, grounds) {
    for (let step = 0; step <= 20; step += 1) {
      const mixed = colour.map((v, i) => Math.round(v + ((target[i] - v) * step) / 20));
      if (grounds.every((ground) => contrast(mixed, ground) >= 4.5)) {
        return `#${mixed.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
      }
    }
    return null;
  }

  function paint() {
    // The theme's colours as CSS variables (--tg-theme-bg-color, …), which club.css's
    // .miniapp tokens read; set through the CSSOM, which the policy allows.
    const theme = (app && app.themeParams) || {};
    for (const [name, value] of Object.entries(theme)) {
      if (typeof value === "string" && /^#[0-9a-fA-F]{3,8}$/.test(value)) {
        root.style.setProperty(`--tg-theme-${name.replace(/_/g, "-")}`, value);
      }
    }
    // Telegram's hints, links and buttons are often below 4.5:1 (club.css says where):
    // each is moved toward the text (a button toward black or white, away from its words).
    const text = rgb(theme.text_color);
    const grounds = [theme.bg_color, theme.secondary_bg_color, theme.section_bg_color]
      .map(rgb)
      .filter(Boolean);
    const derived = { "--club-hint": null, "--club-link": null, "--club-button": null };
    let button = rgb(theme.button_color);
    const words = rgb(theme.button_text_color);
    if (button && words) {
      const away = luminance(words) > 0.5 ? [0, 0, 0] : [255, 255, 255];
      derived["--club-button"] = readable(button, away, [words]);
      button = rgb(derived["--club-button"]) || button;
    }
    if (text && grounds.length) {
      const hint = rgb(theme.hint_color);
      const link = rgb(theme.link_color);
      if (hint) derived["--club-hint"] = readable(hint, text, grounds);
      // A link also sits on the accent's soft tint (club.css's --c-accent-soft: 22% of
      // the button's colour on the background), as the evening cards' dates do.
      const bg = rgb(theme.bg_color) || grounds[0];
      const soft = button ? bg.map((v, i) => Math.round(v + (button[i] - v) * 0.22)) : bg;
      if (link) derived["--club-link"] = readable(link, text, [...grounds, soft]);
    }
    for (const [name, value] of Object.entries(derived)) {
      if (value) root.style.setProperty(name, value);
      else root.style.removeProperty(name);
    }
    if (app && app.colorScheme) root.dataset.scheme = app.colorScheme;
  }

  // The start page's language before the server has read the launch: the one the member
  // chose on the site (a cookie, which the page was drawn in), else their Telegram's
  // (the launch's language_code) when the site has it, else the club's — as /tg/auth/
  // picks it (accounts/miniapp.py, _language).
  function launchLanguage(box) {
    if (box.dataset.chosen) return box.dataset.chosen;
    const user = app.initDataUnsafe && app.initDataUnsafe.user;
    const code = user && typeof user.language_code === "string" ? user.language_code : "";
    const primary = code.split(/[-_]/)[0].trim().toLowerCase();
    return /^[a-z]+$/.test(primary) && said(box, "opening", primary) ? primary : box.dataset.default;
  }
  // The start page's text `what` in `language` (its data-<what>-<language> attribute).
  function said(box, what, language) {
    return box.dataset[what + language.charAt(0).toUpperCase() + language.slice(1)] || "";
  }

  function start() {
    const box = document.getElementById("mini-app-start");
    if (!box) return;
    const status = document.getElementById("mini-app-status");
    const problem = document.getElementById("mini-app-error");
    if (!app || !app.initData) {
      status.hidden = true;
      document.getElementById("mini-app-outside").hidden = false;
      return;
    }
    const language = launchLanguage(box);
    if (said(box, "opening", language)) {
      root.lang = language;
      status.textContent = said(box, "opening", language);
      // The club's name too: without one set, «Mafia club» in the reader's language.
      document.getElementById("mini-app-name").textContent = said(box, "name", language);
      document.title = said(box, "name", language);
    }
    const token = (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
    fetch(box.dataset.auth, {
      method: "POST",
      headers: { "X-CSRFToken": decodeURIComponent(token) },
      body: new URLSearchParams({
        init_data: app.initData,
        start: new URLSearchParams(location.search).get("startapp") || "",
      }),
      credentials: "same-origin",
    })
      .then((answer) => answer.json())
      .then((found) => {
        if (found.next) {
          location.replace(found.next);
        } else {
          status.hidden = true;
          problem.textContent = found.error || "";
          problem.hidden = false;
        }
      })
      .catch(() => {
        status.hidden = true;
        problem.textContent = said(box, "offline", root.lang) || "…";
        problem.hidden = false;
      });
  }

  document.addEventListener("DOMContentLoaded", () => {
    paint();
    if (app) {
      app.ready();
      app.expand();
      if (app.onEvent) app.onEvent("themeChanged", paint);
      const home = location.pathname === "/" || location.pathname === "/tg/";
      if (app.BackButton) {
        if (home) app.BackButton.hide();
        else {
          app.BackButton.show();
          app.BackButton.onClick(() => history.back());
        }
      }
    }
    start();
  });
})();
