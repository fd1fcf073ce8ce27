"""/api/v1/evenings: the same services as the evening page and the bot."""

from datetime import datetime

from django.utils.translation import gettext as _
from ninja import Field, Router, Schema, Status

from accounts import roles
from club import queries, services
from club.doors.requests import ApiRequest
from club.kernel.errors import RefusalCode, Refused
from club.kernel.parsing import Moment
from club.kernel.schemas import ERRORS
from club.models import Evening, RegistrationSource, RegistrationStatus

router = Router(tags=["evenings"])


class EveningOut(Schema):
    id: int
    starts_at: datetime
    venue: str
    capacity: int
    status: str
    opens_at: datetime


class EveningListItem(EveningOut):
    confirmed_count: int


class EveningDetail(EveningOut):
    confirmed: list[str]
    reserve: list[str]


class EveningIn(Schema):
    starts_at: Moment
    # strict: a number, not true (pydantic's lax mode reads it as 1) nor a text.
    capacity: int = Field(..., ge=1, le=services.MAX_CAPACITY, strict=True)
    venue: str | None = Field(None, min_length=1, max_length=128)
    opens_at: Moment | None = None


class RegistrationOut(Schema):
    status: str
    position: int | None
    seat: int | None


class CancelledOut(Schema):
    status: str


class AttendanceOut(Schema):
    status: str
    attendance_confirmed_at: datetime


def _evening(evening_id: int) -> Evening:
    evening = Evening.objects.filter(pk=evening_id).first()
    if evening is None:
        raise Refused(_("There is no such evening."), RefusalCode.NOT_FOUND)
    return evening


def _out(evening: Evening) -> EveningOut:
    return EveningOut.model_validate(evening)


@router.get("/evenings", response={200: list[EveningListItem], **ERRORS})
def evening_list(request: ApiRequest) -> list[EveningListItem]:
    return [EveningListItem.model_validate(e) for e in queries.upcoming_evenings()[:100]]


@router.post(
    "/evenings",
    response={201: EveningOut, **ERRORS},
)
def evening_create(request: ApiRequest, payload: EveningIn) -> Status[EveningOut]:
    if not roles.can(request.auth, "organise"):
        raise Refused(_("Only the club's admins can create evenings."), RefusalCode.FORBIDDEN)
    evening = services.evening_create(**payload.dict())
    return Status(201, _out(evening))


@router.get("/evenings/{evening_id}", response={200: EveningDetail, **ERRORS})
def evening_detail(request: ApiRequest, evening_id: int) -> EveningDetail:
    evening = _evening(evening_id)
    lineup = queries.evening_lineup(evening)
    return EveningDetail(
        **_out(evening).model_dump(),
        confirmed=[r.listed_name for r in lineup.confirmed],
        reserve=[r.listed_name for r in lineup.reserve],
    )


@router.post(
    "/evenings/{evening_id}/registration",
    response={200: RegistrationOut, 201: RegistrationOut, **ERRORS},
)
def registration_create(request: ApiRequest, evening_id: int) -> Status[RegistrationOut]:
    result = services.registration_create(
        member=request.auth, evening_id=evening_id, source=RegistrationSource.API
    )
    body = RegistrationOut(
        status=result.registration.status, position=result.position, seat=result.seat
    )
    return Status(201 if result.created else 200, body)


@router.delete(
    "/evenings/{evening_id}/registration",
    response={200: CancelledOut, **ERRORS},
)
def registration_cancel(request: ApiRequest, evening_id: int) -> CancelledOut:
    services.registration_cancel(member=request.auth, evening_id=evening_id)
    return CancelledOut(status=RegistrationStatus.CANCELLED)


@router.post(
    "/evenings/{evening_id}/registration/confirm",
    response={200: AttendanceOut, **ERRORS},
)
def registration_confirm(request: ApiRequest, evening_id: int) -> AttendanceOut:
    registration = services.registration_confirm_attendance(
        member=request.auth, evening_id=evening_id
    )
    assert registration.attendance_confirmed_at is not None  # the service has set it
    return AttendanceOut(
        status=registration.status,
        attendance_confirmed_at=registration.attendance_confirmed_at,
    )
