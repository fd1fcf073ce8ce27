"""Who spoke when (#19): twelve synthetic voices in a scripted game, interruptions, asides
and night talk planted in it; the analysis attributes each planted stretch to its seat,
suggests the fouls and no other, the host decides them, and the figures are published
under the consent rules."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from club.kernel.errors import RefusalCode, Refused
from games.models import Game
from games.ratings import analysis as ratings_analysis
from games.ratings.publication import published_analysis
from games.recording import GameView
from games.recordings import analysis as recording_analysis
from games.recordings import services as recordings
from games.recordings.audio import alignment, encoder, features, speakers, vad
from games.recordings.models import FoulSuggestion, Recording, SuggestionStatus
from tests.factories import make_member, set_consent
from tests.games.recording import TOWN_WINS, Table, record, start_game, view_of
from tests.games.recordings.test_recordings import upload
from tests.sound import write
from tests.table_sound import Planted, ScriptedGame, scripted_game


@pytest.fixture(scope="module")
def table_sound() -> ScriptedGame:
    """Nine minutes of a table: twelve speeches, a night; made once for the module."""
    return scripted_game(np.random.default_rng(11), 9, interruptions=0.5, night_talk=1.0)


def seconds(game: ScriptedGame, moment: str) -> float:
    return (datetime.fromisoformat(moment) - game.started_at).total_seconds()


def audio_of(view: GameView, viewer: User) -> dict[str, Any]:
    """The published analysis's audio part: the game has been analysed."""
    published = published_analysis(view, viewer)
    assert published is not None, "no analysis is published"
    audio: dict[str, Any] = published["audio"]
    return audio


def attribute(game: ScriptedGame) -> speakers.Attribution:
    blocks = [
        game.samples[i : i + vad.BLOCK_SAMPLES]
        for i in range(0, game.samples.size, vad.BLOCK_SAMPLES)
    ]
    voiced = vad.segments(vad.probabilities(blocks))
    windows = [
        speakers.Window(e["seat"], seconds(game, e["start"]), seconds(game, e["end"]))
        for e in game.events
        if e["type"] == "speech"
    ]
    night = next(e for e in game.events if e["type"] == "night")
    nights = [(seconds(game, night["at"]), game.samples.size / 16_000)]
    sound = speakers.Sound(features.frames_mfcc(blocks), *encoder.mel_frames(blocks))
    return speakers.attribute(sound, voiced, windows, nights)


def alignment_night(nights: list[tuple[float, float]], planted: Planted) -> bool:
    return any(a <= planted.start < b for a, b in nights)


def heard_as(found: speakers.Attribution, start: float, end: float) -> int | None:
    """The seat the analysis gives most of [start, end] to."""
    share: dict[int | None, float] = {}
    for stretch in found.stretches:
        overlap = min(end, stretch.end) - max(start, stretch.start)
        if overlap > 0:
            share[stretch.seat] = share.get(stretch.seat, 0.0) + overlap
    return max(share, key=share.__getitem__) if share else None


@pytest.fixture(scope="module")
def attributed(table_sound: ScriptedGame) -> speakers.Attribution:
    """The scripted game's attribution, made once for the tests that only read it (5 s of
    CPU each time)."""
    return attribute(table_sound)


def test_each_planted_stretch_is_attributed_to_its_seat(
    table_sound: ScriptedGame, attributed: speakers.Attribution
) -> None:
    found = attributed
    assert found.modelled == list(range(1, 13))
    kinds = {p.kind for p in table_sound.planted}
    assert kinds == {"interruption", "aside", "night"}
    for planted in table_sound.planted:
        assert heard_as(found, planted.start, planted.end) == planted.seat, planted


def test_the_fouls_suggested_are_the_planted_ones_and_no_other(
    table_sound: ScriptedGame, attributed: speakers.Attribution
) -> None:
    found = attributed
    planted = {(p.seat, p.during) for p in table_sound.planted if p.kind != "aside"}
    suggested = {(s.seat, s.during) for s in found.suggestions}
    assert suggested <= planted  # no false foul
    long_enough = {
        (p.seat, p.during)
        for p in table_sound.planted
        if p.kind != "aside" and p.end - p.start >= speakers.FOUL_SECONDS + 0.5
    }
    assert long_enough <= suggested  # every clear one is there
    for suggestion in found.suggestions:
        figures = found.seats[suggestion.seat]
        where = figures.night if suggestion.during is None else figures.others[suggestion.during]
        assert where > 0
        # The talk's seconds count its short pauses, never more than the span it covers.
        assert where - 0.01 <= suggestion.seconds <= suggestion.end - suggestion.start + 0.01


def test_the_hosts_voice_and_a_strangers_are_nobodys_seat() -> None:
    """The host announces every phase, says «Дальше» between the speeches and wakes the
    roles inside every night (their moments not in the log), a spectator talks at night:
    the host's voice is learnt from the announcements the protocol times and the gaps
    between speeches, and neither voice is given to a seat, nor becomes a foul, the host's
    mid-night calls included."""
    game = scripted_game(
        np.random.default_rng(12), 9, interruptions=0.5, night_talk=1.0, host=True, strangers=1.0
    )
    blocks = [
        game.samples[i : i + vad.BLOCK_SAMPLES]
        for i in range(0, game.samples.size, vad.BLOCK_SAMPLES)
    ]
    voiced = vad.segments(vad.probabilities(blocks))
    duration = game.samples.size / 16_000
    windows, nights = alignment.places(game.events, game.started_at, duration)
    sound = speakers.Sound(features.frames_mfcc(blocks), *encoder.mel_frames(blocks))
    found = speakers.attribute(
        sound,
        voiced,
        [speakers.Window(*w) for w in windows],
        nights,
        host=alignment.announcements(game.events, game.started_at, duration),
    )
    nobodys = [p for p in game.planted if p.seat is None]
    assert {p.kind for p in nobodys} == {"host", "stranger"}
    night_calls = [p for p in nobodys if p.kind == "host" and alignment_night(nights, p)]
    assert len(night_calls) >= 3  # «Город засыпает» and the roles woken inside the night
    for planted in nobodys:
        assert heard_as(found, planted.start, planted.end) is None, planted
    for suggestion in found.suggestions:  # every one is a seat's planted talk
        assert any(
            p.seat == suggestion.seat
            and min(p.end, suggestion.end) > max(p.start, suggestion.start)
            for p in game.planted
        ), suggestion


def test_talk_over_the_speaker_is_said_and_never_becomes_another_seats_foul() -> None:
    """Interruptions spoken over the speaker (not in a pause): the analysis says where two
    voices are heard at once (a stretch marked `over` beside the speaker's own), naming the
    second voice only when the two descriptions of it agree — on the synthetic voices they
    often do not, and a foul to the wrong seat is the worst answer (with the embedding's
    answer alone this table gave seat 11 a foul for seat 12's words)."""
    game = scripted_game(
        np.random.default_rng(3), 9, interruptions=0.6, night_talk=1.0, over_speaker=True
    )
    found = attribute(game)
    spoken_over = [p for p in game.planted if p.over]
    overlaid = [s for s in found.stretches if s.over]
    assert len(spoken_over) == 6
    heard_twice = [
        p for p in spoken_over if any(min(p.end, s.end) > max(p.start, s.start) for s in overlaid)
    ]
    assert len(heard_twice) >= 4
    for stretch in overlaid:  # beside its speaker; inside a planted one, named right or not
        planted = next(
            (p for p in spoken_over if min(p.end, stretch.end) > max(p.start, stretch.start)),
            None,
        )
        if planted is None:  # a stray second of the speaker's own voice heard as two
            assert stretch.seconds < speakers.OVER_FOUL_SECONDS
        else:
            assert stretch.owner == planted.during and stretch.seat in (planted.seat, None)
        assert any(
            s.seat == stretch.owner and not s.over and s.start <= stretch.start < s.end
            for s in found.stretches
        ), "the speaker's own voice goes on beside it"
    assert found.unknown == round(
        sum(s.seconds for s in found.stretches if s.seat is None and not s.over), 2
    )
    for suggestion in found.suggestions:
        assert any(
            p.seat == suggestion.seat
            and min(p.end, suggestion.end) > max(p.start, suggestion.start)
            for p in game.planted
        ), suggestion


def test_a_remark_with_pauses_between_its_words_is_one_talk() -> None:
    """1.2 s, a breath of 0.6 s, 1.2 s: a remark of 3 s (a foul's worth), which two
    stretches under the threshold each would have hidden; a pause over PAUSE_SECONDS
    parts two remarks."""
    window = speakers.Window(1, 0.0, 40.0)

    def heard(*parts: tuple[float, float]) -> list[speakers.Suggestion]:
        stretches = [speakers.Stretch(a, b, 5, 0.99, 1, False) for a, b in parts]
        return speakers._suggestions(stretches, [window], [])

    (one,) = heard((10.0, 11.2), (11.8, 13.0))
    assert (one.seat, one.during) == (5, 1)
    assert one.seconds == pytest.approx(3.0)
    assert heard((10.0, 11.2), (11.8 + speakers.PAUSE_SECONDS, 13.0 + speakers.PAUSE_SECONDS)) == []


def test_talk_heard_only_over_the_speaker_is_a_foul_when_long_enough_on_its_own() -> None:
    """Scattered seconds of two voices in a long speech are no foul, though their pauses
    would join them into one; a remark over the speaker of OVER_FOUL_SECONDS is one, and
    talk heard alone counts as before."""
    window = speakers.Window(1, 0.0, 60.0)

    def heard(*parts: tuple[float, float, bool]) -> list[speakers.Suggestion]:
        stretches = [speakers.Stretch(a, b, 5, 0.99, 1, False, over) for a, b, over in parts]
        return speakers._suggestions(stretches, [window], [])

    long_over = speakers.OVER_FOUL_SECONDS
    assert heard((10.0, 10.7, True), (11.3, 12.0, True), (12.6, 13.3, True)) == []
    assert heard((10.0, 10.0 + long_over - 0.5, True)) == []  # a foul's length, but over
    (over,) = heard((10.0, 12.5, True), (13.0, 13.0 + long_over - 3.0, True))
    assert over.seconds == pytest.approx(long_over)
    (mixed,) = heard((10.0, 11.0, False), (11.5, 13.0, True))
    assert mixed.seconds == pytest.approx(3.0)


def test_a_remark_is_worth_a_suggestion_by_the_voice_the_recording_holds_of_it() -> None:
    """A remark of FOUL_SECONDS from its first word to its last is heard as less (its quiet
    ends and breaths are under the voice activity's threshold): HEARD_FOUL_SECONDS of voice
    makes a suggestion, less does not."""
    window = speakers.Window(1, 0.0, 40.0)

    def heard(seconds: float) -> list[speakers.Suggestion]:
        talk = [speakers.Stretch(10.0, 10.0 + seconds, 5, 0.99, 1, False)]
        return speakers._suggestions(talk, [window], [])

    assert speakers.HEARD_FOUL_SECONDS < speakers.FOUL_SECONDS
    (one,) = heard(speakers.HEARD_FOUL_SECONDS + 0.01)
    assert (one.seat, one.during) == (5, 1)
    assert heard(speakers.HEARD_FOUL_SECONDS - 0.1) == []


def test_a_spectator_turned_away_once_is_known_when_heard_again_as_a_seat() -> None:
    """A spectator talks at night in a voice like seat 1's: where it stands far from seat 1's
    voice the run is turned away (STRANGE); where it stands near enough to pass that check,
    it is still nobody's when nearer the turned-away runs' voice than seat 1's. Seat 1's
    own night talk stays seat 1's; without the turned-away runs the near one would too."""
    rng = np.random.default_rng(7)
    axes = np.eye(8)

    def heard(voice: np.ndarray, count: int = 4) -> list[np.ndarray]:
        noisy = [voice + rng.normal(scale=0.04, size=8) for _ in range(count)]
        return [v / np.linalg.norm(v) for v in noisy]

    seat_1, seat_2 = axes[0], axes[1]
    spectator_far, spectator_near = 0.6 * axes[0] + 0.8 * axes[2], 0.82 * axes[0] + 0.57 * axes[2]

    def attributed_and_voices(
        night_runs: list[list[np.ndarray]],
    ) -> tuple[list[speakers.Stretch], speakers._Voices]:
        taught = heard(seat_1, 30) + heard(seat_2, 30)
        stretches = [
            speakers.Stretch(i, i + 1.0, seat, 0.99, seat, False)
            for i, seat in enumerate([1] * 30 + [2] * 30)
        ]
        vectors = list(taught)
        for run in night_runs:  # each run of seat 1 at night, a word of seat 2's after it
            for seat, vector in [*((1, v) for v in run), (2, heard(seat_2, 1)[0])]:
                at = float(len(vectors))
                stretches.append(speakers.Stretch(at, at + 1.0, seat, 0.99, None, True))
                vectors.append(vector)
        labels = np.array([1] * 30 + [2] * 30 + [-1] * (len(vectors) - 60))
        return stretches, speakers._Voices(np.stack(vectors), labels, np.arange(60))

    def seats_of(night_runs: list[list[np.ndarray]]) -> list[int | None]:
        stretches, voices = attributed_and_voices(night_runs)
        kept = speakers._strangers_left_out(stretches, voices)
        runs = [kept[60 + 5 * n : 60 + 5 * n + 4] for n in range(len(night_runs))]
        return [run[0].seat if len({s.seat for s in run}) == 1 else -1 for run in runs]

    far, near, own = heard(spectator_far), heard(spectator_near), heard(seat_1)
    assert seats_of([far, near, own]) == [None, None, 1]
    assert seats_of([near, own]) == [1, 1]  # near enough to seat 1 to pass on its own


def test_the_hosts_voice_is_also_learnt_between_the_speeches() -> None:
    """The day's short gaps from one speech to the next hold the host's «Дальше»; a night,
    and a gap longer than GAP_SECONDS (a vote, a break), do not count."""
    windows = [
        speakers.Window(1, 0.0, 30.0),
        speakers.Window(2, 32.0, 60.0),
        speakers.Window(3, 60.0 + speakers.GAP_SECONDS + 1, 100.0),
        speakers.Window(4, 150.0, 180.0),
        speakers.Window(5, 182.0, 200.0),
    ]
    assert speakers._between_speeches(windows, [(179.0, 183.0)]) == [(30.0, 32.0)]


def test_below_the_threshold_a_voice_is_unknown() -> None:
    """Without enough of a seat's own speeches nothing is attributed: fewer than two seats
    are modelled, and the analysis says so instead of guessing."""
    rng = np.random.default_rng(5)
    feats = rng.normal(size=(400, features.FEATURES)).astype(np.float32)
    found = speakers.attribute(feats, [(0.0, 12.0)], [speakers.Window(1, 0.0, 12.0)])
    assert found.modelled == [1] and found.stretches == [] and found.suggestions == []


# --- through the worker, the host and the published pages --------------------------------


# The host, the game, its analysed recording and the players.
type Heard = tuple[User, Game, Recording, list[User]]


@pytest.fixture
def heard(
    table: Table, table_sound: ScriptedGame, tmp_path: Path, recording_storage: None
) -> Heard:
    """The scripted game's speeches recorded into a real game (day 1) that the town then
    wins, its sound uploaded and analysed by the worker's function."""
    host, evening, players = table
    game = start_game(host, evening, players)
    began = timezone.now() - timedelta(hours=1)
    shift = began - table_sound.started_at
    speeches = [
        {
            **event,
            "start": (datetime.fromisoformat(event["start"]) + shift).isoformat(),
            "end": (datetime.fromisoformat(event["end"]) + shift).isoformat(),
        }
        for event in table_sound.events
        if event["type"] == "speech"
    ]
    record(game, host, TOWN_WINS[0], *speeches, *TOWN_WINS[1:])
    path = write(tmp_path / "table.wav", table_sound.samples, "wav")
    recording = upload(host, game, path, began)
    analysed = recording_analysis.recording_analyse(recording_id=recording.pk)
    assert analysed is not None
    return host, game, analysed, players


@pytest.mark.django_db
def test_the_worker_stores_who_spoke_and_the_suggestions(
    heard: Heard, table_sound: ScriptedGame
) -> None:
    _host, _game, recording, _players = heard
    assert recording.speakers is not None
    assert recording.speakers["modelled"] == list(range(1, 13))
    suggested = {(s.seat, s.during) for s in FoulSuggestion.objects.filter(recording=recording)}
    interruptions = {(p.seat, p.during) for p in table_sound.planted if p.kind == "interruption"}
    assert suggested and suggested <= interruptions  # this game's nights are outside the sound
    assert all(s.status == SuggestionStatus.PENDING for s in recording.suggestions.all())


@pytest.mark.django_db
def test_the_host_gives_a_suggested_foul_or_dismisses_it(heard: Heard) -> None:
    host, game, recording, players = heard
    first, *rest = list(recording.suggestions.order_by("start"))
    with pytest.raises(Refused) as refused:
        recordings.suggestion_decide(suggestion_id=first.pk, user=players[0], accept=True)
    assert refused.value.code == RefusalCode.FORBIDDEN
    before = view_of(game.pk).club_state
    recordings.suggestion_decide(suggestion_id=first.pk, user=host, accept=True)
    after = view_of(game.pk).club_state
    assert after.fouls.get(first.seat, 0) == before.fouls.get(first.seat, 0) + 1
    assert (after.winner, sorted(after.alive)) == (before.winner, sorted(before.alive))
    last = game.events.order_by("-seq").first()
    assert last is not None
    assert last.payload["type"] == "foul" and "по записи" in last.payload["reason"]
    with pytest.raises(Refused) as again:
        recordings.suggestion_decide(suggestion_id=first.pk, user=host, accept=False)
    assert again.value.code == RefusalCode.CONFLICT
    assert again.value.message == "По этому предложению уже решено."
    if rest:
        client = Client()
        client.force_login(host)
        answer = client.post(
            f"/games/{game.pk}/recording/suggestions/{rest[0].pk}/",
            {"decision": "dismiss"},
            headers={"HX-Request": "true"},
        )
        assert answer.status_code == 200 and "Предложение отклонено." in answer.content.decode()
        rest[0].refresh_from_db()
        assert rest[0].status == SuggestionStatus.DISMISSED
    # An analysis run again keeps the decisions and does not ask twice.
    decided = FoulSuggestion.objects.exclude(status=SuggestionStatus.PENDING).count()
    assert recording.speakers is not None
    stored = [speakers.Suggestion(**s) for s in recording.speakers["suggestions"]]
    recording_analysis._suggest(recording, speakers.Attribution([], {}, stored, [], 0.0))
    assert FoulSuggestion.objects.exclude(status=SuggestionStatus.PENDING).count() == decided

    # The recording replaced (its suggestions gone with it) and the new one analysed: the
    # talk already fouled is not suggested again, and a foul for it is not given twice.
    FoulSuggestion.objects.filter(recording=recording).delete()
    recording_analysis._suggest(recording, speakers.Attribution([], {}, stored, [], 0.0))
    anew = {(s.seat, s.start) for s in FoulSuggestion.objects.filter(recording=recording)}
    assert (first.seat, first.start) not in anew
    twin = FoulSuggestion.objects.create(
        recording=recording,
        seat=first.seat,
        during=first.during,
        start=first.start + 0.5,
        end=first.end,
        seconds=first.seconds,
    )
    fouls = view_of(game.pk).club_state.fouls.get(first.seat, 0)
    with pytest.raises(Refused) as twice:
        recordings.suggestion_decide(suggestion_id=twin.pk, user=host, accept=True)
    assert twice.value.code == RefusalCode.CONFLICT
    assert view_of(game.pk).club_state.fouls.get(first.seat, 0) == fouls
    twin.refresh_from_db()
    assert twin.status == SuggestionStatus.PENDING

    # The door takes "accept" or "dismiss", and a suggestion only through its own game.
    client = Client()
    client.force_login(host)
    for bad in ("maybe", "", "accept\x00"):
        client.post(f"/games/{game.pk}/recording/suggestions/{twin.pk}/", {"decision": bad})
    assert game.evening is not None
    other = start_game(host, game.evening, list(players))
    client.post(f"/games/{other.pk}/recording/suggestions/{twin.pk}/", {"decision": "dismiss"})
    twin.refresh_from_db()
    assert twin.status == SuggestionStatus.PENDING


@pytest.mark.django_db
def test_the_figures_are_published_under_the_consent_rules(heard: Heard) -> None:
    host, game, _recording, players = heard
    ratings_analysis.game_analysis_build(game_id=game.pk)
    shy = players[2]  # seat 3
    set_consent(shy, consent=False)
    view = view_of(game.pk)
    public = audio_of(view, make_member())["speakers"]
    seats = {row["seat"] for row in public["seats"]}
    assert 3 not in seats and {1, 2, 4} <= seats
    assert all(bar.seat != 3 for bar in public["picture"].bars)
    assert 3 not in {row["seat"] for row in audio_of(view, make_member())["speeches"]}
    hosts = {row["seat"] for row in audio_of(view, host)["speakers"]["seats"]}
    assert 3 in hosts
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "Кто когда говорил" in page and 'class="voice seat-1' in page
    # The seat's talk by day between speeches and the whole recording's voice outside the
    # speeches read apart (both read «вне речей» before).
    assert '<th class="num">Между речами</th>' in page
    assert "голос вне всех речей, днём и ночью, с голосом ведущего" in page
    # Talk in another's speech says whose and how long (the walk of #30 read «6: 5»), each
    # item unbroken, and none that would read «0 с».
    item = r'<span class="num">место \d+: [1-9]\d* с</span>'
    assert re.search(rf"<td>{item}(, {item})*</td>", page)
    assert not re.search(r"место \d+: 0 с", page)
    api = Client().get(f"/api/v1/games/{game.pk}/analysis").json()
    assert 3 not in {row["seat"] for row in api["audio"]["speakers"]["seats"]}


@pytest.mark.django_db
def test_a_foul_from_the_recording_is_heard_first_and_placed_at_its_moment(heard: Heard) -> None:
    """#25: the host read «с 260-й секунды» with nothing to play, and a foul given from the
    recording was drawn at the end of the timeline."""
    host, game, recording, _players = heard
    first = recording.suggestions.order_by("start").first()
    assert first is not None
    client = Client()
    client.force_login(host)
    page = client.get(f"/games/{game.pk}/recording/").content.decode()
    # The host finds the who-spoke-when figures from here (the walk of #30 did not).
    assert f'href="/games/{game.pk}/?public=1#analysis">Кто когда говорил — в разборе игры' in page
    listen_from = max(0, int(first.start) - 1)
    assert f'/recording/file/#t={listen_from}"' in page or f"#t={listen_from}" in page
    recordings.suggestion_decide(suggestion_id=first.pk, user=host, accept=True)
    last = game.events.order_by("-seq").first()
    assert last is not None
    foul = last.payload
    moment = recording.started_at + timedelta(seconds=first.start)
    assert datetime.fromisoformat(foul["at"]) == moment
    timeline = view_of(game.pk).events
    from games.timeline import in_time_order

    placed = [event["type"] for event in in_time_order(timeline)]
    assert placed.index("foul") < placed.index("night")  # in day 1, where it was heard
    shown = client.get(f"/games/{game.pk}/?public=1").content.decode()
    assert shown.index("Фол: ") < shown.index("Ночь 1")


@pytest.mark.django_db
def test_deleting_a_recording_asks_first(heard: Heard) -> None:
    host, game, recording, _players = heard
    client = Client()
    client.force_login(host)
    page = client.get(f"/games/{game.pk}/recording/").content.decode()
    assert "Да, удалить запись" in page
    one_tap = client.post(f"/games/{game.pk}/recording/delete/")
    recording.refresh_from_db()
    assert one_tap.status_code == 302 and recording.file  # kept: it was not confirmed
    confirmed = client.post(f"/games/{game.pk}/recording/delete/", {"confirm": "yes"})
    recording.refresh_from_db()
    assert confirmed.status_code == 302 and not recording.file
