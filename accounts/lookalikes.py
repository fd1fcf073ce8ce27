"""Nicknames that look alike: «Вoрон» with a Latin «o», or «Bopoн», beside «Ворон».

Two nicknames look alike when their confusable skeletons are equal (Unicode TR39, section
4: every character mapped to its prototype in Unicode's confusables.txt, «В» and «B» to
«B», «о» and «o» to «o», «0» to «O»). The table and the skeleton come from ICU, through
PyICU: ICU is Unicode's own reference implementation of TR39, kept in step with every
Unicode release, and PyICU its long-maintained binding. The pure-Python alternatives
either stopped (confusables, 2021), have no skeleton (confusable-homoglyphs lists
homoglyphs, not prototypes), or fold differently from TR39 on purpose (disarm).

PyICU comes as pyicu-wheels: PyICU's own code built with ICU inside, a wheel for CPython
3.13 on Linux (x86_64, aarch64, musl too), macOS and Windows, so no machine compiles C++ to
run the site (PyICU from its source took six of the seven minutes of a first `make run`).
icu4py, the other wheel with ICU inside, binds no spoof checker. ICU 77 (Unicode 16) also
drops the default-ignorable characters (zero-width spaces, direction marks) from a
skeleton, as TR39 now says; for the letters a nickname may hold (accounts.validation) the
table has not changed across ICU releases, so the skeletons the database keeps stay true
(tests/accounts/test_lookalikes.py holds every such letter to its TR39 prototype).

The key is the skeleton of the nickname in capitals, case folded: a nickname is one login
in any letter case and is shown in capitals in places, so «CYXO» and «cyxo» (Latin) are
refused beside «Сухо», and «BOPOH» beside «Ворон» (whose capitals «ВОРОН» read the same,
though «н» and «h» do not). A word that mixes alphabets is refused by itself
(accounts.validation), whether or not a member's nickname looks like it yet.
"""

from __future__ import annotations

import functools

import icu


@functools.cache
def _spoof_checker() -> icu.SpoofChecker:
    return icu.SpoofChecker()


def skeleton(text: str) -> str:
    """The TR39 skeleton of `text`: NFD, each character by its confusables.txt prototype
    («а» Cyrillic to «a», «m» to «rn», «0» to «O»), NFD again."""
    # The first argument (the skeleton's type) is ignored since ICU 58: one skeleton.
    return str(_spoof_checker().getSkeleton(0, text))


def lookalike_key(nickname: str) -> str:
    """Equal for nicknames that look alike: the TR39 skeleton of the nickname in capitals,
    case folded. (ICU maps the lower-case Cyrillic letters to Latin small capitals, «н» to
    «ʜ», so the skeleton as written keeps «Ворон» apart from «BOPOH»; in capitals they
    are one.)"""
    return skeleton(nickname.upper()).casefold()


def script_of(letter: str) -> str:
    """The Unicode script of a character ("Latin", "Cyrillic"), or "" for those that
    belong to none (digits, punctuation, combining marks: script-neutral)."""
    name = str(icu.Script.getScript(letter).getName())
    return "" if name in ("Common", "Inherited") else name


def mixed_script_word(nickname: str) -> str | None:
    """The first word of the nickname that mixes scripts, or None. A word is a run of
    letters and digits between spaces, hyphens and underscores: a digit belongs to no
    script but does not split a word, so «B0рон» is one word that mixes two alphabets."""
    for word in nickname.replace("-", " ").replace("_", " ").split():
        if len({script for script in map(script_of, word) if script}) > 1:
            return word
    return None


def lookalikes_report(groups: list[list[str]], *, at_most: int = 10) -> str:
    """«Ворон» / «Вoрон»; «Сухо» / «Cyxo»: look-alike groups of nicknames, for the admin."""
    report = "; ".join(" / ".join(f"«{nick}»" for nick in group) for group in groups[:at_most])
    return report + ("; …" if len(groups) > at_most else "")
