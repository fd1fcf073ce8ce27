"""The export's links on the pages: a season's, a tournament's and the club's games for
its organisers and admins, a player's games for the player and the organisers
(history/exports/scopes.py says who). `?as=` chooses the file (csv, protocol, exchange);
`?published=1` writes the names as anybody reads them, for a file to send out.

The import of a club's past: the organiser's upload, preview, confirm, progress and undo
(history/imports/services.py), and the claims on the unclaimed players of the records
(«это я»: history/imports/claims.py). Each door asks the role in the club in scope."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import roles
from club.doors.requests import MemberRequest
from club.doors.responses import action_answer, answers_refusals
from club.kernel.errors import RefusalCode, Refused
from club.models import Guest
from history.exports.doors import export_response
from history.exports.scopes import Kind
from history.imports import claims, reading, services
from history.imports.matching import MEMBER, NEW, club_people
from history.models import ClaimStatus, HistoryClaim, HistoryImport, ImportStatus


def _export(request: MemberRequest, kind: Kind, key: str) -> StreamingHttpResponse:
    return export_response(
        kind,
        key,
        request.GET.get("as"),
        request.user,
        published=request.GET.get("published") == "1",
    )


@login_required
@require_GET
@answers_refusals()
def season_export(request: MemberRequest, season: str) -> StreamingHttpResponse | HttpResponse:
    return _export(request, Kind.SEASON, season)


@login_required
@require_GET
@answers_refusals()
def tournament_export(
    request: MemberRequest, tournament_id: int
) -> StreamingHttpResponse | HttpResponse:
    return _export(request, Kind.TOURNAMENT, str(tournament_id))


@login_required
@require_GET
@answers_refusals()
def player_export(request: MemberRequest, member_id: int) -> StreamingHttpResponse | HttpResponse:
    return _export(request, Kind.PLAYER, str(member_id))


@login_required
@require_GET
@answers_refusals()
def club_export(request: MemberRequest) -> StreamingHttpResponse | HttpResponse:
    return _export(request, Kind.CLUB, "")


# The largest file an import reads (the form's limit; club/kernel/bodies.py holds the body).
MAX_UPLOAD = 50 * 1024 * 1024
# The preview lists this many games by date and table; the counts say the rest.
PREVIEW_GAMES = 300
PREVIEW_PROBLEMS = 500


def _refuse_unless_organiser(request: MemberRequest) -> None:
    if not roles.can(request.user, "organise"):
        raise Refused(_("Only the club's organisers import its history."), RefusalCode.FORBIDDEN)


@login_required
@require_http_methods(["GET", "POST"])
@answers_refusals()
def history_import(request: MemberRequest) -> HttpResponse:
    """The upload form and the club's imports; a posted file becomes a preview."""
    _refuse_unless_organiser(request)
    error = ""
    if request.method == "POST":
        try:
            found = _upload(request)
        except Refused as refusal:
            error = refusal.message
        else:
            return redirect("history_import_detail", history_import_id=found.pk)
    # Previews and files being read too: an organiser who left while a large file was
    # read finds it here (a day-old one is dropped, services.previews_drop).
    imports = HistoryImport.objects.select_related("author")
    context = {"imports": imports[:50], "error": error, "most_mb": MAX_UPLOAD // (1024 * 1024)}
    return render(request, "history/upload.html", context, status=422 if error else 200)


def _upload(request: MemberRequest) -> HistoryImport:
    upload = request.FILES.get("file")
    if upload is None or not upload.name:
        raise Refused(_("Choose the file to import."), RefusalCode.INVALID)
    if upload.size is None or upload.size > MAX_UPLOAD:
        raise Refused(
            _("The file is larger than %(most)s MB: split it into smaller ones.")
            % {"most": MAX_UPLOAD // (1024 * 1024)},
            RefusalCode.TOO_LARGE,
        )
    # Django keeps an upload over 2.5 MB in a temporary file; the worker reads its bytes.
    return reading.upload_received(
        author=request.user,
        filename=upload.name,
        data=upload.read(),
        language=translation.get_language() or "",
    )


@login_required
@require_GET
@answers_refusals()
def history_import_detail(request: MemberRequest, history_import_id: int) -> HttpResponse:
    """The preview (games by date and table, problems, names), or the import's progress and
    result; htmx polls the progress part while the worker rebuilds."""
    _refuse_unless_organiser(request)
    found = services.preview_of(history_import_id)
    context: dict[str, object] = {"found": found}
    if request.htmx:
        if found.status in (ImportStatus.PREVIEW, ImportStatus.UNREADABLE):
            # The worker has read the file: the whole page shows the preview now.
            answer = HttpResponse(status=204)
            answer["HX-Refresh"] = "true"
            return answer
        return render(request, "history/import.html#progress", context)
    if found.status == ImportStatus.PREVIEW:
        preview = services.import_preview(found, limit=PREVIEW_GAMES)
        context |= {
            "preview": preview,
            "problems": preview.problems[:PREVIEW_PROBLEMS],
            "people": club_people(),
            "new_choice": NEW,
            "member_choice": MEMBER,
            "listed": sum(len(games) for _day, _table, games in preview.by_date),
            "games_total": len(found.records),
        }
    return render(request, "history/import.html", context)


@login_required
@require_POST
@answers_refusals(lambda history_import_id: _detail(history_import_id))
def history_import_confirm(request: MemberRequest, history_import_id: int) -> HttpResponse:
    _refuse_unless_organiser(request)
    choices = {
        key.removeprefix("name:"): value
        for key in request.POST
        if key.startswith("name:")
        and isinstance(value := request.POST.get(key, ""), str)
        and (value == NEW or value.startswith(MEMBER))
    }
    services.confirm_asked(
        history_import_id=history_import_id,
        actor=request.user,
        choices=choices,
        language=translation.get_language() or "",
    )
    return action_answer(
        request,
        refusal=None,
        done=_("Import confirmed: the games are being created."),
        back=_detail(history_import_id),
    )


@login_required
@require_POST
@answers_refusals(lambda history_import_id: _detail(history_import_id))
def history_import_undo(request: MemberRequest, history_import_id: int) -> HttpResponse:
    _refuse_unless_organiser(request)
    services.import_undo(history_import_id=history_import_id)
    return action_answer(
        request,
        refusal=None,
        done=_("The import is being undone."),
        back=_detail(history_import_id),
    )


def _detail(history_import_id: int) -> str:
    return reverse("history_import_detail", args=[history_import_id])


def _refuse_unless_member(request: MemberRequest) -> None:
    if not roles.club_members().filter(pk=request.user.pk).exists() and not roles.can(
        request.user, "organise"
    ):
        raise Refused(_("The club's records are open to its members only."), RefusalCode.FORBIDDEN)


@login_required
@require_GET
@answers_refusals()
def history_players(request: MemberRequest) -> HttpResponse:
    """The unclaimed players of the club's records, for its members (a roster, not a
    publication: only the club's members read it), each with «это я»."""
    _refuse_unless_member(request)
    players = (
        Guest.objects.filter(from_history=True, member__isnull=True)
        .annotate(games=Count("game_seats"))
        .order_by("name", "pk")
    )
    mine = set(
        HistoryClaim.objects.filter(member=request.user, status=ClaimStatus.PENDING).values_list(
            "guest_id", flat=True
        )
    )
    context = {
        "players": players,
        "mine": mine,
        "organiser": roles.can(request.user, "organise"),
    }
    return render(request, "history/players.html", context)


@login_required
@require_POST
@answers_refusals(lambda guest_id: reverse("history_players"))
def history_claim(request: MemberRequest, guest_id: int) -> HttpResponse:
    claims.claim_request(guest_id=guest_id, member=request.user)
    return action_answer(
        request,
        refusal=None,
        done=_("Your claim is sent: the organiser will approve or refuse it."),
        back=reverse("history_players"),
    )


@login_required
@require_GET
@answers_refusals()
def history_claims(request: MemberRequest) -> HttpResponse:
    """The organiser's claims to decide, and the latest decided."""
    _refuse_unless_organiser(request)
    rows = HistoryClaim.objects.select_related("guest", "member").annotate(
        games=Count("guest__game_seats")
    )
    context = {
        "pending": rows.filter(status=ClaimStatus.PENDING),
        "decided": rows.exclude(status=ClaimStatus.PENDING)[:30],
    }
    return render(request, "history/claims.html", context)


@login_required
@require_POST
@answers_refusals(lambda claim_id, decision: reverse("history_claims"))
def history_claim_decide(request: MemberRequest, claim_id: int, decision: str) -> HttpResponse:
    _refuse_unless_organiser(request)
    claims.claim_decide(claim_id=claim_id, actor=request.user, approve=decision == "approve")
    done = _("Claim approved.") if decision == "approve" else _("Claim refused.")
    return action_answer(request, refusal=None, done=done, back=reverse("history_claims"))
