"""/api/v1/games/{id}/producer-links: a game's producer links through the API, made, listed
and revoked by the same service as on the game's page (live/links.py), for whoever runs the
game; refusals in the API's error body. The key is in the answer that makes it, never again."""

from __future__ import annotations

from datetime import datetime

from django.urls import reverse
from ninja import Field, Router, Schema, Status

from club.doors.requests import ApiRequest
from club.kernel.schemas import ERRORS, ObjectBody
from live.links import link_make, link_revoke, producer_link_of, producer_links_listed
from live.models import LinkKind, LiveLink

router = Router(tags=["live"])


class ProducerLinkIn(ObjectBody):
    # Strict as tournaments/api.py's numbers: true is no delay of 1 s, "20" no number.
    delay_seconds: int = Field(0, strict=True)  # 0–600: the service refuses what is outside
    label: str = Field("", strict=True)


class ProducerLinkOut(Schema):
    id: int
    key_start: str
    delay_seconds: int
    label: str
    made_by: str | None
    made_at: datetime
    revoked_at: datetime | None
    uses: int
    last_use: datetime | None


class ProducerLinkMade(ProducerLinkOut):
    key: str  # shown once
    url: str


def _out(link: LiveLink) -> ProducerLinkOut:
    return ProducerLinkOut(
        id=link.pk,
        key_start=link.key_start,
        delay_seconds=link.delay_seconds,
        label=link.label,
        made_by=link.created_by.nickname if link.created_by else None,
        made_at=link.created_at,
        revoked_at=link.revoked_at,
        uses=getattr(link, "use_count", 0),
        last_use=getattr(link, "last_use", None),
    )


@router.get("/games/{game_id}/producer-links", response={200: list[ProducerLinkOut], **ERRORS})
def producer_links(request: ApiRequest, game_id: int) -> list[ProducerLinkOut]:
    """The game's producer links, the newest first, with their uses."""
    return [_out(link) for link in producer_links_listed(author=request.auth, game_id=game_id)]


@router.post("/games/{game_id}/producer-links", response={201: ProducerLinkMade, **ERRORS})
def producer_link_make(
    request: ApiRequest, game_id: int, payload: ProducerLinkIn
) -> Status[ProducerLinkMade]:
    """A new producer's link to the game, delayed by `delay_seconds`; its key is shown here
    once (only its hash is kept)."""
    link, key = link_make(
        author=request.auth,
        kind=LinkKind.PRODUCER,
        game_id=game_id,
        delay_seconds=payload.delay_seconds,
        label=payload.label,
    )
    made = _out(link)
    url = request.build_absolute_uri(reverse("live_producer", args=[key]))
    return Status(201, ProducerLinkMade(**made.model_dump(), key=key, url=url))


@router.delete(
    "/games/{game_id}/producer-links/{link_id}", response={200: ProducerLinkOut, **ERRORS}
)
def producer_link_revoke(request: ApiRequest, game_id: int, link_id: int) -> ProducerLinkOut:
    """Revoke a producer's link of the game: it answers «not found» from now on."""
    producer_link_of(game_id=game_id, link_id=link_id)
    return _out(link_revoke(author=request.auth, link_id=link_id))
