"""Writes on members: sign-up, status changes, API tokens, Telegram linking."""

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import roles
from accounts.age import is_of_age
from accounts.languages import language_or_club, supported_language
from accounts.lookalikes import lookalike_key
from accounts.models import (
    ApiToken,
    Membership,
    MembershipStatus,
    NotifyBy,
    Role,
    UsedSignature,
    User,
)
from accounts.telegram_login import TelegramIdentity
from accounts.telegram_webapp import MiniAppLaunch
from accounts.validation import (
    identifier_fold,
    login_key,
    normalize_nickname,
    validate_birth_date,
    validate_nickname,
)
from club.kernel import tenancy
from club.kernel.clubs import Club
from club.kernel.errors import RefusalCode, Refused
from club.kernel.queueing import queue_on_commit

# What every door tells a banned member (the login form, the API, the bot).
BLOCKED = gettext_lazy("This account is blocked.")


def refuse_unless_usable(member: User, club: Club | None = None) -> None:
    """A banned member's account does nothing in the club that banned them (`club`, the
    club in scope by default), at any door (web, API, bot); an account the platform
    closed (is_active off) does nothing anywhere."""
    if not member.is_active or roles.status_in(member, club) == MembershipStatus.BANNED:
        raise Refused(BLOCKED, RefusalCode.BANNED)


def refuse_unless_active(member: User, club: Club | None = None) -> None:
    """Signing up, playing and hosting are for active members of the club (`club`, the
    club in scope by default): a member suspended there may log in and look around, and
    change their own settings, but not take part; another club's suspension is not its."""
    refuse_unless_usable(member, club)
    if roles.status_in(member, club) == MembershipStatus.SUSPENDED:
        raise Refused(
            _("Your membership is suspended: sign-up is not available."), RefusalCode.SUSPENDED
        )


def login_lock_key(login: str) -> str:
    """What a failed login counts against: the account the login names, whichever of its
    logins was typed (the nickname or the email, in any case, or any spelling the database
    matches to them, such as a dotless «ı» in the email on PostgreSQL), so its lock holds
    at every one of them; a login that names no account counts as its folded string."""
    member = User.objects.by_login(login)
    if member is not None:
        return f"member:{member.pk}"
    return f"login:{identifier_fold(login)}"


def member_is_of_age(*, member: User, on: date, club: Club | None = None) -> bool:
    """Whether the member has the club's minimum age on date `on` (an evening's date)."""
    club = club or Club.current()
    return is_of_age(member.birth_date, on, club.min_age)


def refuse_unless_may_play(member: User, *, on: date, club: Club) -> None:
    """The one rule for a seat at a table, live or online: an active member who has the
    club's age on the game's date. The message names the member, for the one who seats them."""
    # The codes are the sign-up's for the same facts (refuse_unless_active, the evening's
    # age check): a door or a client reads one reason whoever asked.
    status = roles.status_in(member, club)
    if status != MembershipStatus.ACTIVE or not member.is_active:
        raise Refused(
            _("%(nick)s is suspended and cannot play.") % {"nick": member.nickname},
            RefusalCode.SUSPENDED
            if status == MembershipStatus.SUSPENDED and member.is_active
            else RefusalCode.BANNED,
        )
    if not member_is_of_age(member=member, on=on, club=club):
        raise Refused(
            _("%(nick)s is under %(age)d on the game's date.")
            % {"nick": member.nickname, "age": club.min_age},
            RefusalCode.UNDERAGE,
        )


def _fields_refused(problems: Mapping[str, list[str]]) -> Refused:
    """A refusal of a form's fields: every message, and each under its field (`fields`), so a
    form shows each beside its input and the bot or the API says them all."""
    messages = [message for field in problems.values() for message in field]
    return Refused(" ".join(messages), RefusalCode.INVALID, fields=dict(problems))


def _field_refused(field: str, error: ValidationError) -> Refused:
    """A validator's ValidationError (accounts/validation.py) as the service's refusal."""
    return _fields_refused({field: list(error.messages)})


def refusal_fields(refusal: Refused) -> dict[str, list[str]]:
    """The refused fields' messages, for a form that shows each beside its input."""
    fields = refusal.details.get("fields")
    return dict(fields) if isinstance(fields, dict) else {}


def nickname_clean(raw: str, *, exclude_member_id: int | None = None) -> str:
    """The normalized nickname, or a refusal (its `fields` name "nickname") if it is
    malformed, taken, or looks like a member's nickname (accounts.lookalikes): the one rule
    of every door that names a member (the sign-up page, the bot, the Mini App, the admin)."""
    nickname = normalize_nickname(raw)
    try:
        validate_nickname(nickname)
    except ValidationError as error:
        raise _field_refused("nickname", error) from error
    others = User.objects.exclude(pk=exclude_member_id) if exclude_member_id else User.objects
    if others.filter(nickname_key=login_key(nickname)).exists():
        raise _fields_refused({"nickname": [_("This nickname is taken.")]})
    lookalike = (
        others.filter(nickname_skeleton=lookalike_key(nickname))
        .order_by("date_joined", "pk")
        .values_list("nickname", flat=True)
        .first()
    )
    if lookalike is not None:
        looks_like = _(
            "This nickname looks like «%(nickname)s», a member's nickname: please choose another."
        )
        raise _fields_refused({"nickname": [looks_like % {"nickname": lookalike}]})
    return nickname


def email_clean(raw: str, *, exclude_member_id: int | None = None) -> str:
    email = raw.strip()
    if not email:
        return ""
    taken = User.objects.with_email(email)
    if exclude_member_id is not None:
        taken = taken.exclude(pk=exclude_member_id)
    if taken.exists():
        raise _fields_refused({"email": [_("A member with this email already exists.")]})
    return email


def birth_date_clean(birth_date: date, *, club: Club | None = None) -> date:
    """The birth date of someone old enough today, in the club's time zone."""
    club = club or Club.current()
    try:
        validate_birth_date(birth_date, today=club.today(), minimum_age=club.min_age)
    except ValidationError as error:
        raise _field_refused("birth_date", error) from error
    return birth_date


def _names_clean(*, nickname: str, email: str) -> dict[str, str]:
    """The nickname and the email, cleaned; one refusal naming every field that fails."""
    errors: dict[str, list[str]] = {}
    cleaned: dict[str, str] = {}
    checks: tuple[tuple[str, Callable[[], str]], ...] = (
        ("nickname", lambda: nickname_clean(nickname)),
        ("email", lambda: email_clean(email)),
    )
    for field, clean in checks:
        try:
            cleaned[field] = clean()
        except Refused as refusal:
            errors.update(refusal_fields(refusal))
    if errors:
        raise _fields_refused(errors)
    return cleaned


@transaction.atomic
def member_sign_up(
    *,
    nickname: str,
    birth_date: date,
    password: str | None,
    email: str = "",
    telegram_id: int | None = None,
    telegram_username: str = "",
    language: str = "",
) -> User:
    """Create a member after every check; nothing is stored when one fails. `language`:
    the one the door learnt (the page's, the Mini App's, Telegram's), the club's when the
    site does not speak it; an automatic one, which the member may change."""
    club = Club.current()
    errors: dict[str, list[str]] = {}
    cleaned: dict[str, str] = {}
    try:
        cleaned = _names_clean(nickname=nickname, email=email)
    except Refused as refusal:
        errors.update(refusal_fields(refusal))
    try:
        birth_date_clean(birth_date, club=club)
    except Refused as refusal:
        errors.update(refusal_fields(refusal))
    if errors:
        raise _fields_refused(errors)
    member = User(
        nickname=cleaned["nickname"],
        email=cleaned["email"],
        birth_date=birth_date,
        telegram_id=telegram_id,
        telegram_username=telegram_username,
        language=language_or_club(language),
    )
    member.set_password(password)
    try:
        # A savepoint: a sign-up racing ours fails cleanly here, and the database's unique
        # indexes (the nickname in any case, its look-alikes, the email) make sure it does.
        with transaction.atomic():
            member.save()
    except IntegrityError as error:
        # The rival has committed by now: the checks, run again, say what it took.
        _names_clean(nickname=nickname, email=email)
        raise _fields_refused({"nickname": [_("This nickname is taken.")]}) from error
    member_join_club(member=member, club=club)
    return member


def member_set_reminders(*, member: User, reminders: bool) -> User:
    member.reminders = reminders
    member.save(update_fields=["reminders"])
    return member


def member_set_notify_by(*, member: User, notify_by: NotifyBy) -> User:
    """How the club tells the member of their seats and evenings: by Telegram when linked
    and email otherwise (auto), by one of the two only, or by both
    (notifications/channels.py reads it when each message is written)."""
    member.notify_by = notify_by
    member.save(update_fields=["notify_by"])
    return member


def member_set_game_reports(*, member: User, on: bool) -> User:
    """A personal report after each game, or none (games/ratings/reports.py writes them, in
    the member's language). Choosing either way also counts as the bot's one offer
    answered, so the bot never asks a member who has chosen."""
    member.game_reports = on
    member.game_reports_offered_at = member.game_reports_offered_at or timezone.now()
    member.save(update_fields=["game_reports", "game_reports_offered_at"])
    return member


def member_choose_language(*, member: User, language: str) -> User:
    """The member's (or the admin's) choice of the language the club writes to them in:
    it stands over every automatic one from then on (member_learn_language). A language
    the site does not speak is refused, and nothing changes."""
    chosen = supported_language(language)
    if chosen is None:
        raise Refused(
            _("Choose a language from the list."), RefusalCode.INVALID, fields={"language": 1}
        )
    member.language, member.language_chosen = chosen, True
    member.save(update_fields=["language", "language_chosen"])
    return member


def member_learn_language(*, member: User, language: str) -> User:
    """A language a door learnt of the member by itself (the Mini App's launch, Telegram's
    `language_code` at linking): it becomes theirs unless they chose one
    (member_choose_language); one the site does not speak counts as the club's."""
    learnt = language_or_club(language)
    if member.language_chosen or member.language == learnt:
        return member
    changed = User.objects.filter(pk=member.pk, language_chosen=False).update(language=learnt)
    if changed:
        member.language = learnt
    return member


def _membership_for_write(member: User, club: Club | None) -> Membership:
    """The member's row in `club` (the club in scope by default), locked; made when the
    club writes on a member who never joined it (a visitor it suspends, say)."""
    club_id = club.pk if club is not None else Club.current().pk
    Membership.objects.get_or_create(user=member, club_id=club_id)
    roles.forget_memberships(member)
    return Membership.objects.select_for_update().get(user=member, club_id=club_id)


def member_join_club(*, member: User, club: Club | None = None) -> Membership:
    """The member joins `club` (the club in scope by default): signing up on its site, in
    its bot or its Mini App, or coming back after leaving (the standing they left with
    stays: a ban outlives a leave). Joining twice changes nothing (and writes nothing)."""
    found = roles.membership_in(member, club)
    if found is not None and found.left_at is None:
        return found
    with transaction.atomic():
        membership = _membership_for_write(member, club)
        if membership.left_at is not None:
            membership.left_at = None
            membership.joined_at = timezone.now()
            membership.save(update_fields=["left_at", "joined_at"])
    roles.forget_memberships(member)
    return membership


@transaction.atomic
def member_leave_club(*, member: User, club: Club) -> Membership:
    """The member leaves `club`: they are no longer its member, lose its role (a return
    starts as a plain member) and its staff's admin access if it was their only club."""
    membership = _membership_for_write(member, club)
    if membership.left_at is None:
        membership.left_at = timezone.now()
        membership.role = Role.MEMBER
        membership.save(update_fields=["left_at", "role"])
    roles.forget_memberships(member)
    roles.sync_staff(member)
    return membership


@transaction.atomic
def member_set_role(*, member: User, role: Role, club: Club | None = None) -> Membership:
    """The member's role in `club` (the club in scope by default); Django's is_staff
    follows (accounts.roles.sync_staff), so an organiser can log into the admin."""
    membership = _membership_for_write(member, club)
    if membership.left_at is not None:
        membership.left_at = None
        membership.joined_at = timezone.now()
    membership.role = role
    membership.save(update_fields=["role", "left_at", "joined_at"])
    roles.forget_memberships(member)
    roles.sync_staff(member)
    return membership


@transaction.atomic
def member_set_status(
    *, member: User, status: MembershipStatus, reason: str = "", club: Club | None = None
) -> User:
    """The member's standing in `club` (the club in scope by default), and why: a
    suspension or a ban there says nothing about their other clubs. The User's own
    status is the platform's (an account closed everywhere) and is not this."""
    membership = _membership_for_write(member, club)
    membership.status = status
    membership.status_reason = reason[:255]
    membership.status_changed_at = timezone.now()
    membership.save(update_fields=["status", "status_reason", "status_changed_at"])
    roles.forget_memberships(member)
    roles.sync_staff(member)
    return member


def member_set_publication_consent(
    *, member: User, consent: bool, club: Club | None = None
) -> User:
    """The member's consent to publication in `club` (the club in scope by default). Pages
    read the consent as they render; the club's earlier group posts are edited to match
    once this commits (RULES.md §C)."""
    club = club or Club.current()
    with transaction.atomic():
        membership = _membership_for_write(member, club)
        changed = membership.publication_consent != consent
        membership.publication_consent = consent
        membership.save(update_fields=["publication_consent"])
    roles.forget_memberships(member)
    if changed:
        with tenancy.club_scope(club):
            member_posts_sync_on_commit(member.pk)
    return member


def member_posts_sync_on_commit(member_id: int) -> None:
    """The hook games owns: its task edits the club group's posts about this member."""
    queue_on_commit("games.ratings.tasks.member_posts_sync", member_id)


@dataclass(frozen=True)
class IssuedToken:
    token: ApiToken
    key: str  # shown once; only its hash is stored


def api_token_create(*, member: User, name: str = "") -> IssuedToken:
    key = ApiToken.new_key()
    token = ApiToken(user=member, name=name.strip()[:64])
    token.set_key(key)
    token.save()
    return IssuedToken(token=token, key=key)


def api_token_revoke(*, member: User, token_id: int) -> bool:
    deleted, _details = ApiToken.objects.filter(user=member, pk=token_id).delete()
    return deleted > 0


def api_token_authenticate(key: str) -> User | None:
    """The member a bearer key belongs to, recording when it was last used; a banned
    member's key is refused with the same message as every other door."""
    if not key.startswith(ApiToken.PREFIX) or len(key) > 128:
        return None
    # One plain query for the member, with the token's id and last use alongside: this runs
    # on every API call, and a join through select_related costs more to build than to run.
    member = (
        User.objects.filter(api_tokens__key_hash=ApiToken.hash_key(key))
        .annotate(token_id=F("api_tokens__id"), token_used_at=F("api_tokens__last_used_at"))
        .order_by()
        .first()
    )
    if member is None:
        return None
    refuse_unless_usable(member)
    now = timezone.now()
    # Writing on every request would make reads write; once a minute is enough to show use.
    if member.token_used_at is None or (now - member.token_used_at).total_seconds() > 60:
        ApiToken.objects.filter(pk=member.token_id).update(last_used_at=now)
    return member


def telegram_signature_use_once(*, digest: str, expires_at: datetime) -> None:
    """Accept a signed Telegram payload once: a second use of the same one is refused."""
    try:
        with transaction.atomic():
            UsedSignature.objects.create(digest=digest, expires_at=expires_at)
    except IntegrityError as error:
        raise Refused(
            _("This Telegram sign-in was already used. Please sign in again."), RefusalCode.INVALID
        ) from error


def member_telegram_login(*, identity: TelegramIdentity) -> User:
    """The member a verified Telegram identity logs in as. Logging in never links: a
    Telegram account is linked only from the member's own profile (member_telegram_link)."""
    member = User.objects.filter(telegram_id=identity.telegram_id).first()
    if member is None:
        raise Refused(
            _(
                "No member is linked to this Telegram account yet. Sign up or log in "
                "first, then link Telegram on your profile page."
            ),
            RefusalCode.NOT_FOUND,
        )
    refuse_unless_usable(member)
    if member.telegram_username != identity.username:
        member.telegram_username = identity.username
        member.save(update_fields=["telegram_username"])
    return member


def member_telegram_link(
    *, member: User, telegram_id: int, username: str = "", language: str = ""
) -> User:
    """Link a Telegram account to the member: the one rule for the profile page and the
    bot's deep link. A link is never moved or replaced silently: a Telegram account that
    belongs to another member stays there, and a member with a link unlinks first.
    `language`: the Telegram app's (its `language_code`, "" when the door does not know
    it), learnt as the member's unless they chose one."""
    with transaction.atomic():
        member = User.objects.select_for_update().get(pk=member.pk)
        refuse_unless_usable(member)
        if member.telegram_id == telegram_id:
            return member
        if member.telegram_id is not None:
            raise Refused(
                _("Your account is linked to another Telegram account. Unlink it first."),
                RefusalCode.CONFLICT,
            )
        if User.objects.filter(telegram_id=telegram_id).exists():
            raise Refused(
                _("This Telegram account is already linked to another member."),
                RefusalCode.CONFLICT,
            )
        member.telegram_id = telegram_id
        member.telegram_username = username[:64]
        member.save(update_fields=["telegram_id", "telegram_username"])
        if language:
            member_learn_language(member=member, language=language)
    return member


def member_telegram_unlink(*, member: User) -> User:
    member.telegram_id = None
    member.telegram_username = ""
    member.save(update_fields=["telegram_id", "telegram_username"])
    return member


def member_mini_app_open(
    *, launch: MiniAppLaunch, valid_for: timedelta, reopened: bool = False
) -> User | None:
    """The member a verified Mini App launch opens the club's app as, or None for a
    Telegram user who is not a member yet (the app leads them through sign-up). Each
    launch is taken once, except by the session it opened (`reopened`: Telegram's «Reload»
    sends it again); a banned member is refused as at every door."""
    identity = launch.identity
    if not reopened:
        telegram_signature_use_once(
            digest=f"miniapp:{identity.signature}", expires_at=identity.signed_at + valid_for
        )
    member = User.objects.filter(telegram_id=identity.telegram_id).first()
    if member is None:
        return None
    refuse_unless_usable(member)
    if member.telegram_username != identity.username:
        member.telegram_username = identity.username
        member.save(update_fields=["telegram_username"])
    # Opening a club's Mini App joins that club: one account, a membership per club.
    member_join_club(member=member)
    return member_learn_language(member=member, language=launch.language)


# --- forgetting a member (the right to be forgotten) ----------------------------------------

# A forgotten account's nickname: unique, and no one's (a nickname cannot hold «#»).
FORGOTTEN_NICKNAME = "#forgotten-%s"
# A birth date is required of every account: a forgotten one keeps this, which is no one's.
FORGOTTEN_BIRTH_DATE = date(1900, 1, 1)


def refuse_unless_may_forget(*, member: User, typed: str) -> None:
    """Forgetting is the account's, in every club at once, and cannot be undone: the member
    types their nickname to confirm. A club's last admin is refused: a club is never left
    without one (another member is made its admin first)."""
    if login_key(typed.strip()) != member.nickname_key:
        raise Refused(_("Type your nickname exactly as it is to confirm."), RefusalCode.INVALID)
    last = [
        str(membership.club)
        for membership in Membership.objects.filter(
            user=member, role=Role.ADMIN, left_at__isnull=True
        ).select_related("club")
        if not roles.other_admins(member, membership.club_id)
    ]
    if last:
        raise Refused(
            _(
                "You are the last admin of «%(clubs)s»: make another member its admin first, "
                "then ask again."
            )
            % {"clubs": "», «".join(last)},
            RefusalCode.CONFLICT,
        )


@transaction.atomic
def member_forget(*, member: User, typed: str) -> User:
    """The account anonymised: a placeholder nickname, no email, Telegram link or birth
    date, an unusable password, closed (inactive: every session ends, as its password's
    hash changed), its API tokens revoked, its consent to publication withdrawn and its
    membership left in every club (the clubs' group posts are edited to «Игрок N»). Its
    seats and scores stay, under «Игрок N» everywhere. The evenings' sign-ups are the
    club's to cancel first (history.exports.forgetting)."""
    refuse_unless_may_forget(member=member, typed=typed)
    now = timezone.now()
    for membership in Membership.objects.filter(user=member).select_related("club"):
        member_set_publication_consent(member=member, consent=False, club=membership.club)
    Membership.objects.filter(user=member, left_at__isnull=True).update(
        left_at=now, role=Role.MEMBER
    )
    ApiToken.objects.filter(user=member).delete()
    member.nickname = FORGOTTEN_NICKNAME % uuid.uuid4().hex[:12]
    member.email = ""
    member.telegram_id, member.telegram_username = None, ""
    member.birth_date = FORGOTTEN_BIRTH_DATE
    member.reminders = member.game_reports = False
    member.status, member.status_changed_at = MembershipStatus.BANNED, now
    member.status_reason = "забыт по своей просьбе"
    member.set_unusable_password()
    member.save()
    roles.forget_memberships(member)
    roles.sync_staff(member)
    return member
