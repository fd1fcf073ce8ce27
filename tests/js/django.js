// Django's JavaScript catalogue as /jsi18n/ gives it to the pages (an English page: every
// message as it is, with its %(name)s values filled in). Imported first by the tests whose
// modules word messages (words.js reads it when it is loaded).
globalThis.django = {
  gettext: (text) => text,
  interpolate: (format, values) => format.replace(/%\((\w+)\)s/g, (_match, name) => String(values[name])),
};
