from django.conf import settings
from django.http import HttpRequest


def club(request: HttpRequest) -> dict[str, object]:
    return {"telegram_console_mode": settings.TELEGRAM_CONSOLE_MODE}
