"""The club's face: its name and its mark, from the settings row, for the pages' header and
title, the browser tab's icon, the phone's home-screen icon and the web app manifest.

Without an uploaded logo the club's hat (static/club/icon-*.png, drawn from logo.svg) is
the mark. An uploaded logo is shrunk to each icon size here, once per size and logo, and
kept in the cache: the pages ask for small icons on every visit.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from functools import cached_property

from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from PIL import Image, UnidentifiedImageError

from club.kernel.cache import cache_get, cache_set
from club.kernel.clubs import Club

# The sizes the pages and the manifest use: the tab (32), the header's mark (96, for a 48 px
# mark on a 2× screen), Apple's touch icon (180), the manifest's two (192, 512).
ICON_SIZES = (32, 96, 180, 192, 512)
ICON_CACHE_SECONDS = 24 * 3600
THEME_COLOR = "#1a1416"  # the header's colour: the phone's bar matches it


@dataclass(frozen=True)
class Identity:
    settings: Club

    @cached_property
    def name(self) -> str:
        return self.settings.name or _("Mafia club")

    @cached_property
    def _logo_version(self) -> str:
        return _version(self.settings.logo.name or "")

    def icon_url(self, size: int) -> str:
        if not self.settings.logo:
            return static(f"club/icon-{size}.png")
        return f"{reverse('club_icon', args=[size])}?v={self._logo_version}"

    @property
    def favicon(self) -> str:
        return self.icon_url(32)

    @property
    def mark(self) -> str:
        return self.icon_url(96)

    @property
    def touch_icon(self) -> str:
        return self.icon_url(180)

    @property
    def icon_512(self) -> str:
        return self.icon_url(512)

    @property
    def favicon_svg(self) -> str | None:
        """The hat as a vector for the tab, unless the club has a logo of its own."""
        return None if self.settings.logo else static("club/logo.svg")


def _version(logo_name: str) -> str:
    """A short digest of the logo's stored name: a new upload is a new name, so a new
    address for its icons (and a new cache key)."""
    return hashlib.sha256(logo_name.encode()).hexdigest()[:12]


def identity() -> Identity:
    return Identity(Club.current())


def logo_icon_png(size: int) -> bytes | None:
    """The uploaded logo as a size×size PNG (the picture kept whole, centred on a clear
    square), or None when there is no logo or its file cannot be read as a picture."""
    club = Club.current()
    logo = club.logo
    if not logo or size not in ICON_SIZES:
        return None
    # The club's own key: two clubs' logos may come to be stored under one name in turn.
    key = f"club-icon:{club.pk}:{_version(logo.name or '')}:{size}"
    cached = cache_get(key)
    if cached is not None:
        return bytes(cached)
    try:
        with logo.open("rb") as source, Image.open(source) as opened:
            picture = opened.convert("RGBA")
            picture.thumbnail((size, size), Image.Resampling.LANCZOS)
            square = Image.new("RGBA", (size, size), (0, 0, 0, 0))
            square.paste(picture, ((size - picture.width) // 2, (size - picture.height) // 2))
            out = io.BytesIO()
            square.save(out, format="PNG", optimize=True)
    except (OSError, UnidentifiedImageError, Image.DecompressionBombError):
        return None
    png = out.getvalue()
    cache_set(key, png, ICON_CACHE_SECONDS)
    return png
