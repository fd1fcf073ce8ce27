// Never loaded: Django admin's script strings that its Russian catalogue leaves empty (the
// date fields' time-zone note), listed so `make messages` keeps them in the project's
// djangojs catalogue, which the admin's script catalogue reads before Django's own.
// (club/admin_texts.py does the same for the admin's pages.)
/* global ngettext */
ngettext(
  "Note: Enter times in the %(timezone)s timezone. (You are %(offset)s hour ahead.)",
  "Note: Enter times in the %(timezone)s timezone. (You are %(offset)s hours ahead.)",
  1,
);
ngettext(
  "Note: Enter times in the %(timezone)s timezone. (You are %(offset)s hour behind.)",
  "Note: Enter times in the %(timezone)s timezone. (You are %(offset)s hours behind.)",
  1,
);
