from typing import Any

from django.contrib.auth.backends import BaseBackend, ModelBackend
from django.http import HttpRequest

from accounts import roles
from accounts.models import User
from club.kernel import tenancy

_PERMS_CACHE = "_club_role_perms"


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

    def user_can_authenticate(self, user: Any) -> bool:
        """Also not banned by the club in scope (accounts.roles.may_log_in): at the login
        and on every request, as Django asks it of the session's member."""
        if not super().user_can_authenticate(user):
            return False
        try:
            return roles.may_log_in(user)
        except tenancy.NoClubInScope:
            return True


class ClubRoleBackend(BaseBackend):
    """Django's permissions from the member's role in the club in scope
    (accounts.roles.role_permissions): what makes `has_perm` and the admin's
    permission checks answer per club. It authenticates nobody."""

    def get_user_permissions(self, user_obj: Any, obj: Any = None) -> set[str]:
        if not isinstance(user_obj, User) or not user_obj.is_active or obj is not None:
            return set()
        try:
            club_id = tenancy.current_club_id()
        except tenancy.NoClubInScope:
            return set()
        cache: dict[int, frozenset[str]] = user_obj.__dict__.setdefault(_PERMS_CACHE, {})
        if club_id not in cache:
            cache[club_id] = roles.role_permissions(roles.club_role(user_obj, club_id))
        return set(cache[club_id])

    def get_all_permissions(self, user_obj: Any, obj: Any = None) -> set[str]:
        return self.get_user_permissions(user_obj, obj)

    def has_module_perms(self, user_obj: Any, app_label: str) -> bool:
        """Whether the role gives any permission in `app_label`: the admin's index and
        sidebar list an app's models only when this (or another backend) says yes."""
        prefix = f"{app_label}."
        return any(name.startswith(prefix) for name in self.get_all_permissions(user_obj))
