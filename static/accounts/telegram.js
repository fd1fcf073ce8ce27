// «Log in with Telegram» / «Link Telegram»: our own button opens Telegram's login popup
// (telegram-widget.js), and its signed answer is posted in the page's form, with the CSRF
// token (and, to link, the profile page's single-use nonce). The answer is never put in a
// link: a link can be sent to someone else.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-telegram-form]");
  if (!button || !window.Telegram || !window.Telegram.Login) return;
  event.preventDefault();
  const form = document.getElementById(button.dataset.telegramForm);
  const options = {
    bot_id: button.dataset.botId,
    request_access: "write",
    lang: document.documentElement.lang,
  };
  window.Telegram.Login.auth(options, (answer) => {
    if (!answer) return;
    for (const [name, value] of Object.entries(answer)) {
      const field = document.createElement("input");
      field.type = "hidden";
      field.name = name;
      field.value = String(value);
      form.append(field);
    }
    form.submit();
  });
});
