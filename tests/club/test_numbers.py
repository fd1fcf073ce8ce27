"""Numbers as the reader sees them: rounded, never cut (#28's walk: a report said «1,4»
for a rating the site showed as «1,5»), and a half rounded as people count, away from zero
(#38: 1,25 points in 2 games showed 0,62 «за игру»; games/rules/rounding.py)."""

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from club.kernel.numbers import shown, signed
from games.ratings import stats
from games.ratings.models import PlayerScore
from games.rules.rounding import rounded
from tests.games.season import seed_history


def test_numbers_are_rounded_in_the_readers_format() -> None:
    with translation.override("ru"):
        assert shown(1.4507, 1) == "1,5"
        assert shown(-0.624, 1) == "-0,6"
        assert signed(0.587, 1) == "+0,6"
        assert signed(-0.5) == "−0,50"
        assert signed(0.0) == "+0,00"
        assert signed(-0.001) == "+0,00"  # rounds to nothing: no sign of a loss
    with translation.override("en"):
        assert signed(0.35) == "+0.35"


def test_a_half_rounds_away_from_zero_as_people_count() -> None:
    # round() takes each of these to the even neighbour or to the binary value below.
    assert round(0.625, 2) == 0.62 and rounded(0.625) == 0.63
    assert rounded(-0.625) == -0.63  # a loss of a half is rounded as its size is
    assert rounded(1.25, per=2) == 0.63 and rounded(-1.25, per=2) == -0.63
    assert round(1.005, 2) == 1.0 and rounded(1.005) == 1.01
    assert rounded(2.3, per=4) == 0.58  # 0,575 in decimals, whatever the binary quotient
    assert rounded(0.225, 1) == 0.2 and rounded(12.25, 1) == 12.3 and rounded(2.5, 0) == 3
    assert rounded(0.624) == 0.62 and rounded(-0.624) == -0.62
    assert str(rounded(-0.001)) == "0.0"


def test_the_points_filter_rounds_by_the_same_rule() -> None:
    template = Template(
        "{% load numbers %}{{ a|points }} {{ b|points }} {{ c|points:1 }} [{{ d|points }}]"
    )
    with translation.override("ru"):
        text = template.render(Context({"a": 0.625, "b": -0.625, "c": 12.25, "d": None}))
    assert text == "0,63 -0,63 12,3 []"


@pytest.mark.django_db
def test_points_per_game_round_a_half_up_on_the_leaderboard() -> None:
    """1,25 points in 2 games is 0,63 «за игру», −1,25 is −0,63: on the table and the page."""
    history = seed_history(games=2, members=15, seed=5)
    both = [
        member
        for member in history.members
        if PlayerScore.objects.filter(member=member).count() == 2
    ][:2]
    assert len(both) == 2, "two of the 15 play both games of ten or more"
    for member, points in zip(both, ((1.0, 0.25), (-1.0, -0.25)), strict=True):
        for score, value in zip(
            PlayerScore.objects.filter(member=member).order_by("game_id"), points, strict=True
        ):
            PlayerScore.objects.filter(pk=score.pk).update(points=value)
    board = stats.leaderboard(stats.current_season(), "points", None)
    rows = {row.member_id: row for row in board.rows}
    assert (rows[both[0].pk].points, rows[both[0].pk].average) == (1.25, 0.63)
    assert (rows[both[1].pk].points, rows[both[1].pk].average) == (-1.25, -0.63)
    page = Client().get("/leaderboard/").content.decode()
    for member, cells in zip(both, (("1,25", "0,63"), ("-1,25", "-0,63")), strict=True):
        row = page[page.index(f">{member.nickname}</a>") :].split("</tr>")[0]
        assert f"<strong>{cells[0]}</strong>" in row and f'<td class="num">{cells[1]}</td>' in row
