"""Readers of the formats a club's past comes in (the field's exchange JSON, a spreadsheet
of results, this platform's protocol), and what the exports write in the same shapes."""
