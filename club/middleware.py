from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


class ClubLocaleMiddleware(LocaleMiddleware):
    """Russian unless the member chose otherwise with the language switch (a cookie).

    Django's own middleware would follow the browser's Accept-Language, which would show
    English to many Russian-speaking members whose phones are set to English.
    """

    def process_request(self, request: HttpRequest) -> None:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        supported = {code for code, _name in settings.LANGUAGES}
        language = chosen if chosen in supported else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
