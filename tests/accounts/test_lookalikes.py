"""Nicknames that look alike (#24): «Вoрон» (a Latin «o») and «Bopoн» joined beside
«Ворон» and were greeted as «Ворон». A nickname whose confusable skeleton (Unicode TR39)
is a member's is refused at every door that names a member, and so is a word that mixes
alphabets; the database's unique skeleton refuses the second of two racing sign-ups;
members who already looked alike are kept and shown to the admin."""

import itertools
from datetime import date
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.forms import MultiWidget
from django.test import Client
from pytest_django import Settings

from accounts import services
from accounts.lookalikes import lookalike_key, mixed_script_word, skeleton
from accounts.models import User
from accounts.validation import NICKNAME_CHARACTERS, normalize_nickname
from club.kernel.errors import RefusalCode, Refused
from tests.accounts.test_admin import NO_TOKENS
from tests.accounts.test_mini_app import TOKEN, launch, open_app
from tests.bot.test_webhook import SECRET, button, message, post, replies
from tests.factories import PASSWORD, make_member

pytestmark = pytest.mark.django_db

MIXED = "смешивает латинские и кириллические буквы"
_emails = itertools.count(1)


def sign_up(nickname: str) -> tuple[int, str]:
    response = Client().post(
        "/accounts/signup/",
        {
            "nickname": nickname,
            "email": f"newcomer{next(_emails)}@example.com",
            "birth_date": "1990-01-01",
            "password1": "long-enough-password-1",
            "password2": "long-enough-password-1",
        },
    )
    return response.status_code, response.content.decode()


# «Вoрон»: a Latin «o»; «Bopoн»: Latin «B», «o», «p», «o»; «Ворoн»: the second «o» Latin.
@pytest.mark.parametrize("nickname", ["Вoрон", "Bopoн", "Ворoн"])
def test_the_issues_look_alikes_are_refused_at_the_sign_up_page(nickname: str) -> None:
    make_member(nickname="Ворон")
    status, page = sign_up(nickname)
    assert status == 200 and MIXED in page
    assert not User.objects.filter(nickname=nickname).exists()
    # The skeleton alone refuses them too, even written past every check.
    with pytest.raises(IntegrityError), transaction.atomic():
        make_member(nickname=nickname)


def test_a_nickname_in_one_alphabet_that_looks_like_a_members_is_refused_and_named() -> None:
    make_member(nickname="Сухо")
    for look_alike in ("Cyxo", "CYXO", "cyxo"):  # Latin only: no word mixes alphabets
        status, page = sign_up(look_alike)
        assert status == 200 and "похож на «Сухо»" in page, look_alike
    assert User.objects.filter(nickname_key__in=["cyxo", "сухо"]).count() == 1
    make_member(nickname="Ivan")
    assert "похож на «Ivan»" in sign_up("lvan")[1]  # a small L
    assert "похож на «Сухо»" in sign_up("Cyx0")[1]  # a zero
    status, _page = sign_up("Сухарь")  # one that only resembles in part is welcome
    assert status == 302


@pytest.mark.parametrize(
    ("nickname", "mixed"),
    [
        ("Doctor Ватсон", None),
        ("Кот Bегемот", "Bегемот"),
        ("Агент 007", None),
        ("R2-Д2", None),
        ("B0рон", "B0рон"),  # a digit belongs to no alphabet but does not split a word
        ("Ночной_Vорон", "Vорон"),
        ("Lucky", None),
    ],
)
def test_a_word_is_written_in_one_alphabet(nickname: str, mixed: str | None) -> None:
    assert mixed_script_word(nickname) == mixed


def test_the_look_alike_key_is_tr39s_skeleton_in_capitals() -> None:
    assert lookalike_key("Ворон") == lookalike_key("Вoрон") == lookalike_key("Bopoн")
    assert lookalike_key("Сухо") == lookalike_key("CYXO") == lookalike_key("cyxo")
    assert lookalike_key("Ворон") != lookalike_key("Вороны")
    # In capitals «ВОРОН» and «BOPOH» read the same, though «н» and «h» do not (the attack
    # review joined «BOPOH», «TEHb», «COBA» beside «Ворон», «Тень», «Сова»); so do «КОТ»
    # and «KOT».
    for cyrillic, latin in (("Ворон", "BOPOH"), ("Тень", "TEHb"), ("Сова", "COBA"),
                            ("Кот", "Kot")):  # fmt: skip
        assert lookalike_key(cyrillic) == lookalike_key(latin)
    assert lookalike_key("Вера") != lookalike_key("Вега")


# Known pairs of Unicode's confusables.txt (TR39's data): a character and its prototype,
# which is the character's skeleton.
TR39_PROTOTYPES = {
    "\u0430": "a",  # CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A
    "\u0410": "A",  # CYRILLIC CAPITAL LETTER A → LATIN CAPITAL LETTER A
    "\u0412": "B",  # CYRILLIC CAPITAL LETTER VE → LATIN CAPITAL LETTER B
    "\u0432": "\u0299",  # CYRILLIC SMALL LETTER VE → LATIN LETTER SMALL CAPITAL B
    "\u043d": "\u029c",  # CYRILLIC SMALL LETTER EN → LATIN LETTER SMALL CAPITAL H
    "\u043e": "o",  # CYRILLIC SMALL LETTER O → LATIN SMALL LETTER O
    "\u0440": "p",  # CYRILLIC SMALL LETTER ER → LATIN SMALL LETTER P
    "\u0441": "c",  # CYRILLIC SMALL LETTER ES → LATIN SMALL LETTER C
    "\u0443": "y",  # CYRILLIC SMALL LETTER U → LATIN SMALL LETTER Y
    "\u0445": "x",  # CYRILLIC SMALL LETTER HA → LATIN SMALL LETTER X
    "\u0431": "6",  # CYRILLIC SMALL LETTER BE → DIGIT SIX
    "\u0417": "3",  # CYRILLIC CAPITAL LETTER ZE → DIGIT THREE
    "\u042b": "bl",  # CYRILLIC CAPITAL LETTER YERU → b, l
    "\u0413": "\u0393",  # CYRILLIC CAPITAL LETTER GHE → GREEK CAPITAL LETTER GAMMA
    "0": "O",  # DIGIT ZERO → LATIN CAPITAL LETTER O
    "1": "l",  # DIGIT ONE → LATIN SMALL LETTER L
    "I": "l",  # LATIN CAPITAL LETTER I → LATIN SMALL LETTER L
    "m": "rn",  # LATIN SMALL LETTER M → r, n (TR39's own example)
    "\u2014": "\u30fc",  # EM DASH → KATAKANA-HIRAGANA PROLONGED SOUND MARK
}


@pytest.mark.parametrize(("character", "prototype"), TR39_PROTOTYPES.items())
def test_the_skeleton_maps_a_character_to_its_tr39_prototype(
    character: str, prototype: str
) -> None:
    assert skeleton(character) == prototype


def test_the_skeleton_is_tr39s_on_whole_strings() -> None:
    # TR39's example: «paypal» with a Cyrillic «а» is «paypal».
    assert skeleton("p\u0430yp\u0430l") == skeleton("paypal") == "paypal"
    assert skeleton("rn") == skeleton("m")
    # NFD first: «ё» precomposed and «е» with a combining diaeresis are one.
    assert skeleton("\u0451") == skeleton("\u0435\u0308") == "e\u0308"
    # Since Unicode 15.1 a default-ignorable character (a zero-width space) is dropped.
    assert skeleton("Во\u200bрон") == skeleton("Ворон")


# The key of every character a nickname may hold, in groups that share one: the database
# keeps each member's key (nickname_skeleton), so a new ICU that changed one of these would
# leave members' stored keys stale. A change here needs a migration that fills them again
# (as accounts/migrations/0007_lookalike_key_in_capitals.py did).
KEYS_OF_NICKNAME_CHARACTERS = {
    "a": "AaАа", "b": "BbВвЬь", "c": "CcСс", "d": "Dd", "e": "EeЕе", "f": "Ff", "g": "Gg",
    "h": "HhНн", "l": "IiLl1", "j": "Jj", "k": "KkКк", "m": "MmМм", "n": "Nn",
    "o": "OoОо0", "p": "PpРр", "q": "Qq", "r": "Rr", "s": "Ss", "t": "TtТт", "u": "Uu",
    "v": "Vv", "w": "Ww", "x": "XxХх", "y": "YyУу", "z": "Zz", "b\u0304": "Бб",
    "\u03b3": "Гг", "д": "Дд", "e\u0308": "Ёё", "ж": "Жж", "3": "Зз3", "и": "Ии",
    "и\u0306": "Йй", "\u028c": "Лл", "\u03c0": "Пп", "\u03c6": "Фф", "ц": "Цц", "ч": "Чч",
    "ш": "Шш", "щ": "Щщ", "ъ": "Ъъ", "bl": "Ыы", "э": "Ээ", "lo": "Юю", "я": "Яя",
    "2": "2", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9",
    " ": " ", "_": "_", "-": "-",
}  # fmt: skip


def test_every_character_a_nickname_may_hold_keeps_its_key() -> None:
    listed = "".join(KEYS_OF_NICKNAME_CHARACTERS.values())
    assert sorted(listed) == sorted(set(listed))  # each once
    assert all(NICKNAME_CHARACTERS.match(character) for character in listed)
    allowed = (chr(code) for code in range(0x110000))
    assert {c for c in allowed if NICKNAME_CHARACTERS.match(c)} == set(listed)  # all
    keys = {c: key for key, group in KEYS_OF_NICKNAME_CHARACTERS.items() for c in group}
    assert {character: lookalike_key(character) for character in listed} == keys


def test_a_look_alike_in_capitals_is_refused_at_the_sign_up_page() -> None:
    make_member(nickname="Ворон")
    status, page = sign_up("BOPOH")
    assert status == 200 and "похож на «Ворон»" in page


def test_the_bot_refuses_look_alikes_in_its_sign_up(settings: Settings) -> None:
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    make_member(nickname="Сухо")
    post(button("join"))
    post(message("Вoрон"))
    assert MIXED in replies()[-1].text
    post(message("Cyxo"))
    assert "похож на «Сухо»" in replies()[-1].text
    assert not User.objects.filter(telegram_id=777).exists()


def test_the_mini_app_refuses_look_alikes_when_joining(settings: Settings) -> None:
    settings.TELEGRAM_BOT_TOKEN = TOKEN
    settings.TELEGRAM_MINI_APP_MAX_AGE_SECONDS = 3600
    make_member(nickname="Сухо")
    client = Client()
    assert open_app(client, launch())[1] == {"next": "/tg/join/"}
    answer = client.post("/tg/join/", {"nickname": "Cyxo", "birth_date": "1990-05-05"})
    assert answer.status_code == 422 and "похож на «Сухо»" in answer.content.decode()
    assert not User.objects.filter(nickname="Cyxo").exists()


def change_form_post(client: Client, member: User, **changes: object) -> int:
    """Post the member's admin page back as it was drawn, with these fields changed."""
    url = f"/admin/accounts/user/{member.pk}/change/"
    form = client.get(url).context["adminform"].form
    data: dict[str, object] = dict(NO_TOKENS)
    for field in form:
        value = field.value()
        if isinstance(field.field.widget, MultiWidget):
            parts = field.field.widget.decompress(value)
            assert parts is not None  # the club's multi-widgets always split a value
            for n, part in enumerate(parts):
                data[f"{field.html_name}_{n}"] = "" if part is None else part
        elif isinstance(value, bool):
            if value:
                data[field.html_name] = "on"
        elif value is not None:
            data[field.html_name] = value
    data.update(changes)
    return client.post(url, data).status_code


def test_the_admin_refuses_look_alikes_when_adding_or_renaming(admin_client_: Client) -> None:
    make_member(nickname="Сухо")
    added = admin_client_.post(
        "/admin/accounts/user/add/",
        {
            "nickname": "Cyxo",
            "birth_date": "1995-01-01",
            "password1": "long-enough-password-1",
            "password2": "long-enough-password-1",
            "usable_password": "true",
            **NO_TOKENS,
        },
    )
    assert added.status_code == 200 and "похож на «Сухо»" in added.content.decode()
    assert not User.objects.filter(nickname="Cyxo").exists()
    lisa = make_member(nickname="Лиса")
    assert change_form_post(admin_client_, lisa, nickname="Cyxo") == 200  # drawn again
    lisa.refresh_from_db()
    assert lisa.nickname == "Лиса"
    assert change_form_post(admin_client_, lisa, nickname="Лиса Алиса") == 302


def test_a_look_alike_sign_up_racing_another_is_refused_by_the_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Our checks ran before the rival's sign-up committed: the unique skeleton refuses
    ours at the insert, and the checks, run again, name the rival."""
    make_member(nickname="Сухо")  # the rival, committed after our checks
    real_clean = services.nickname_clean
    calls: list[str] = []

    def checked_before_the_rival_committed(raw: str, **kwargs: object) -> str:
        calls.append(raw)
        return normalize_nickname(raw) if len(calls) == 1 else real_clean(raw)

    monkeypatch.setattr(services, "nickname_clean", checked_before_the_rival_committed)
    with pytest.raises(Refused) as refused:
        services.member_sign_up(nickname="Cyxo", birth_date=date(1990, 1, 1), password=PASSWORD)
    assert refused.value.code == RefusalCode.INVALID
    assert "«Сухо»" in services.refusal_fields(refused.value)["nickname"][0]
    assert not User.objects.filter(nickname="Cyxo").exists()


# --- look-alikes from before the rule ---------------------------------------------------


def kept(nickname: str) -> User:
    """A member who had a look-alike nickname before the rule (as migration 0006 marks)."""
    return make_member(nickname=nickname, lookalike_kept=True)


def test_the_admin_sees_the_look_alikes_kept_from_before(admin_client_: Client) -> None:
    make_member(nickname="Ворон")
    twin = kept("Вoрон")
    make_member(nickname="Лиса")
    page = admin_client_.get("/admin/accounts/user/").content.decode()
    assert "Никнеймы этих участников похожи: «Ворон» / «Вoрон»" in page
    listed = admin_client_.get("/admin/accounts/user/", {"lookalike": "yes"})
    shown = {member.nickname for member in listed.context["cl"].result_list}
    assert shown == {"Ворон", "Вoрон"}
    # A newcomer still clashes with the earliest, who holds the skeleton.
    assert "похож на «Ворон»" in sign_up("Вор0н")[1]
    # Editing a kept member (a suspension, say) does not wait for a rename…
    assert change_form_post(admin_client_, twin, status="suspended") == 302
    twin.refresh_from_db()
    assert (twin.status, twin.nickname, twin.lookalike_kept) == ("suspended", "Вoрон", True)
    # …and renamed, the member is held to the rule again and the warning goes.
    assert change_form_post(admin_client_, twin, nickname="Ворон Второй") == 302
    twin.refresh_from_db()
    assert (twin.nickname, twin.lookalike_kept) == ("Ворон Второй", False)
    page = admin_client_.get("/admin/accounts/user/").content.decode()
    assert "Никнеймы этих участников похожи" not in page


def test_manage_py_check_lists_the_look_alikes_for_deployers() -> None:
    make_member(nickname="Сухо")
    kept("Cyxo")
    report = StringIO()
    call_command("check", "--database", "default", stderr=report)
    assert "accounts.W001" in report.getvalue() and "«Сухо» / «Cyxo»" in report.getvalue()


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_look_alikes_it_finds_and_guards_the_rest() -> None:
    executor = MigrationExecutor(connection)
    before = [("accounts", "0005_nickname_key")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("accounts", "User")
    for nickname in ("Ворон", "Вoрон", "Bopoн", "Лиса"):
        old.objects.create(
            nickname=nickname, nickname_key=nickname.casefold(), birth_date=date(1990, 1, 1)
        )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    members = {m.nickname: m for m in User.objects.all()}
    assert members["Ворон"].nickname_skeleton == members["Bopoн"].nickname_skeleton
    assert {name: m.lookalike_kept for name, m in members.items()} == {
        "Ворон": False,  # the earliest holds the skeleton
        "Вoрон": True,
        "Bopoн": True,
        "Лиса": False,
    }
    assert User.objects.lookalike_groups() == [["Ворон", "Вoрон", "Bopoн"]]
    with pytest.raises(IntegrityError), transaction.atomic():
        make_member(nickname="Ворoн")  # the second «o» Latin
