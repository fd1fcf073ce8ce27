"""The recording's part of a game page, for its host and admins: status, upload (the
plain form's whole file; the page's script uploads in chunks through the API), playback
with seeking, and early deletion."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club.doors.requests import MemberRequest, SiteRequest
from club.doors.responses import action_answer, answers_refusals
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import parse_moment, whole_number
from games.models import Game
from games.recordings import services as recordings
from games.recordings.audio.offset import SEARCH_SECONDS, SURE
from games.recordings.models import Recording, RecordingStatus


def _back(game_id: int, **_view_kwargs: object) -> str:
    """Where a refused plain post returns to, with the message: the recording's page."""
    return _page(game_id)


def _recording_context(request: SiteRequest, game_id: int) -> dict[str, Any]:
    game = get_object_or_404(Game, pk=game_id)
    recordings.refuse_unless_keeper(request.user, game)
    return recording_part(game)


def recording_part(game: Any) -> dict[str, Any]:
    club = Club.current()
    recording = Recording.objects.current().filter(game=game).first()
    replacement = Recording.objects.filter(game=game, replacement=True).first()
    nick = dict(game.seats.values_list("number", "member__nickname"))
    suggestions = [
        {
            "row": s,
            "nick": nick.get(s.seat, ""),
            "during_nick": nick.get(s.during, ""),
            # Played from a second before the stretch, so its first words are heard.
            "listen_from": max(0, int(s.start) - 1),
            "at": _clock(s.start),
        }
        for s in (recording.suggestions.all() if recording else [])
    ]
    return {
        "game": game,
        "recording": recording,
        "replacement": replacement,
        "start": _start_part(recording, club) if recording else None,
        "suggestions": suggestions,
        "chunk_bytes": recordings.CHUNK_BYTES,
        "retention_days": club.audio_retention_days,
        "started_default": timezone.localtime(game.started_at, club.zone).strftime(
            "%Y-%m-%dT%H:%M:%S"
        ),
        # The field shows the club's wall clock; the page's script sends it with the club's
        # offset, never read in the phone's own zone (a phone set elsewhere moved it hours).
        "zone_offset": timezone.localtime(game.started_at, club.zone).isoformat()[-6:],
    }


def _start_part(recording: Recording, club: Club) -> dict[str, Any] | None:
    """What the page says of the recording's start (services.start_report), in words."""
    report = recordings.start_report(recording)
    if report is None:
        return None

    def clock(moment: datetime) -> str:
        return timezone.localtime(moment, club.zone).strftime("%H:%M:%S")

    after_game = report.after_game_start
    pause = report.pause
    return {
        "report": report,
        "sound_clock": clock(report.sound_at),
        "given_clock": clock(report.given_at),
        # Within a second of the game's start: "with" it.
        "game_relation": "with" if abs(after_game) < 1 else "after" if after_game > 0 else "before",
        "game_span": recordings.span_text(after_game),
        "given_relation": "later" if report.offset_seconds > 0 else "earlier",
        "given_span": recordings.span_text(report.offset_seconds),
        # The offset the page shows, in tenths of a second: the door refuses if it changed.
        "tenths": round(report.offset_seconds * 10),
        "needed": SURE,
        "pause_at": _clock(pause["at"]) if pause else "",
        "pause_span": recordings.span_text(pause["seconds"]) if pause else "",
    }


@login_required
@require_http_methods(["GET", "POST"])
@answers_refusals(back=_back)
def game_recording(request: MemberRequest, game_id: int) -> HttpResponse:
    """GET: the recording's status (htmx polls it while the analysis runs). POST: the
    plain form's upload of the whole file (the page's script uploads in chunks instead)."""
    context = _recording_context(request, game_id)
    if request.method == "GET":
        if request.htmx:
            return render(request, "games/_recording.html", context)
        return render(request, "games/recording.html", context)
    upload = request.FILES.get("file")
    if upload is None:
        raise Refused(_("Choose the recording's file."), RefusalCode.INVALID)
    stored = recordings.recording_store_whole(
        game_id=game_id,
        user=request.user,
        upload=upload,
        started_at=_started_at(request.POST.get("started_at")),
    )
    if stored.status == RecordingStatus.FAILED:
        raise Refused(
            stored.error, RefusalCode.INVALID
        )  # unreadable or too long: the upload says why
    done = _("The recording is uploaded; its analysis follows.")
    return action_answer(request, refusal=None, done=done, back=_page(game_id))


def _started_at(raw: str | None) -> datetime | None:
    """The form's local "when the recording started", in the club's time zone."""
    if not raw:
        return None
    moment = parse_moment(raw, zone=Club.current().zone)
    if moment is None:
        raise Refused(_("Give the start as a date and a time."), RefusalCode.INVALID)
    return moment


@login_required
@require_GET
@answers_refusals()
def game_recording_file(request: MemberRequest, game_id: int) -> HttpResponseBase:
    recording = _recording_context(request, game_id)["recording"]
    if recording is None:
        raise Refused(_("There is no such recording."), RefusalCode.NOT_FOUND)
    download = recordings.recording_open(recording_id=recording.pk, user=request.user)
    return _ranged(request, download.file, download.size, download.name)


RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
RANGE_CHUNK = 64 * 1024


def _ranged(request: SiteRequest, file: Any, size: int, name: str) -> HttpResponseBase:
    """The file, or the byte range the browser's player asks for to seek (RFC 9110)."""
    wanted = RANGE.match(request.headers.get("Range", "").strip())
    if wanted is None or wanted.groups() == ("", ""):
        whole = FileResponse(file, filename=name)
        whole["Accept-Ranges"] = "bytes"
        return whole
    first, last = wanted.groups()
    if first:
        start, end = int(first), min(int(last) if last else size - 1, size - 1)
    else:  # the last N bytes
        start, end = max(0, size - int(last)), size - 1
    if start > end or start >= size:
        file.close()
        unsatisfiable = HttpResponse(status=416)
        unsatisfiable["Content-Range"] = f"bytes */{size}"
        return unsatisfiable
    file.seek(start)

    def body() -> Any:
        left = end - start + 1
        try:
            while left > 0:
                piece = file.read(min(RANGE_CHUNK, left))
                if not piece:
                    return
                left -= len(piece)
                yield piece
        finally:
            file.close()

    part = StreamingHttpResponse(body(), status=206, content_type="application/octet-stream")
    part["Content-Range"] = f"bytes {start}-{end}/{size}"
    part["Content-Length"] = str(end - start + 1)
    part["Accept-Ranges"] = "bytes"
    return part


@login_required
@require_POST
@answers_refusals(back=_back)
def game_recording_delete(request: MemberRequest, game_id: int) -> HttpResponse:
    recording = _recording_context(request, game_id)["recording"]
    if recording is None:
        raise Refused(_("There is no such recording."), RefusalCode.NOT_FOUND)
    if request.POST.get("confirm") != "yes":
        # One tap must not destroy it: the page's button asks first.
        raise Refused(_("Confirm that the recording is to be deleted."), RefusalCode.CONFIRM)
    recordings.recording_delete(recording_id=recording.pk, user=request.user)
    done = _("The recording is deleted.")
    return action_answer(request, refusal=None, done=done, back=_page(game_id))


@login_required
@require_POST
@answers_refusals(back=_back)
def game_recording_suggestion(
    request: MemberRequest, game_id: int, suggestion_id: int
) -> HttpResponse:
    """The host accepts a suggested foul (a foul in the log) or dismisses it."""
    _recording_context(request, game_id)  # the host's or an admin's, or 403
    refusal = None
    decision = request.POST.get("decision")
    accept = decision == "accept"
    try:
        if decision not in ("accept", "dismiss"):
            raise Refused(
                _("The page sent no decision: reload it and try again."), RefusalCode.INVALID
            )
        recordings.suggestion_decide(
            suggestion_id=suggestion_id, user=request.user, accept=accept, game_id=game_id
        )
    except Refused as refused:
        refusal = refused
    done = _("The foul is given.") if accept else _("The suggestion is dismissed.")
    return action_answer(
        request, refusal=refusal, done=done, back=_page(game_id), part=_section(request, game_id)
    )


@login_required
@require_POST
@answers_refusals(back=_back)
def game_recording_start(request: MemberRequest, game_id: int) -> HttpResponse:
    """The host takes the recording's start the sound found (the one given does not fit
    it), and the recording is analysed again with it."""
    recording = _recording_context(request, game_id)["recording"]  # the host's, or 403
    if recording is None:
        raise Refused(_("There is no such recording."), RefusalCode.NOT_FOUND)
    tenths = whole_number(request.POST.get("offset"), low=-MAX_TENTHS, high=MAX_TENTHS)
    refusal = None
    try:
        if tenths is None:
            raise Refused(
                _("The page sent no start by the sound: reload it and try again."),
                RefusalCode.INVALID,
            )
        recordings.recording_use_sound_start(
            recording_id=recording.pk, user=request.user, offset_seen=tenths / 10
        )
    except Refused as refused:  # said in the section the page swaps in, not on a later page
        refusal = refused
    done = _("The start by the sound is taken; the recording is being analysed again.")
    return action_answer(
        request, refusal=refusal, done=done, back=_page(game_id), part=_section(request, game_id)
    )


def _section(
    request: MemberRequest, game_id: int
) -> Callable[[str | None, str | None], HttpResponse]:
    """The recording's section with an action's error or outcome, for htmx to swap in."""

    def part(error: str | None, outcome: str | None) -> HttpResponse:
        context = _recording_context(request, game_id) | {"error": error, "outcome": outcome}
        return render(request, "games/_recording.html", context)

    return part


# The offsets the analysis searches (audio/offset.SEARCH_SECONDS), in tenths of a second.
MAX_TENTHS = round(SEARCH_SECONDS * 10)


def _clock(seconds: float) -> str:
    """A moment of the recording as the player shows it: 4:20, 1:02:05."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def _page(game_id: int) -> str:
    """The recording's own page: the host reaches it from the table screen's menu."""
    return reverse("game_recording", args=[game_id])
