"""What the engine says when it refuses: a reason code and a message in Russian and English."""


class RuleViolation(Exception):
    """An event the rules forbid at this point. The game's state is left unchanged."""

    def __init__(self, code: str, ru: str, en: str) -> None:
        super().__init__(en)
        self.code = code
        self.ru = ru
        self.en = en

    def message(self, language: str = "ru") -> str:
        return self.en if language == "en" else self.ru


class ProtocolError(Exception):
    """A document or an event that is malformed (not a question of the rules)."""

    def __init__(self, ru: str, en: str) -> None:
        super().__init__(en)
        self.ru = ru
        self.en = en

    def message(self, language: str = "ru") -> str:
        return self.en if language == "en" else self.ru
