"""The host's screens (start a game, record it) and the public game page."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club.doors.requests import MemberRequest, SiteRequest
from club.doors.responses import action_answer, answers_refusals
from club.identity import THEME_COLOR, identity
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import whole_number
from club.lineup import MAX_TABLES
from club.models import Evening
from games import access, host_screen, live, live_evening, taps
from games.models import Role, Ruleset, Spectators
from games.online import texts as online_texts
from games.online.spectators import online_snapshot_write
from games.queries import bonuses_given, game_view
from games.ratings import stats
from games.ratings.publication import (
    hidden_names,
    named_guests,
    published_analysis,
    published_points,
    published_points_of,
    signed_points,
    unnamed,
    unnamed_reason,
    visible_nicks,
)
from games.ratings.services import bonus_give, bonus_scheme, game_rated_set
from games.recording import GameView, Unreplayable, bonus_window_closes, refuse_unless_recorder
from games.rules.results import Results, SeatResult
from games.rules.scoring import Scheme
from games.starting import (
    Player,
    Preselection,
    deal,
    game_create,
    player_from_key,
    preselected,
    present_players,
    suggested_lineup,
)
from games.timeline import CHECK_RESULTS, REASONS, describe, in_time_order
from live.links import producer_links
from live.models import MAX_DELAY_SECONDS


@login_required
@require_http_methods(["GET", "POST"])
@answers_refusals()
def game_new(request: MemberRequest, evening_id: int) -> HttpResponse:
    """Step 1: who plays, the line-up, random or by hand. Step 2 (`confirm`): the table,
    seat by seat, as dealt or as the host set it; starting it creates the game."""
    access.refuse_unless_may_host(request.user)
    evening = get_object_or_404(Evening, pk=evening_id)
    table = _table(request, evening)
    present = present_players(evening, table)
    roles = list(Role.objects.all())
    club = Club.current()
    sizes = range(club.min_players, max(club.min_players, 15) + 1)
    context: dict[str, Any] = {
        "evening": evening,
        "table_number": table,
        "tables": range(1, evening.tables + 1),
        "present": present,
        # The key to the chips' marks, when a chip has one.
        "marked": any(p.came or p.attendance_confirmed for p in present),
        "roles": roles,
        "min_players": club.min_players,
        "max_players": max(club.min_players, 15),
        # The screen's script follows the ticked players with the usual line-up.
        "lineups": {size: suggested_lineup(size) for size in sizes},
    }
    if request.method == "GET":
        preselection = preselected(evening, present, table)
        chosen = preselection.chosen
        context["lineup"] = suggested_lineup(len(chosen) or club.min_players)
        context["chosen"] = {p.key for p in chosen}
        context["split"] = _split_note(preselection, evening, table, club)
        return render(request, "games/new.html", context)
    ticked = set(request.POST.getlist("players"))
    chosen = [p for p in present if p.key in ticked]
    lineup = {r.code: _count(request.POST.get(f"role_{r.code}")) for r in roles}
    lineup = {code: count for code, count in lineup.items() if count}
    context.update(lineup=lineup, chosen={p.key for p in chosen})
    if "start" in request.POST:
        return _start(request, evening, context)
    try:
        rng = random.Random()
        players = list(chosen)
        if request.POST.get("seating") != "manual":
            rng.shuffle(players)
        numbers = list(range(1, len(players) + 1))
        dealt = deal(lineup, numbers, rng) if request.POST.get("deal") != "manual" else {}
    except Refused as refusal:  # the form shows the message in place
        context["error"] = refusal.message
        return render(request, "games/new.html", context, status=refusal.status)
    context["table"] = [
        {"number": n, "player": p, "role": dealt.get(n, "")}
        for n, p in zip(numbers, players, strict=True)
    ]
    # The line-up in a line above the seats: the check starts from what was chosen.
    context["lineup_named"] = [
        {"name": role.name, "count": lineup[role.code]} for role in roles if role.code in lineup
    ]
    return render(request, "games/confirm.html", context)


def _split_note(preselection: Preselection, evening: Evening, table: int, club: Club) -> str:
    """What the ticks above the list follow, said: the split over two free tables, or why
    there is none (too few for every table's minimum; one table open though two would fill)."""
    people, ticked = preselection.people, len(preselection.chosen)
    if preselection.tables > 1 and preselection.shares is not None:
        return _(
            "Players to seat: %(people)d, tables: %(tables)d — %(shares)s, at least %(min)d "
            "at every table. Ticked for table %(table)d: %(ticked)d."
        ) % {
            "people": people,
            "tables": preselection.tables,
            "shares": " + ".join(str(share) for share in preselection.shares),
            "min": club.min_players,
            "table": table,
            "ticked": ticked,
        }
    if preselection.tables > 1:
        return _(
            "Players to seat: %(people)d — too few for %(tables)d tables of at least %(min)d "
            "(%(need)d are needed). Ticked for this table: %(ticked)d."
        ) % {
            "people": people,
            "tables": preselection.tables,
            "min": club.min_players,
            "need": preselection.tables * club.min_players,
            "ticked": ticked,
        }
    if evening.tables < MAX_TABLES and people >= MAX_TABLES * club.min_players:
        return _(
            "Players to seat: %(people)d — enough for %(tables)d tables of at least %(min)d. "
            "The organiser opens the second table on the evening's line-up."
        ) % {"people": people, "tables": MAX_TABLES, "min": club.min_players}
    return ""


def _table(request: MemberRequest, evening: Evening) -> int:
    """The table the new game is for (`table` in the query or the form), 1 by default; a
    number the evening has no table for is refused by game_create."""
    return whole_number(request.POST.get("table") or request.GET.get("table"), high=9) or 1


def _count(raw: str | None) -> int:
    return whole_number(raw, high=30) or 0


def _start(request: MemberRequest, evening: Evening, context: dict[str, Any]) -> HttpResponse:
    seats: dict[int, tuple[Player, str]] = {}
    post = request.POST
    for number in range(1, 31):
        raw, role = post.get(f"member_{number}"), post.get(f"role_at_{number}")
        if raw is None:
            continue
        player = player_from_key(raw)
        if player is None or not role:
            context["error"] = _("Choose a member and a role for seat %(seat)d.") % {"seat": number}
            return render(request, "games/new.html", context, status=422)
        seats[number] = (player, role)
    try:
        game = game_create(
            host=request.user, evening_id=evening.pk, seats=seats, table=context["table_number"]
        )
    except Refused as refusal:  # the form shows the message in place
        context["error"] = refusal.message
        return render(request, "games/new.html", context, status=refusal.status)
    return redirect("game", game_id=game.pk)


def _game_context(request: SiteRequest, view: GameView) -> dict[str, Any]:
    """The public game page: the table as its reader may see it."""
    state = view.club_state
    nick = visible_nicks(view.seats, view.game, request.user)
    guests = named_guests(view.seats, view.game, request.user)
    hidden = hidden_names(view.seats, nick)
    role_names = stats.role_names()
    seats = [
        {
            "seat": seat,
            "nick": nick[seat.number],
            "guest": seat.number in guests,
            "role_name": role_names.get(seat.role, seat.role),
            "foul_marks": "●" * state.fouls.get(seat.number, 0),
            "alive": seat.number in state.alive,
            "immune": seat.number in state.immune_now,
        }
        for seat in view.seats
    ]
    show_roles = access.sees_roles(request.user, view.game, view.seats)
    runs = access.runs(request.user, view.game, view.seats)
    return {
        "view": view,
        "game": view.game,
        "prompt": view.prompt,
        "seats": seats,
        "show_roles": show_roles,
        "runs": runs,
        # What the host judged: shown with the cards (a reason may speak of one).
        **(_judged(view, nick, runs) if show_roles else {}),
        "eliminated": [(out, REASONS.get(out.reason, out.reason)) for out in state.eliminated],
        "check_results": [
            (check, CHECK_RESULTS.get(check.result, check.result)) for check in state.checks
        ],
        "timeline": [
            describe(unnamed_reason(event, hidden), nick, role_names)
            for event in in_time_order(view.events)
        ],
        "winner_name": role_names.get(view.game.winner, view.game.winner),
        "role_names": role_names,
        "spectators_choices": Spectators.choices,
        # The producer's links (live/), for whoever runs a club game only: one query.
        "producer_links": (
            list(producer_links(view.game.pk))
            if runs and view.game.ruleset == Ruleset.CLUB and not view.game.results_only
            else None
        ),
        "producer_most_delay": MAX_DELAY_SECONDS,
        "results": _results_rows(view, nick, role_names) if view.game.results_only else None,
    }


def _when(when: str) -> str:
    """«N1» / «D2» of the results as the reader says it: night 1, day 2."""
    if len(when) > 1 and when[0] in "ND" and when[1:].isdigit():
        phase = _("night") if when[0] == "N" else _("day")
        return f"{phase} {when[1:]}"
    return when


def _results_rows(
    view: GameView, nick: dict[int, str], role_names: dict[str, str]
) -> dict[str, Any]:
    """A results-only game's results as its page shows them (games/rules/results.py):
    each seat's fouls, how and when they left, extra points; the best move."""
    kept = Results.from_dict(view.game.results)
    hidden = hidden_names(view.seats, nick)
    rows = []
    for seat in view.seats:
        result = kept.seats.get(seat.number, SeatResult())
        rows.append(
            {
                "seat": seat.number,
                "nick": nick[seat.number],
                "role_name": role_names.get(seat.role, seat.role),
                "fouls": result.fouls,
                "left": REASONS.get(result.left, result.left) if result.left else "",
                "when": _when(result.when),
                "extra": signed_points(result.extra) if result.extra else "",
                "reason": unnamed(result.reason, hidden),
            }
        )
    best_move = None
    if kept.best_move_by is not None and kept.best_move_by in nick:
        best_move = {
            "by": f"{kept.best_move_by} ({nick[kept.best_move_by]})",
            "targets": [str(seat) for seat in kept.best_move],
        }
    return {"rows": rows, "best_move": best_move}


def _judged(view: GameView, nick: dict[int, str], runs: bool) -> dict[str, Any]:
    """The best move and the host's extra points with their reasons and their audit (who
    gave them, when); for whoever runs the game, the form for more while the club's
    window is open (games.recording.bonus_window_closes)."""
    state = view.club_state
    given = state.best_move
    best_move = None
    if given is not None:
        best_move = {
            "by": f"{given.by} ({nick[given.by]})",
            "targets": [f"{seat} ({nick[seat]})" for seat in given.targets],
        }
    hidden = hidden_names(view.seats, nick)
    bonuses = [
        {
            "bonus": bonus,
            "nick": nick[bonus.seat],
            "shown": signed_points(bonus.points),
            "reason": unnamed(bonus.reason, hidden),
        }
        for bonus in (bonuses_given(view.game) if state.bonuses else [])
    ]
    closes = bonus_window_closes(view.game) if view.game.finished else None
    form = runs and closes is not None and timezone.now() <= closes
    scheme = bonus_scheme(view.game) if form else None
    return {
        "best_move": best_move,
        "bonuses": bonuses,
        "bonus_form": form,
        # Its host learns why the form is gone: the window closed.
        "bonus_closed": runs and closes is not None and not form,
        "bonus_closes": closes,
        "bonus_scheme": scheme,
        "bonus_steps": _bonus_steps(scheme) if scheme else [],
    }


# The points the form offers: steps of 0.05 within the scheme's bounds, as the host's
# screen does (static/games/host/dialogs.js), so no phone keyboard without a minus is needed.
BONUS_STEP = 0.05


def _bonus_steps(scheme: Scheme) -> list[dict[str, Any]]:
    top, bottom = round(scheme.bonus_max / BONUS_STEP), round(scheme.bonus_min / BONUS_STEP)
    return [
        {"value": f"{step * BONUS_STEP:.2f}", "label": signed_points(step * BONUS_STEP)}
        for step in range(top, bottom - 1, -1)
        if step
    ]


@require_GET
def game_detail(request: SiteRequest, game_id: int) -> HttpResponse:
    """The game's host (or an admin not at the table) gets the table screen, unless they
    ask for the public page; everyone else the public page."""
    try:
        view = game_view(game_id)
    except Unreplayable as unreplayable:
        return _unreplayable_page(request, unreplayable)
    if view is None:
        raise Http404
    if view.game.ruleset == Ruleset.ONLINE:
        return _online_result(request, view)
    # A results-only game has no table to run: its page is the same for everyone.
    if view.game.results_only:
        return _public_page(request, view)
    if access.runs(request.user, view.game, view.seats) and "public" not in request.GET:
        data = host_screen.page_data(view, request.user)
        return render(request, "games/host.html", {"game": view.game, "data": data})
    return _public_page(request, view)


def _unreplayable_page(request: SiteRequest, unreplayable: Unreplayable) -> HttpResponse:
    """What a game's page says when its stored record no longer replays: which game, that
    its table cannot be shown, and to whoever runs it the engine's reason and the way to
    the record in admin."""
    game = unreplayable.game
    context = {
        "game": game,
        "message": unreplayable.message,
        "reason": unreplayable.reason if access.runs(request.user, game) else "",
    }
    return render(request, "games/unreplayable.html", context, status=unreplayable.status)


def _public_page(
    request: SiteRequest, view: GameView, status: int = 200, **extra: Any
) -> HttpResponse:
    context = _game_context(request, view) | extra
    if view.game.finished:
        context["analysis"] = published_analysis(view, request.user, context["role_names"])
    return render(request, "games/game.html", context, status=status)


@login_required
@require_POST
def game_tap(request: MemberRequest, game_id: int) -> JsonResponse:
    """One tap of the host's screen, as JSON: `{"seq", "client_id", "event", "confirmed"}`
    (games/taps.py, the API's reading too). The answer carries the table after it; a
    refusal is the API's error body (and, for a stale tap, the log as it stands, so the
    phone can show what the other device did)."""
    try:
        recorded = taps.tap_record(
            game_id=game_id,
            author=request.user,
            raw=request.body,
            nested=True,
            confirmed_unless_said=False,
        )
    except Refused as refusal:
        return _tap_refused(refusal)
    view = recorded.view
    answer: host_screen.TapRecorded = {
        "seq": view.game.last_seq,
        "entry": recorded.entry.payload,
        "created": recorded.created,
        "table": host_screen.table_of(view),
    }
    return JsonResponse(answer, status=201 if recorded.created else 200)


@login_required
@require_POST
@answers_refusals(back=lambda game_id: reverse("game", args=[game_id]) + "?public=1#bonuses")
def game_bonus(request: MemberRequest, game_id: int) -> HttpResponse:
    """Extra points (or a penalty) with a reason, from the finished game's page: its host
    or an admin, within the club's window (games.ratings.services.bonus_give). A refusal
    is said beside the form, which keeps what was typed."""
    seat = whole_number(request.POST.get("seat", ""), low=1, high=30)
    points = _points(request.POST.get("points", ""))
    try:
        if seat is None or points is None:
            raise Refused(
                _("Choose a seat and the points (for example 0.3 or −0.5)."), RefusalCode.INVALID
            )
        bonus_give(
            game_id=game_id,
            author=request.user,
            seat=seat,
            points=points,
            reason=request.POST.get("reason", ""),
        )
    except Refused as refusal:
        view = game_view(game_id)
        if view is None or not access.runs(request.user, view.game, view.seats):
            raise  # not this member's form: the refusal's own page
        posted = {"seat": seat, "points": request.POST.get("points", ""), "reason": ""}
        posted["reason"] = request.POST.get("reason", "")[:200]
        return _public_page(
            request, view, refusal.status, bonus_error=refusal.message, bonus_posted=posted
        )
    return action_answer(
        request,
        refusal=None,
        done=_("Recorded: %(points)s to seat %(seat)d. The scores are rebuilt within a minute.")
        % {"points": signed_points(points), "seat": seat},
        back=reverse("game", args=[game_id]) + "?public=1#bonuses",
    )


@login_required
@require_POST
@answers_refusals(back=lambda game_id: reverse("game", args=[game_id]) + "?public=1")
def game_rated(request: MemberRequest, game_id: int) -> HttpResponse:
    """Its host or an admin marks the game unrated (a practice game: scored, in no rating
    and no season's table) or rated again, from its page."""
    rated = request.POST.get("rated") == "1"
    game_rated_set(game_id=game_id, rated=rated, by=request.user)
    done = (
        _("The game counts in the ratings again. The ratings are replayed within a minute.")
        if rated
        else _(
            "The game is not rated: its scores stay, but it counts for no rating and no "
            "season's table. The ratings are replayed within a minute."
        )
    )
    return action_answer(
        request, refusal=None, done=done, back=reverse("game", args=[game_id]) + "?public=1"
    )


def _points(raw: str) -> float | None:
    """Points as a person types them: 0.3, 0,3, +0.3, −0.5 (a typographic minus)."""
    text = raw.strip().replace(",", ".").replace("−", "-")
    try:
        points = float(text)
    except ValueError:
        return None
    return points if math.isfinite(points) else None


@login_required
@require_GET
def game_head(request: MemberRequest, game_id: int) -> HttpResponse:
    """The log's head, polled by the host's screen while the game runs, so a second phone
    follows the first without a tap: 204 while `seq` is the game's last; else the log and
    the table as they stand (the stale tap's answer)."""
    try:
        game = refuse_unless_recorder(game_id=game_id, author=request.user)
    except Refused as refusal:
        return _tap_refused(refusal)
    known = whole_number(request.GET.get("seq", ""))
    # Polled every few seconds by every open screen: «nothing new» reads no log.
    if known == game.last_seq:
        return HttpResponse(status=204)
    try:
        view = game_view(game_id)
    except Unreplayable as unreplayable:
        return _tap_refused(unreplayable)
    assert view is not None  # the check above found it
    return JsonResponse(
        {"seq": view.game.last_seq, "log": view.log, "table": host_screen.table_of(view)}
    )


def _tap_refused(refusal: Refused) -> JsonResponse:
    return JsonResponse(refusal.body(tap=True), status=refusal.status)


@require_GET
def game_engine(request: SiteRequest) -> HttpResponse:
    """games/rules as a zip, for the host's phone to run under Pyodide."""
    response = HttpResponse(host_screen.engine_zip(), content_type="application/zip")
    response["Cache-Control"] = "no-cache"  # the service worker keeps it for offline use
    return response


# The engine's worker compiles WebAssembly (Pyodide): only that script may.
WORKER_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "connect-src": ["'self'"],
}


@require_GET
@csp_override(WORKER_CSP)
def game_engine_worker(request: SiteRequest) -> HttpResponse:
    return _static_script("games/engine-worker.js")


@require_GET
def service_worker(request: SiteRequest) -> HttpResponse:
    """Served from the site's root, so it may keep the host's game pages for offline use."""
    return _static_script("games/sw.js")


def _static_script(name: str) -> HttpResponse:
    path = finders.find(name)
    assert isinstance(path, str)
    response = HttpResponse(Path(path).read_bytes(), content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: SiteRequest) -> JsonResponse:
    """The web app manifest: the host's screen installs as an app on the phone."""
    club = identity()
    icons = [
        {"src": club.icon_url(size), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in (192, 512)
    ]
    return JsonResponse(
        {
            "name": club.name,
            "short_name": club.name if len(club.name) <= 12 else _("Mafia"),
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": THEME_COLOR,
            "theme_color": THEME_COLOR,
            "icons": icons,
        },
        content_type="application/manifest+json",
    )


def _online_result(request: SiteRequest, view: GameView) -> HttpResponse:
    """An online game's public page is its analysis once it ends; until then its table is
    its players' and its host's (/online/<id>/), and everyone else is sent to its live
    table (which says whether they may follow it: Game.spectators)."""
    if not view.game.finished:
        at_table = access.sees_table(request.user, view.game, view.seats)
        return redirect("online_game" if at_table else "game_live", game_id=view.game.pk)
    context = {"game": view.game, "analysis": published_analysis(view, request.user)}
    return render(request, "games/online_result.html", context)


# --- the live table (games/live.py, docs/live.md) ---------------------------------------


def live_words() -> dict[str, Any]:
    """The live table's words in the reader's language (static/games/live.js fills them
    in): the snapshot holds codes and numbers only."""
    return {
        "player": _("Player %(seat)s"),
        "guest": _("guest"),
        "setup": _("Before day 1"),
        "day": _("Day %(n)s"),
        "night": _("Night %(n)s"),
        "over": _("The game is over"),
        "speaker": _("Speaking: seat %(seat)s"),
        "last_word": _("Last word: seat %(seat)s"),
        "defence": _("Defence: seat %(seat)s"),
        "opener": _("The round opened with seat %(seat)s"),
        "nominees": _("Nominated: %(seats)s"),
        "votes": _("The vote over: %(seats)s"),
        "first_day_expel": _("Expel anyone at all? (%(seats)s)"),
        "hands": _("Show of hands over: %(seats)s"),
        "runoff": _("Runoff, round %(round)s: %(seats)s"),
        "expel_both": _("Expel both? (%(seats)s)"),
        "tally": _("The vote: %(counts)s"),
        # One nominee's votes in the tally: «место 5 — 3» reads where «5: 3» puzzled.
        "tally_item": _("seat %(seat)s — %(count)s"),
        "tally_for": _("For: %(count)s"),
        "expelled": _("Leaves: %(seats)s"),
        "no_one": _("Nobody leaves"),
        "left": _("Left the table"),
        "left_row": _("Seat %(seat)s: %(reason)s (%(when)s %(n)s)"),
        "when_day": _("day"),
        "when_night": _("night"),
        "winner_red": _("Winner: the red (town)"),
        "winner_black": _("Winner: the black (mafia)"),
        "winner_other": _("Winner: %(winner)s"),
        "fouls": _("fouls"),
        "points": _("points"),
        "offline": _("No connection: the table is shown as it was."),
        "result_link": _("The game's page: the analysis and the scores"),
        "reasons": {code: str(text) for code, text in REASONS.items()},
        "roles": {code: str(name) for code, name in stats.role_names().items()},
    }


def _live_read(request: SiteRequest, game_id: int) -> live.Kept:
    """The kept snapshot, if this reader may follow the game. A public game's reader is
    not looked up (no session, no query); a members-only game's costs the session's."""
    kept = live.snapshot_read(game_id, published_points, writers=[online_snapshot_write])
    public = kept["spectators"] == Spectators.PUBLIC
    live.refuse_unless_spectator(kept, None if public else request.user)
    return kept


def poller_holds(if_none_match: str, etag: str) -> bool:
    """If-None-Match as RFC 9110 §13.1.2 reads it on a GET: `*`, or a list of entity-tags
    of which one equals ours by the weak comparison (`W/` ignored: a proxy that compresses,
    nginx's gzip, weakens the ETag it passes on, and its browsers send it back so). What
    does not parse as an entity-tag matches nothing (django.utils.http.parse_etags keeps
    only well-formed ones), so a garbled header gets the body, never a wrong 304."""
    if not if_none_match:
        return False
    tags = parse_etags(if_none_match)
    if tags == ["*"]:
        return True
    ours = etag.removeprefix("W/")
    return any(tag.removeprefix("W/") == ours for tag in tags)


@require_GET
def game_live_json(request: SiteRequest, game_id: int) -> HttpResponse:
    """The live table's snapshot as JSON, with its ETag: a poller that has it gets 304."""
    try:
        kept = _live_read(request, game_id)
    except Refused as refusal:
        return JsonResponse(refusal.body(), status=refusal.status)
    public = kept["spectators"] == Spectators.PUBLIC
    if poller_holds(request.headers.get("If-None-Match", ""), kept["etag"]):
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(kept["body"], content_type="application/json")
    response["ETag"] = kept["etag"]
    response["Cache-Control"] = "no-cache" if public else "private, no-cache"
    return response


@require_GET
@answers_refusals()
def game_live(request: SiteRequest, game_id: int) -> HttpResponse:
    """The spectators' page: the table drawn by static/games/live.js from the JSON above."""
    kept = _live_read(request, game_id)
    words = live_words()
    snapshot = json.loads(kept["body"])
    if snapshot.get("ruleset") == Ruleset.ONLINE:
        words |= online_texts.spectators_words()  # its thread's words, its reasons, roles
    context = {
        "game_id": game_id,
        "snapshot": snapshot,
        "words": words,
        "result_url": reverse("game", args=[game_id]) + "?public=1",
    }
    return render(request, "games/live.html", context)


@login_required
@require_POST
@answers_refusals(back=lambda game_id: reverse("game", args=[game_id]) + "?public=1")
def game_spectators(request: MemberRequest, game_id: int) -> HttpResponse:
    """Who may follow the game live: its host's (or an admin's) choice, from its page."""
    game = live.spectators_set(
        game_id=game_id, author=request.user, spectators=request.POST.get("spectators", "")
    )
    return action_answer(
        request,
        refusal=None,
        done=_("Saved: the live table is shown to %(who)s.")
        % {"who": str(Spectators(game.spectators).label).lower()},
        back=reverse("game", args=[game_id]) + "?public=1",
    )


# --- the venue's screen (games/live_evening.py, docs/live.md) ----------------------------


def etagged(request: SiteRequest, etag: str, body: str, *, private: bool) -> HttpResponse:
    """A poll's answer: 304 to a poller that has `etag`, else the body, never cached by
    the way without asking again."""
    if poller_holds(request.headers.get("If-None-Match", ""), etag):
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache" if private else "no-cache"
    return response


def _screen_read(request: SiteRequest, evening_id: int) -> tuple[live_evening.Served, bool]:
    """The screen for this reader, and whether it is theirs alone: a reader is looked up
    (the session's query) only when a members-only game makes the members' screen differ."""
    kept = live_evening.screen_read(evening_id, points=published_points_of)
    member = kept["differs"] and request.user.is_authenticated
    return live_evening.served(kept, member=member, scores=published_points), kept["differs"]


@require_GET
def evening_screen_json(request: SiteRequest, evening_id: int) -> HttpResponse:
    """The venue's screen as JSON, with its ETag: a poller that has it gets 304."""
    try:
        screen, private = _screen_read(request, evening_id)
    except Refused as refusal:
        return JsonResponse(refusal.body(), status=refusal.status)
    return etagged(request, screen.etag, screen.body, private=private)


def screen_words() -> dict[str, Any]:
    """The screens' words beside the live table's (static/games/screen.js)."""
    return live_words() | {
        "table": _("Table %(table)s"),
        "game": _("Game %(number)s"),
        "no_game": _("No game at this table yet."),
        "not_shown": _("A game is under way here; it is not shown live."),
        "not_shown_over": _("The game is over; it was not shown live."),
        "members_only": _("This game is shown live to the club's members: sign in to follow it."),
        "next": _("Table %(table)s, game %(number)s"),
        "next_hidden": _("Seated; the line-up is not shown."),
        "no_next": _("Nobody is seated for the next game yet."),
        "no_standings": _("No game of the evening has been scored yet."),
        "standing_row": _("games: %(games)s, wins: %(wins)s"),
        "more": _("and more players: %(count)s"),
    }


@require_GET
@answers_refusals()
def evening_screen(request: SiteRequest, evening_id: int) -> HttpResponse:
    """The venue's screen: the evening's tables, standings and who plays next, drawn by
    static/games/screen.js from the JSON above and followed by itself."""
    evening = get_object_or_404(Evening, pk=evening_id)
    screen, _private = _screen_read(request, evening_id)
    context = {
        "evening": evening,
        "screen": json.loads(screen.body),
        "words": screen_words(),
        "url": reverse("evening_screen_json", args=[evening_id]),
    }
    return render(request, "games/screen.html", context)
