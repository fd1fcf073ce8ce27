// The club's app inside Telegram (templates/miniapp/): Telegram's colours on the page, its
// back button off the main page, and, on the start page, the launch data sent to the site.
(() => {
  const app = window.Telegram && window.Telegram.WebApp;
  const root = document.documentElement;

  function paint() {
    // The theme's colours as CSS variables (--tg-theme-bg-color, …), which club.css's
    // .miniapp tokens read; set through the CSSOM, which the policy allows.
    const theme = (app && app.themeParams) || {};
    for (const [name, value] of Object.entries(theme)) {
      if (typeof value === "string" && /^#[0-9a-fA-F]{3,8}$/.test(value)) {
        root.style.setProperty(`--tg-theme-${name.replace(/_/g, "-")}`, value);
      }
    }
    if (app && app.colorScheme) root.dataset.scheme = app.colorScheme;
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
        problem.textContent = box.dataset.offline || "…";
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
