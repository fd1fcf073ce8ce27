// Small behaviours of the site's pages, kept out of the HTML for the Content-Security-Policy.
// A <select data-autosubmit> sends its form when it changes (the page keeps a button too).
document.addEventListener("change", (event) => {
  const field = event.target.closest("[data-autosubmit]");
  if (field && field.form) field.form.requestSubmit();
});
