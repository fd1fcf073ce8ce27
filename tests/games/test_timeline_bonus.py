"""The game's log names extra points and penalties as the score's lines do (#28's walk:
«Дополнительные баллы … -0.20» beside «−0,20» in the same page)."""

from django.utils import translation

from games.timeline import describe


def test_a_penalty_is_named_so_in_the_readers_number_format() -> None:
    nick = {6: "Молчун"}
    penalty = {"type": "bonus", "seat": 6, "points": -0.2, "reason": "телефон"}
    given = {"type": "bonus", "seat": 6, "points": 0.35, "reason": "вёл город"}
    with translation.override("ru"):
        assert describe(penalty, nick, {}) == "Штраф месту 6 (Молчун): −0,20, «телефон»"
        assert describe(given, nick, {}).endswith(": +0,35, «вёл город»")
    with translation.override("en"):
        assert describe(penalty, nick, {}).startswith("Penalty to 6 (Молчун): −0.20")
