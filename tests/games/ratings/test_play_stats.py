"""A player's statistics of play (games/ratings/play.py): each figure checked against
games built to have it, hidden below its minimum, the pairs among members who publish
only, another club's games never counted, and one query whatever the history's size."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from club.kernel.clubs import Club
from club.kernel.tenancy import club_scope
from club.models import Guest
from games.ratings.play import MINIMUM, play_stats
from games.ratings.seasons import season_of
from tests.factories import make_evening, make_member, set_consent
from tests.games.ratings.played import BLACK_WINS, game_played
from tests.games.recording import make_host

pytestmark = pytest.mark.django_db


@pytest.fixture
def twelve() -> list[User]:
    return [make_member() for _ in range(12)]


def test_each_figure_counts_the_games_built_to_have_it(twelve: list[User]) -> None:
    host = make_host()
    for _ in range(5):
        game_played(twelve, host=host)
    doctor = play_stats(twelve[4].pk)  # seat 5: red, nominated and voted on black each game
    assert (doctor.games, doctor.logged) == (5, 5)
    votes = doctor.figures["votes_red"]
    assert (votes.part, votes.whole, votes.games, votes.shown, votes.percent) == (
        5,
        5,
        5,
        True,
        100,
    )
    nominations = doctor.figures["nominations_red"]
    assert (nominations.part, nominations.whole, nominations.games) == (5, 5, 5)
    assert not doctor.figures["votes_black"].shown  # never black
    assert [(b.key, b.games, b.wins) for b in doctor.by_role] == [("doctor", 5, 5)]
    assert [(b.key, b.games, b.wins) for b in doctor.by_table_size] == [(12, 5, 5)]
    commissar = play_stats(twelve[3].pk)
    checks = commissar.figures["checks"]
    assert (checks.part, checks.whole, checks.games, checks.shown) == (5, 5, 5, True)
    # The commissar's hand went on seat 7 (red) each day 1: none of 5 votes on black.
    assert (commissar.figures["votes_red"].part, commissar.figures["votes_red"].whole) == (0, 5)
    mafia = play_stats(twelve[1].pk)  # seat 2: nominated and voted on red each game
    assert mafia.figures["nominations_black"].percent == 100
    assert mafia.figures["votes_black"].percent == 100
    assert [(b.key, b.wins) for b in mafia.by_role] == [("mafia", 0)]
    victim = play_stats(twelve[5].pk)  # seat 6: killed first, best move 2 black of 3
    best = victim.figures["best_move"]
    assert (best.part, best.whole, best.games, best.percent) == (10, 15, 5, 67)
    killed = victim.figures["killed_first"]
    assert (killed.part, killed.games, killed.shown) == (5, 5, False)  # 5 of the 10 needed
    fouls = play_stats(twelve[8].pk).figures["fouls"]  # seat 9: a foul a game
    assert (fouls.part, fouls.games, fouls.per_game, fouls.shown) == (5, 5, 1.0, True)
    hosting = play_stats(host.pk).hosting
    assert hosting is not None
    assert (hosting.games, hosting.fouls, hosting.red, hosting.black) == (5, 5, 5, 0)
    assert hosting.shown and hosting.fouls_per_game == 1.0


def test_a_figure_below_its_minimum_is_hidden_and_says_how_many_games(
    twelve: list[User],
) -> None:
    host = make_host()
    for _ in range(MINIMUM["votes"] - 1):
        game_played(twelve, host=host)
    found = play_stats(twelve[4].pk)
    votes = found.figures["votes_red"]
    assert (votes.games, votes.minimum, votes.shown) == (4, 5, False)
    assert [bar.shown for bar in found.by_role] == [True]  # 4 ≥ the role's 3
    hosting = play_stats(host.pk).hosting
    assert hosting is not None and not hosting.shown
    client = Client()
    page = client.get(f"/players/{twelve[4].pk}/").content.decode()
    assert "too few games: 4 of 5" in page or "мало игр: 4 из 5" in page
    game_played(twelve, host=host)
    assert play_stats(twelve[4].pk).figures["votes_red"].shown


def test_wins_by_table_side_and_season(twelve: list[User]) -> None:
    host = make_host()
    old = timezone.now() - timedelta(days=400)
    evening = make_evening(starts_at=old, opens_at=old - timedelta(days=6))
    for _ in range(3):
        game_played(twelve, host=host, events=BLACK_WINS, evening=evening)
    game_played(twelve, host=host)
    boss = play_stats(twelve[0].pk)
    assert [(b.key, b.games, b.wins) for b in boss.by_role] == [("boss", 4, 3)]
    season = season_of(old.date(), "quarter")
    assert [(b.key, b.games, b.wins) for b in play_stats(twelve[0].pk, season).by_role] == [
        ("boss", 3, 3)
    ]
    hosting = play_stats(host.pk)
    assert hosting.hosting is not None
    assert (hosting.hosting.red, hosting.hosting.black) == (1, 3)


def test_pairs_name_only_members_who_publish_and_never_guests(twelve: list[User]) -> None:
    host = make_host()
    guest = Guest.objects.create(name="Гость")
    players: list[User | Guest] = [*twelve[:11], guest]
    for _ in range(MINIMUM["pair"]):
        game_played(players, host=host)
    set_consent(twelve[5], consent=False)  # seat 6, red like seat 5
    found = play_stats(twelve[4].pk)  # seat 5, red: wins every game
    mates = {bar.key for bar in found.teammates}
    against = {bar.key for bar in found.opponents}
    assert twelve[5].pk not in mates
    assert len(found.teammates) == 3 and len(found.opponents) == 3
    assert mates <= {m.pk for m in twelve[3:11]} - {twelve[4].pk, twelve[5].pk}
    assert against <= {m.pk for m in twelve[:3]}
    assert all(bar.games == 5 and bar.wins == 5 for bar in found.teammates + found.opponents)
    assert guest.pk not in mates | against  # a guest is no member (its id is a guest's)
    every = {bar.name for bar in found.teammates + found.opponents}
    assert "Гость" not in every and twelve[5].nickname not in every


def test_a_member_who_refused_publication_has_no_public_statistics(twelve: list[User]) -> None:
    host = make_host()
    game_played(twelve, host=host)
    shy = twelve[4]
    set_consent(shy, consent=False)
    assert Client().get(f"/players/{shy.pk}/").status_code == 404
    other = Client()
    other.force_login(twelve[0])
    assert other.get(f"/players/{shy.pk}/").status_code == 404
    own = Client()
    own.force_login(shy)
    page = own.get(f"/players/{shy.pk}/")
    assert page.status_code == 200
    assert 'id="play"' in page.content.decode()


def test_another_clubs_games_are_never_counted(twelve: list[User]) -> None:
    host = make_host()
    game_played(twelve, host=host)
    north = Club.objects.create(slug="north", name="Северный клуб", venue="Маяк")
    with club_scope(north):
        other_host = make_host()
        for _ in range(3):
            game_played(twelve, host=other_host, events=BLACK_WINS)
        assert play_stats(twelve[0].pk).games == 3
        assert [(b.key, b.wins) for b in play_stats(twelve[0].pk).by_role] == [("boss", 3)]
    first = Club.objects.order_by("pk").first()
    assert first is not None
    with club_scope(first):
        assert play_stats(twelve[0].pk).games == 1
        assert play_stats(twelve[0].pk).by_role[0].wins == 0


def count_queries(member_id: int) -> int:
    with CaptureQueriesContext(connection) as captured:
        play_stats(member_id)
    return len(captured)


def test_one_query_whatever_the_number_of_games(twelve: list[User]) -> None:
    host = make_host()
    game_played(twelve, host=host)
    one = count_queries(twelve[4].pk)
    for _ in range(6):
        game_played(twelve, host=host, events=BLACK_WINS)
    assert count_queries(twelve[4].pk) == one == 1
    assert play_stats(twelve[4].pk).games == 7
