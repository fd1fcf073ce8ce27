"""Leagues (#41, item 7): a club joins by agreement in two steps; a series sums points by
place over its tournaments in several clubs; the platform's rating counts only rated games
of the clubs whose league accepts them, folded by the clubs' own engine, and leaves each
club's own ratings as they were."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import Membership, Role, User
from club.kernel.clubs import Club
from club.kernel.errors import Refused
from club.kernel.tenancy import club_scope
from games.models import Game
from games.ratings import analysis
from games.ratings.models import PlayerScore, ScoringPreset
from games.ratings.systems import rater
from games.rules import rating
from leagues import queries, services, standings
from leagues.models import JoinStatus, League, LeagueMembership, PlatformRating, Series
from leagues.rating import SYSTEM, game_counts, platform_rating_rebuild
from leagues.tasks import platform_rating_rebuild as rebuild_task
from tests.factories import make_evening, make_member
from tests.games.recording import TOWN_WINS, evening_with_players, make_host, record, start_game
from tests.tournaments.test_tournaments import EFFORT, admin, record_game, small
from tournaments import services as tournament_services
from tournaments.models import Table, TableJudge, Tournament

pytestmark = pytest.mark.django_db


def second_club() -> Club:
    return Club.objects.create(slug="b", name="Клуб Б", city="Казань")


def league_of(*clubs: Club, accepts: bool = True) -> League:
    league = League.objects.create(name="Лига", slug="liga", accepts_rated_games=accepts)
    for club in clubs:
        LeagueMembership.objects.create(league=league, club=club, status=JoinStatus.ACCEPTED)
    return league


def finished_game(club: Club) -> Game:
    """A game of `club`, played to the town's win and analysed."""
    with club_scope(club):
        host = make_host()
        evening, players = evening_with_players()
        game = start_game(host, evening, players)
        record(game, host, *TOWN_WINS)
        analysis.game_analysis_build(game_id=game.pk)
    return game


# --- joining ---------------------------------------------------------------------------


def test_a_club_joins_only_when_its_admin_accepts_the_leagues_invitation() -> None:
    club = Club.objects.get()
    league = League.objects.create(name="Лига", slug="liga")
    league_admin, stranger = make_member(), make_member()
    club_admin = make_member(role=Role.ADMIN)
    other = second_club()
    with club_scope(other):
        other_admin = make_member(role=Role.ADMIN)
    league.admins.add(league_admin)
    with pytest.raises(Refused):
        services.league_invite(league=league, club=club, by=stranger)
    invited = services.league_invite(league=league, club=club, by=league_admin)
    assert invited.status == JoinStatus.INVITED
    # Neither the league's admin nor another club's admin answers for the club.
    for someone in (league_admin, other_admin, stranger):
        with pytest.raises(Refused):
            services.league_answer(membership_id=invited.pk, accept=True, by=someone)
    assert LeagueMembership.objects.get().status == JoinStatus.INVITED
    answered = services.league_answer(membership_id=invited.pk, accept=True, by=club_admin)
    assert answered.status == JoinStatus.ACCEPTED
    with pytest.raises(Refused):  # answered once
        services.league_answer(membership_id=invited.pk, accept=False, by=club_admin)


def test_a_declined_club_can_be_invited_again() -> None:
    club = Club.objects.get()
    league = League.objects.create(name="Лига", slug="liga")
    boss = admin()
    first = services.league_invite(league=league, club=club, by=boss)
    services.league_answer(membership_id=first.pk, accept=False, by=boss)
    again = services.league_invite(league=league, club=club, by=boss)
    assert (again.pk, again.status, again.answered_at) == (first.pk, JoinStatus.INVITED, None)


def test_the_league_page_offers_the_answer_to_the_clubs_admin_only() -> None:
    club = Club.objects.get()
    league = League.objects.create(name="Лига", slug="liga")
    boss = admin()
    invited = services.league_invite(league=league, club=club, by=boss)
    member = Client()
    member.force_login(make_member())
    assert "Join the league" not in member.get("/leagues/liga/", HTTP_ACCEPT_LANGUAGE="en").text
    club_admin = Client()
    club_admin.force_login(boss)
    page = club_admin.get("/leagues/liga/").text
    assert "Вступить в лигу" in page
    # A member's post is refused; the admin's joins the club.
    member.post(f"/leagues/answer/{invited.pk}/", {"answer": "accept"})
    assert LeagueMembership.objects.get().status == JoinStatus.INVITED
    answer = club_admin.post(f"/leagues/answer/{invited.pk}/", {"answer": "accept"})
    assert answer.status_code == 302
    assert LeagueMembership.objects.get().status == JoinStatus.ACCEPTED


def test_a_series_takes_only_a_tournament_of_a_club_in_its_league() -> None:
    boss = admin()
    tournament, _members = small(boss, players=10)
    league = League.objects.create(name="Лига", slug="liga")
    series = Series.objects.create(league=league, name="Кубок", points_by_place=[10, 5])
    with pytest.raises(Refused):
        services.series_tournament_add(series=series, tournament_id=tournament.pk, by=boss)
    LeagueMembership.objects.create(league=league, club=Club.objects.get(), status="accepted")
    services.series_tournament_add(series=series, tournament_id=tournament.pk, by=boss)
    assert list(series.stages.values_list("tournament_id", flat=True)) == [tournament.pk]


def test_the_leagues_admin_invites_a_club_and_adds_its_tournament_on_the_leagues_page() -> None:
    """A league's admin who is no platform admin runs the league from its page; a club's
    admin who is not the league's sees no desk and changes nothing."""
    first = Club.objects.get()
    other = second_club()
    league = League.objects.create(name="Лига", slug="liga")
    series = Series.objects.create(league=league, name="Кубок", points_by_place=[10, 5])
    runner = make_member(nickname="Лигист")
    league.admins.add(runner)
    outsider = Client()
    outsider.force_login(make_member(nickname="Админ клуба", role=Role.ADMIN))
    assert 'id="league-desk"' not in outsider.get("/leagues/liga/").text
    outsider.post("/leagues/liga/manage/", {"action": "invite", "club": other.pk})
    assert not LeagueMembership.objects.exists()

    desk = Client()
    desk.force_login(runner)
    page = desk.get("/leagues/liga/").text
    assert 'id="league-desk"' in page and "Пригласить клуб" in page
    answer = desk.post("/leagues/liga/manage/", {"action": "invite", "club": other.pk})
    assert answer.status_code == 302
    assert LeagueMembership.objects.get(club=other).status == JoinStatus.INVITED
    LeagueMembership.objects.create(league=league, club=first, status=JoinStatus.ACCEPTED)
    with club_scope(first):
        tournament = tournament_here()
    desk.post(
        "/leagues/liga/manage/",
        {"action": "stage", "series": series.pk, "tournament": tournament.pk},
    )
    assert list(series.stages.values_list("tournament_id", flat=True)) == [tournament.pk]
    desk.post("/leagues/liga/manage/", {"action": "accepts", "accepts": "0"})
    league.refresh_from_db()
    assert league.accepts_rated_games is False
    # Nonsense is refused with a message, changing nothing.
    for body in ({"action": "invite", "club": "x"}, {"action": "stage", "series": "999"}, {}):
        assert desk.post("/leagues/liga/manage/", body).status_code in (302, 400, 404, 422)
    assert LeagueMembership.objects.count() == 2


# --- series ----------------------------------------------------------------------------


def test_series_standings_sum_the_points_of_each_place_over_the_clubs_tournaments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two finished tournaments in two clubs and one still running: places by the
    tournaments' own standings (stubbed here; the next test reads a real one)."""
    boss = admin()
    first, _m = small(boss, players=10)
    a, b = Club.objects.get(), second_club()
    league = league_of(a, b)
    series = Series.objects.create(league=league, name="Кубок", points_by_place=[10, 6, 3])
    with club_scope(b):
        second, running = tournament_here(), tournament_here()
    Tournament.all_clubs.filter(pk__in=[first.pk, second.pk]).update(finished_at=timezone.now())
    for tournament in (first, second, running):
        series.stages.create(tournament=tournament)
    with club_scope(a):
        anna, boris, vera = make_member(), make_member(), make_member()
    places = {
        first.pk: {anna.pk: 1, boris.pk: 2, vera.pk: 4},
        second.pk: {boris.pk: 1, anna.pk: 3},
        running.pk: {vera.pk: 1},
    }
    monkeypatch.setattr(standings, "tournament_places", lambda t: places[t.pk])
    found = standings.series_standings(series)
    assert [(r.member_id, r.points, r.place) for r in found.rows] == [
        (boris.pk, 16.0, 1),
        (anna.pk, 13.0, 2),
        (vera.pk, 0.0, 3),  # 4th place: below the table
    ]
    assert [t.pk for t in found.running] == [running.pk]


def tournament_here() -> Tournament:
    """A tournament of the club in scope (its evening and «Клуб»'s preset), unplayed."""
    evening = make_evening()
    preset = ScoringPreset.objects.club()
    return Tournament.objects.create(
        name="Кубок Б", evening=evening, ends_on=evening.starts_at.date(), preset=preset
    )


def test_a_tournaments_places_are_its_own_standings_by_member() -> None:
    boss = admin()
    tournament, members = small(boss, players=10)
    judge = make_host()
    TableJudge.objects.create(tournament=tournament, table=1, judge=judge)
    tournament_services.tournament_seat(tournament_id=tournament.pk, actor=boss, effort=EFFORT)
    table = Table.objects.get(round__tournament=tournament, round__number=1)
    game = tournament_services.table_game_start(table_id=table.pk, host=judge)
    record_game(game, judge, seed=3, by_api=False)
    places = standings.tournament_places(tournament)
    assert set(places) == {m.pk for m in members}
    assert min(places.values()) == 1


# --- the platform's rating -------------------------------------------------------------


def test_the_rating_counts_rated_games_of_clubs_whose_league_accepts_them() -> None:
    a, b = Club.objects.get(), second_club()
    counted = finished_game(a)
    practice = finished_game(a)
    Game.all_clubs.filter(pk=practice.pk).update(rated=False)
    elsewhere = finished_game(b)
    league_of(a)
    assert game_counts(counted.pk) and not game_counts(elsewhere.pk)
    own_before = list(PlayerScore.all_clubs.order_by("pk").values_list("rating_after", flat=True))
    assert platform_rating_rebuild() == 12
    # One game's players, one game each, rated as the clubs' engine rates that game alone.
    rows = list(PlayerScore.all_clubs.filter(game=counted).order_by("seat"))
    alone = rating.replay(
        [
            rating.Played(r.pk, r.game_id, r.member_id, r.track, counted.winner, r.won, r.points)
            for r in rows
        ],
        rater(SYSTEM),
    )
    stored = {p.member_id: (p.rating, p.games, p.club_ids) for p in PlatformRating.objects.all()}
    assert stored == {r.member_id: (alone[r.pk].after, 1, [a.pk]) for r in rows}
    # Each club's own ratings are untouched.
    assert list(PlayerScore.all_clubs.order_by("pk").values_list("rating_after", flat=True)) == (
        own_before
    )


def test_a_player_in_two_clubs_has_one_rating_over_both() -> None:
    a, b = Club.objects.get(), second_club()
    league_of(a, b)
    first = finished_game(a)
    players = list(
        User.objects.filter(game_seats__game=first).order_by("game_seats__number").distinct()
    )
    with club_scope(b):
        host = make_host()
        evening, _others = evening_with_players(0)
        for player in players:
            from club.models import RegistrationSource
            from club.services import registration_create

            registration_create(member=player, evening_id=evening.pk, source=RegistrationSource.WEB)
        game = start_game(host, evening, players)
        record(game, host, *TOWN_WINS)
        analysis.game_analysis_build(game_id=game.pk)
    platform_rating_rebuild()
    row = PlatformRating.objects.get(member=players[0])
    assert (row.games, row.club_ids) == (2, sorted([a.pk, b.pk]))


def test_a_club_in_no_league_rebuilds_nothing() -> None:
    game = finished_game(Club.objects.get())
    rebuild_task(game.pk)
    rebuild_task()
    assert not PlatformRating.objects.exists()


def test_the_rating_page_hides_a_player_who_refused_publication() -> None:
    a = Club.objects.get()
    second_club()
    league_of(a)
    game = finished_game(a)
    platform_rating_rebuild()
    shy = User.objects.filter(game_seats__game=game).first()
    assert shy is not None
    # Refused in the one club whose games count for them.
    Membership.objects.filter(user=shy, club=a).update(publication_consent=False)
    page = Client().get("/rating/").text
    assert shy.nickname not in page
    assert page.count("игрок") >= 1
    names = {row.member_id: row.name for row in queries.platform_rating(None)}
    assert names[shy.pk] == ""
    assert (
        names[shy.pk] != {row.member_id: row.name for row in queries.platform_rating(shy)}[shy.pk]
    )


# --- the platform's pages --------------------------------------------------------------


def test_a_single_clubs_site_shows_no_club_picker() -> None:
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="ru").text
    assert 'href="/clubs/"' not in page
    second_club()
    page = Client().get("/").text
    assert 'href="/clubs/"' in page
    clubs = Client().get("/clubs/").text
    assert "Клуб Б" in clubs and "Казань" in clubs and 'href="/c/b/"' in clubs


def test_a_players_page_lists_their_games_in_each_club_that_publishes_them() -> None:
    a, b = Club.objects.get(), second_club()
    game = finished_game(b)
    player = User.objects.filter(game_seats__game=game).first()
    assert player is not None
    page = Client().get(f"/players/{player.pk}/").text
    assert "Клуб Б" in page and f"/c/b/games/{game.pk}/" in page
    assert a.pk != b.pk
