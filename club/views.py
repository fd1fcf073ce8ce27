from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from club import lineup, queries, services
from club.calendar import EVENING_LENGTH, evenings_calendar
from club.doors.requests import MemberRequest, SiteRequest
from club.doors.responses import action_answer, answers_refusals
from club.identity import ICON_CACHE_SECONDS, ICON_SIZES, logo_icon_png
from club.kernel import health
from club.kernel.clubs import Club, Visitors
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import whole_number
from club.models import (
    Evening,
    EveningStatus,
    LineupAction,
    LineupChange,
    Registration,
    RegistrationSource,
    RegistrationStatus,
    RemovalReason,
)
from games.access import may_host, may_see_name
from games.models import Game, GameStatus
from games.queries import evening_guests_played, evening_players, recent_games
from games.starting import game_may_start
from notifications.channels import how_told


@require_GET
def home(request: SiteRequest) -> HttpResponse:
    context = {
        "club_settings": Club.current(),
        "evenings": queries.upcoming_evenings()[:4],
        "recent_games": recent_games()[:5],
    }
    return render(request, "club/home.html", context)


def _evening_context(request: SiteRequest, evening: Evening, **extra: object) -> dict[str, object]:
    lineup = queries.evening_lineup(evening)
    mine = lineup.by_member.get(request.user.pk) if request.user.is_authenticated else None
    now = timezone.now()
    club = Club.current()
    # What «Ок, играем» will do, said before the press: the sign-up's own rule
    # (queries.Lineup.prospect), the no-show rule included.
    held_back = (
        request.user.is_authenticated
        and mine is None
        and services.is_held_back(request.user, club, now)
    )
    sits = services.held_back_sits(evening, club, now)
    # A visitor from another club: the club's rule (Club.visitors) said before the press.
    visitor = (
        request.user.is_authenticated and mine is None and services.is_visitor(request.user, club)
    )
    awaiting = visitor and club.visitors == Visitors.BY_APPROVAL
    joins = lineup.prospect(
        evening.capacity, held_back=held_back, held_back_sits=sits, awaiting=awaiting
    )
    return {
        "evening": evening,
        "lineup": lineup,
        "mine": mine,
        "my_seat": lineup.seat_of(mine) if mine else None,
        "my_position": lineup.position_of(mine) if mine else None,
        "seats_left": lineup.seats_left(evening.capacity),
        "joins": joins,
        "visitor_awaits": awaiting,
        "visitors_refused": visitor and club.visitors == Visitors.MEMBERS_ONLY,
        # Seats are free, but the no-show rule keeps this member waiting until the last call.
        "held_back_until": services.last_call(evening, club) if held_back and not sits else None,
        "signup_open": evening.is_open_for_signup(),
        "started": now >= evening.starts_at,
        # «Не смогу» pressed and its undo window still running.
        "undo_open": bool(mine and mine.may_take_back(now)),
        # How a freed seat's news reaches this member: the bot, a letter, both or nothing.
        "how_told": how_told(request.user) if request.user.is_authenticated else "",
        **extra,
    }


@require_GET
def evening_detail(request: SiteRequest, evening_id: int) -> HttpResponse:
    evening = get_object_or_404(Evening, pk=evening_id)
    games = list(evening.games.order_by("number"))
    started = timezone.now() >= evening.starts_at
    # After the start the page tells what happened: who played (the names their owners
    # let the reader see; the rest counted) and the games, with no seats to take. Before
    # the first game is recorded, who is there: those who came, or the list.
    players = evening_players(evening.pk) if started and games else []
    guests_played = evening_guests_played(evening.pk) if started and games else 0
    attendance = queries.evening_attendance(evening) if started and not games else None
    here = attendance.members if attendance else []
    shown = [player for player in players if may_see_name(player, request.user)]
    here_shown = [member for member in here if may_see_name(member, request.user)]
    context = _evening_context(
        request,
        evening,
        games=games,
        can_host=may_host(request.user) and game_may_start(evening),
        players=shown,
        players_hidden=len(players) - len(shown),
        guests_played=guests_played,
        # The badge: every member and guest who sat at a table, the hidden and guests too.
        played_count=len(players) + guests_played,
        under_way=_under_way(evening, games),
        attendance=attendance,
        here=here_shown,
        here_hidden=len(here) - len(here_shown),
        # «Не смогу» asks first: the panel with the question (?leave=1), then the press.
        asking=request.GET.get("leave") == "1",
        organiser=may_host(request.user),
    )
    if request.htmx and "leave" in request.GET:  # the question asked, or put away
        return render(request, "club/evening.html#panel", context)
    return render(request, "club/evening.html", context)


def _under_way(evening: Evening, games: list[Game]) -> bool:
    """Whether a started evening is still on: while one of its games runs; once it has
    games and all are over, it is over; before its first game, for the evening's length."""
    if games:
        return any(game.status == GameStatus.RUNNING for game in games)
    return timezone.now() < evening.starts_at + EVENING_LENGTH


def _evening_action(
    request: SiteRequest, evening_id: int, action: Callable[[], str]
) -> HttpResponse:
    """Run a sign-up action; answer htmx with the refreshed panel, a plain post with a
    redirect to the evening page (the message carried over)."""
    evening = get_object_or_404(Evening, pk=evening_id)
    refusal = done = None
    try:
        done = action()
    except Refused as refused:
        refusal = refused

    def panel(error: str | None, outcome: str | None) -> HttpResponse:
        evening.refresh_from_db()
        context = _evening_context(request, evening, outcome=outcome, error=error)
        return render(request, "club/evening.html#panel", context)

    return action_answer(
        request, refusal=refusal, done=done, back=reverse("evening", args=[evening.pk]), part=panel
    )


@login_required
@require_POST
def evening_sign_up(request: MemberRequest, evening_id: int) -> HttpResponse:
    def sign_up() -> str:
        result = services.registration_create(
            member=request.user, evening_id=evening_id, source=RegistrationSource.WEB
        )
        # The panel's card says the number on the list or the reserve position.
        if result.seat is not None:
            return _("Done: you are playing.")
        if result.registration.awaiting_approval:
            return _("Asked: an organiser of the club will let you in.")
        return _("The evening is full: you are in the reserve.")

    return _evening_action(request, evening_id, sign_up)


@login_required
@require_POST
def evening_cancel(request: MemberRequest, evening_id: int) -> HttpResponse:
    def cancel() -> str:
        services.registration_cancel(
            member=request.user, evening_id=evening_id, undo_window=services.UNDO_WINDOW
        )
        return ""  # the panel's undo box says what happens and offers «Вернуть»

    return _evening_action(request, evening_id, cancel)


@login_required
@require_POST
def evening_cancel_undo(request: MemberRequest, evening_id: int) -> HttpResponse:
    def undo() -> str:
        services.registration_cancel_undo(member=request.user, evening_id=evening_id)
        return _("Taken back: your place is yours, as it was.")

    return _evening_action(request, evening_id, undo)


@login_required
@require_POST
def evening_confirm(request: MemberRequest, evening_id: int) -> HttpResponse:
    def confirm() -> str:
        services.registration_confirm_attendance(member=request.user, evening_id=evening_id)
        return _("Thank you: your attendance is confirmed.")

    return _evening_action(request, evening_id, confirm)


@login_required
@require_GET
def my_evenings(request: MemberRequest) -> HttpResponse:
    registrations = queries.member_evenings(request.user, limit=50)
    club = Club.current()
    context = {
        "registrations": registrations,
        "club_settings": club,
        "no_shows": services.recent_no_shows(request.user, club),
    }
    return render(request, "club/my_evenings.html", context)


@require_GET
def evenings_ics(request: SiteRequest) -> HttpResponse:
    body = evenings_calendar(queries.upcoming_evenings(), site_url=settings.SITE_URL)
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")


@require_GET
def club_icon(request: SiteRequest, size: int) -> HttpResponse:
    """The club's uploaded logo as a square PNG icon of one of the pages' sizes; without a
    logo, the hat's static icon of that size."""
    if size not in ICON_SIZES:
        raise Http404
    png = logo_icon_png(size)
    if png is None:
        return redirect(static(f"club/icon-{size}.png"))
    response = HttpResponse(png, content_type="image/png")
    # The address carries the logo's version (?v=…), so a new logo is a new address.
    patch_cache_control(response, public=True, max_age=ICON_CACHE_SECONDS)
    return response


@never_cache
@require_GET
def healthz(request: SiteRequest) -> JsonResponse:
    """200 when the database, the broker and the cache answer; 503 naming the parts that do
    not (and nothing more: the details are in the log)."""
    failing = health.failing_parts()
    body = {part: "failing" if part in failing else "ok" for part in health.CHECKS}
    body["status"] = "ok" if not failing else "failing: " + ", ".join(failing)
    return JsonResponse(body, status=503 if failing else 200)


@csrf_exempt  # answers every method with 404; a CSRF 403 would hide that
def api_not_found(request: SiteRequest) -> JsonResponse:
    refusal = Refused(_("No such API endpoint."), RefusalCode.NOT_FOUND)
    return JsonResponse(refusal.body(), status=refusal.status)


# --- the organiser's line-up (club/lineup.py) ------------------------------------------


def _refuse_unless_organiser(request: SiteRequest) -> None:
    """The line-up screen is the hosts' and the admins' (games.access.may_host)."""
    if not may_host(request.user):
        raise Refused(
            _("Only the club's hosts and admins run an evening's line-up."),
            RefusalCode.FORBIDDEN,
        )


# The newest changes the screen lists, unless all are asked for (?log=all).
LOG_LIMIT = 50


def _lineup_context(request: SiteRequest, evening: Evening, **extra: object) -> dict[str, object]:
    club = Club.current()
    current = queries.evening_lineup(evening)
    query = request.GET.get("q", "")
    found, search_refused = _lineup_search(evening, query)
    people = len(current.confirmed) + len(current.reserve)
    now = timezone.now()
    door_open = lineup.door_open(evening, now)
    log = LineupChange.objects.filter(evening=evening).select_related(
        "actor", "registration__member", "registration__guest"
    )
    whole_log = request.method == "GET" and request.GET.get("log") == "all"
    changes = list(log if whole_log else log[:LOG_LIMIT])
    deliveries = lineup.message_deliveries(
        [change.pk for change in changes if change.action == LineupAction.MESSAGE]
    )
    context: dict[str, object] = {
        "evening": evening,
        "lineup": current,
        "came": sum(1 for r in current.confirmed if r.checked_in_at is not None),
        "running": evening.status in (EveningStatus.SCHEDULED, EveningStatus.CLOSED),
        "started": now >= evening.starts_at,
        "second_table": lineup.second_table_refusal(evening, people, club) is None,
        "second_table_at": lineup.MAX_TABLES * club.min_players,
        # Before the door opens only a request by phone takes someone off (club/lineup.py).
        "reasons": RemovalReason.choices
        if door_open
        else [(RemovalReason.BY_PHONE.value, RemovalReason.BY_PHONE.label)],
        "door_open": door_open,
        "door_opens": lineup.door_opens_text(evening, now, club),
        # Echoed into the search box: never more than a nickname's length.
        "query": query[: lineup.SEARCH_MAX],
        "found": found,
        "search_refused": search_refused,
        "changes": changes,
        # Each change with, for a message, what the outbox has done with it so far.
        "log_rows": [(change, deliveries.get(change.pk)) for change in changes],
        "changes_count": log.count() if len(changes) == LOG_LIMIT else len(changes),
        "whole_log": whole_log,
        "min_age": club.min_age,
        **extra,
    }
    rows = _lineup_rows(evening, current, context)
    context.update(rows)
    # The removals that can be taken back now: «Вернуть» under a removal's own answer (not
    # under another tap's refusal on a row someone took off), and on its line in the log.
    to_undo = lineup.removals_to_undo(evening, now) if context["running"] else {}
    context["undo_ids"] = {change.pk for change in to_undo.values()}
    gone = rows["gone"]
    offered = extra.get("offer_undo") is True
    context["gone_undo"] = to_undo.get(gone) if offered and isinstance(gone, int) else None
    if evening.status == EveningStatus.FINISHED:
        context.update(_finished(evening, current))
    return context


def _lineup_search(evening: Evening, query: str) -> tuple[list[User], Refused | None]:
    """The members the search finds, or the search's refusal (said where the results go)."""
    if not query:
        return [], None
    try:
        return lineup.members_to_add(evening=evening, query=query), None
    except Refused as refused:
        return [], refused


def _lineup_rows(
    evening: Evening, current: queries.Lineup, context: dict[str, object]
) -> dict[str, object]:
    """A tap's answer is said in its row, where the finger is. A row that has left the list
    (taken off by this tap, by another organiser before it, or by the evening's cancel) is
    drawn once more where it was, with the answer; the second table's answer is said above
    the list."""
    seated: list[Registration] = [*current.confirmed]
    waiting: list[Registration] = [*current.reserve]
    where, row = context.get("where"), context.get("row")
    gone = _gone_row(evening, current, where, row)
    if gone is not None and context.get("at") == "reserve":
        waiting.insert(
            sum(1 for r in waiting if queries.reserve_key(r) < queries.reserve_key(gone)), gone
        )
    elif gone is not None:
        seated.insert(sum(1 for r in seated if r.arrival < gone.arrival), gone)
    unplaced = where == "row" and gone is None and row not in _listed(current)
    return {
        "seated_rows": seated,
        "waiting_rows": waiting,
        "gone": gone.pk if gone is not None else None,
        "said_above": where == "table" or unplaced,
    }


def _finished(evening: Evening, current: queries.Lineup) -> dict[str, object]:
    """A finished evening's list: who came (the door's taps, made attendance, and those who
    came and left), who did not, whoever still holds a seat (an evening whose door was not
    kept is not settled) and the reserve; each in the order they signed up."""
    settled = list(
        Registration.objects.filter(
            evening=evening,
            status__in=[RegistrationStatus.ATTENDED, RegistrationStatus.NO_SHOW],
        )
        .select_related("member", "guest")
        .order_by("arrival")
    )
    attended = [r for r in settled if r.status == RegistrationStatus.ATTENDED]
    missed = [r for r in settled if r.status == RegistrationStatus.NO_SHOW]
    return {
        "attended": attended,
        "missed": missed,
        "listed": len(settled) + len(current.confirmed),
        "finished": [
            (_("Present"), attended),
            (_("On the list"), current.confirmed),
            (_("Absent"), missed),
            (_("Reserve"), current.reserve),
        ],
    }


def _listed(current: queries.Lineup) -> set[int]:
    return {r.pk for r in current.confirmed} | {r.pk for r in current.reserve}


def _gone_row(
    evening: Evening, current: queries.Lineup, where: object, row: object
) -> Registration | None:
    """The registration a row's tap was about, when it is no longer on the list."""
    if where != "row" or not isinstance(row, int) or row in _listed(current):
        return None
    return (
        Registration.objects.select_related("member", "guest")
        .filter(pk=row, evening=evening)
        .first()
    )


@login_required
@require_GET
@answers_refusals()
def evening_lineup(request: MemberRequest, evening_id: int) -> HttpResponse:
    """The organiser's screen: the list and the reserve in order, who came, and the
    actions (club/lineup.py). A search of members draws its part alone for htmx."""
    _refuse_unless_organiser(request)
    evening = get_object_or_404(Evening, pk=evening_id)
    context = _lineup_context(request, evening)
    # A refused search is said in the search's results, with the refusal's status.
    refused = context["search_refused"]
    status = refused.status if isinstance(refused, Refused) else 200
    if request.htmx and request.htmx.target == "found":
        return render(request, "club/lineup.html#found", context, status=status)
    return render(request, "club/lineup.html", context, status=status)


def _lineup_action(
    request: MemberRequest,
    evening_id: int,
    where: str,
    action: Callable[[], str],
    registration_id: int | None = None,
    at: str = "seated",
    typed: dict[str, str] | None = None,
    offer_undo: bool = False,
) -> HttpResponse:
    """Run one of the organiser's actions; htmx gets the board again with the refusal or
    what was done beside the control that was tapped (`where`; a row's in the row, drawn
    where it was in the list `at`, "seated" or "reserve", if it has left the list), a
    plain post a redirect back to the screen with the message. A refused form is drawn
    again with what was `typed` in it and the refusal's fields marked wrong. A removal's
    answer offers its undo (`offer_undo`) in the row it took off."""
    evening = get_object_or_404(Evening, pk=evening_id)
    refusal = done = None
    try:
        _refuse_unless_organiser(request)
        if (
            registration_id is not None
            and not Registration.objects.filter(pk=registration_id, evening=evening).exists()
        ):
            raise Refused(_("There is no such registration."), RefusalCode.NOT_FOUND)
        done = action()
    except Refused as refused:
        refusal = refused

    def board(error: str | None, outcome: str | None) -> HttpResponse:
        evening.refresh_from_db()
        context = _lineup_context(
            request,
            evening,
            error=error,
            outcome=outcome,
            where=where,
            row=registration_id,
            at=at,
            typed=typed if refusal is not None else {},
            wrong=refusal.details.get("fields", {}) if refusal is not None else {},
            offer_undo=offer_undo and refusal is None,
        )
        return render(request, "club/lineup.html#board", context)

    return action_answer(
        request,
        refusal=refusal,
        done=done,
        back=reverse("evening_lineup", args=[evening.pk]),
        part=board,
    )


def _who(registration: Registration) -> str:
    """A row's name as the organiser's screen shows it: the nickname, or the guest's name."""
    if registration.member is not None:
        return registration.member.nickname
    return registration.guest.name if registration.guest is not None else ""


def _placed(added: lineup.Added) -> str:
    said = {"name": _who(added.registration), "place": added.place}
    if added.seated:
        return _("%(name)s is on the list: no. %(place)d.") % said
    return _("%(name)s is in the reserve: position %(place)d.") % said


def _removed(removed: lineup.Removed) -> str:
    """Who was taken off, and who took the freed seat (the reserve moves up before the
    start), or that the seat is free (after it, the organiser seats whom they choose)."""
    said = {"name": _who(removed.registration), "reason": str(removed.reason.label).lower()}
    if not removed.had_seat:
        return _("%(name)s is off the reserve (%(reason)s).") % said
    parts = [_("%(name)s is off the list (%(reason)s).") % said]
    names = [_who(r) for r in removed.promoted]
    if len(names) == 1:
        parts.append(_("%(name)s from the reserve takes the seat.") % {"name": names[0]})
    elif names:
        parts.append(_("From the reserve to the list: %(names)s.") % {"names": ", ".join(names)})
    else:
        parts.append(_("The seat is free."))
    return " ".join(parts)


@login_required
@require_POST
def lineup_add_member(request: MemberRequest, evening_id: int) -> HttpResponse:
    def add() -> str:
        member_id = whole_number(request.POST.get("member"), low=1)
        if member_id is None:
            raise Refused(_("Choose a member to add."), RefusalCode.INVALID)
        added = lineup.lineup_add_member(
            evening_id=evening_id, member_id=member_id, actor=request.user
        )
        return _placed(added)

    return _lineup_action(request, evening_id, "add", add)


@login_required
@require_POST
def lineup_add_guest(request: MemberRequest, evening_id: int) -> HttpResponse:
    def add() -> str:
        added = lineup.lineup_add_guest(
            evening_id=evening_id,
            name=request.POST.get("name", ""),
            phone=request.POST.get("phone", ""),
            telegram=request.POST.get("telegram", ""),
            of_age=request.POST.get("of_age") == "1",
            actor=request.user,
        )
        return _placed(added)

    # What was typed, as far as each field goes (an input's maxlength: no browser sends more).
    typed = {
        "name": request.POST.get("name", "")[: lineup.GUEST_NAME_MAX],
        "phone": request.POST.get("phone", "")[: lineup.PHONE_MAX],
        "telegram": request.POST.get("telegram", "")[: lineup.TELEGRAM_TYPED_MAX],
        "of_age": "1" if request.POST.get("of_age") == "1" else "",
    }
    return _lineup_action(request, evening_id, "guest", add, typed=typed)


@login_required
@require_POST
def lineup_move(request: MemberRequest, evening_id: int, registration_id: int) -> HttpResponse:
    def move() -> str:
        moved = lineup.lineup_move_to_seat(registration_id=registration_id, actor=request.user)
        if moved.seated:
            return _placed(moved)
        return _(
            "No free seat: %(name)s is first in the reserve now and gets the next free seat."
        ) % {"name": _who(moved.registration)}

    return _lineup_action(request, evening_id, "row", move, registration_id, at="reserve")


@login_required
@require_POST
def lineup_remove(request: MemberRequest, evening_id: int, registration_id: int) -> HttpResponse:
    def remove() -> str:
        removed = lineup.lineup_remove(
            registration_id=registration_id,
            reason=request.POST.get("reason", ""),
            actor=request.user,
        )
        return _removed(removed)

    # The row's list, as the page drew it: where the row is drawn again with the answer.
    at = "reserve" if request.POST.get("list") == "reserve" else "seated"
    return _lineup_action(
        request, evening_id, "row", remove, registration_id, at=at, offer_undo=True
    )


def _restored(restored: lineup.Restored) -> str:
    """Where the undone removal put the place back; if its seat went to the reserve
    meanwhile, that whoever took it keeps it."""
    said = {"name": _who(restored.registration), "place": restored.place}
    if restored.undone_as == lineup.UndoneAs.SEAT:
        return _("Taken back: %(name)s is on the list again, no. %(place)d.") % said
    if restored.undone_as == lineup.UndoneAs.RESERVE_FRONT:
        return (
            _(
                "Taken back, but the seat went to the reserve meanwhile and stays with whoever "
                "took it: %(name)s is first in the reserve and gets the next free seat."
            )
            % said
        )
    return _("Taken back: %(name)s is in the reserve again, position %(place)d.") % said


@login_required
@require_POST
def lineup_remove_undo(
    request: MemberRequest, evening_id: int, registration_id: int
) -> HttpResponse:
    def undo() -> str:
        change_id = whole_number(request.POST.get("change"), low=1)
        if change_id is None:
            raise Refused(_("There is no such removal."), RefusalCode.NOT_FOUND)
        restored = lineup.lineup_remove_undo(
            registration_id=registration_id, change_id=change_id, actor=request.user
        )
        return _restored(restored)

    # Refused, the row (still off the list) is drawn again where the page drew it.
    at = "reserve" if request.POST.get("list") == "reserve" else "seated"
    return _lineup_action(request, evening_id, "row", undo, registration_id, at=at)


@login_required
@require_POST
def lineup_check_in(request: MemberRequest, evening_id: int, registration_id: int) -> HttpResponse:
    def check_in() -> str:
        came = request.POST.get("came", "1") == "1"
        lineup.lineup_check_in(registration_id=registration_id, actor=request.user, came=came)
        return ""  # the row shows the tick

    return _lineup_action(request, evening_id, "row", check_in, registration_id)


@login_required
@require_POST
def lineup_second_table(request: MemberRequest, evening_id: int) -> HttpResponse:
    def open_table() -> str:
        promoted = lineup.evening_open_second_table(evening_id=evening_id, actor=request.user)
        return ngettext(
            "The second table is open: %(n)d moved up from the reserve.",
            "The second table is open: %(n)d moved up from the reserve.",
            len(promoted),
        ) % {"n": len(promoted)}

    return _lineup_action(request, evening_id, "table", open_table)


@login_required
@require_POST
def lineup_message(request: MemberRequest, evening_id: int) -> HttpResponse:
    def send() -> str:
        reach = lineup.evening_message(
            evening_id=evening_id,
            text=request.POST.get("text", ""),
            include_reserve=request.POST.get("reserve") == "1",
            actor=request.user,
        )
        # Queued in the outbox, not delivered yet: «отправляется», never «дошло».
        said = [
            ngettext("Sending to %(n)d member.", "Sending to %(n)d members.", reach.reached)
            % {"n": reach.reached}
        ]
        if reach.unreachable:
            said.append(
                _("No channel to reach: %(names)s.") % {"names": ", ".join(reach.unreachable)}
            )
        if reach.guests:
            said.append(_("Guests (%(n)d) are not reached by this message.") % {"n": reach.guests})
        return " ".join(said)

    typed = {
        "text": request.POST.get("text", "")[: lineup.MAX_MESSAGE],
        "reserve": "1" if request.POST.get("reserve") == "1" else "",
    }
    return _lineup_action(request, evening_id, "message", send, typed=typed)
