from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest

from accounts.models import User


class NicknameOrEmailBackend(ModelBackend):
    """Log in with the nickname or the email, in any letter case."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> User | None:
        if username is None or password is None:
            return None
        user = User.objects.by_login(username)
        if user is None:
            # Spend the time a password check takes, so timing does not reveal members.
            User().set_password(password)
            return None
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        return None
