"""The embedded default's mail: printed to the console as a person reads it.

Django's console backend prints the raw MIME message, and Python's email package encodes a
Russian text in base64, so the password-reset link could not be read in `make run`'s output.
This prints the addresses, the subject and the text itself.
"""

from __future__ import annotations

from typing import Any

from django.core.mail.backends.console import EmailBackend


class ReadableConsoleBackend(EmailBackend):
    def write_message(self, message: Any) -> None:
        self.stream.write(f"From: {message.from_email}\n")
        self.stream.write(f"To: {', '.join(message.to)}\n")
        self.stream.write(f"Subject: {message.subject}\n\n{message.body}\n")
        self.stream.write("-" * 79 + "\n")
