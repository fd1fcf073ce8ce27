from datetime import date

from ninja import Router, Schema

from accounts import roles
from club.doors.requests import ApiRequest
from club.kernel.schemas import ERRORS

router = Router(tags=["members"])


class MemberOut(Schema):
    id: int
    nickname: str
    birth_date: date
    telegram_username: str
    telegram_linked: bool
    publication_consent: bool
    status: str


@router.get("/me", response={200: MemberOut, **ERRORS}, summary="The member making the call")
def me(request: ApiRequest) -> MemberOut:
    member = request.auth
    return MemberOut(
        id=member.pk,
        nickname=member.nickname,
        birth_date=member.birth_date,
        telegram_username=member.telegram_username,
        telegram_linked=member.telegram_id is not None,
        publication_consent=roles.consents_in(member),
        status=roles.status_in(member),
    )
