"""The spreadsheet reader on CSV: what it reads, and each bad row refused with its line and
reason while the other games are read whole."""

from __future__ import annotations

from datetime import date

import pytest
from django.utils import translation

from history.formats.records import Left, Read, Source
from history.formats.spreadsheet import read_spreadsheet
from tests.history.sheets import HEADER_EN, ROLES, csv_bytes, game_rows


def read(data: bytes, name: str = "games.csv") -> Read:
    with translation.override("ru"):
        return read_spreadsheet(data, filename=name, roles=ROLES)


def test_a_game_of_ten_is_read_with_its_seats_roles_and_best_move() -> None:
    result = read(csv_bytes(game_rows()))
    assert result.problems == []
    (game,) = result.games
    assert game.source is Source.SPREADSHEET
    assert (game.played_on, game.table, game.number) == (date(2026, 12, 7), 1, 1)
    assert game.key == "2026-12-07/1/1"
    assert game.winner == "red"
    assert [s.role for s in game.seats[6:]] == ["commissar", "boss", "mafia", "mafia"]
    assert game.seats[0].left is Left.KILLED and game.seats[0].left_when == "N1"
    assert game.best_move == (7, 8, 9) and game.best_move_by == 1
    assert game.line == 2


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1251", "utf-16"])
@pytest.mark.parametrize("sep", [";", ",", "\t"])
def test_encodings_and_separators(encoding: str, sep: str) -> None:
    result = read(csv_bytes(game_rows(), sep=sep, encoding=encoding))
    assert result.problems == []
    assert [s.nickname for s in result.games[0].seats][:2] == ["Игрок 1", "Игрок 2"]


def test_english_headers_and_role_codes() -> None:
    rows = game_rows(
        roles=["civilian"] * 6 + ["commissar", "boss", "mafia", "mafia"], winner="black"
    )
    (game,) = read(csv_bytes(rows, header=HEADER_EN, sep=",")).games
    assert game.winner == "black"


@pytest.mark.parametrize(
    "written",
    [
        "07.12.2026",
        "7.12.26",
        "2026-12-07",
        "7 декабря 2026",
        "7 дек. 2026",
        "07/12/2026",
        "7 Декабря 2026 г.",
    ],
)
def test_dates_in_the_usual_russian_forms(written: str) -> None:
    (game,) = read(csv_bytes(game_rows(day=written))).games
    assert game.played_on == date(2026, 12, 7)


def test_an_unreadable_date_refuses_its_game_with_the_line() -> None:
    rows = game_rows(day="31.02.2026") + game_rows(day="08.12.2026", prefix="Другой")
    result = read(csv_bytes(rows))
    assert [g.played_on for g in result.games] == [date(2026, 12, 8)]
    (problem,) = result.problems
    assert problem.line == 2 and "не дата" in problem.message


def test_a_seat_twice_refuses_the_whole_game_and_reads_the_others() -> None:
    bad = game_rows(players=11)
    bad[10][3] = "4"  # seat 4 again on line 12
    rows = bad + game_rows(number="2")
    result = read(csv_bytes(rows))
    assert [g.number for g in result.games] == [2]
    (problem,) = result.problems
    assert problem.line == 12
    assert problem.message == "Место 4 занято дважды."


@pytest.mark.parametrize("players", [9, 16])
def test_nine_or_sixteen_players_are_refused(players: int) -> None:
    result = read(csv_bytes(game_rows(players=players)[:players] if players < 16 else _sixteen()))
    assert result.games == []
    (problem,) = result.problems
    assert problem.line == 2 and f"{players} игрок" in problem.message


def _sixteen() -> list[list[str]]:
    rows = game_rows(players=15)
    extra = list(rows[-1])
    extra[3] = "3"  # a sixteenth row (a seat number repeats: the size is refused first)
    return [*rows, extra]


def test_a_seat_outside_the_table_is_refused() -> None:
    rows = game_rows(players=10)
    rows[9][3] = "16"
    (problem,) = read(csv_bytes(rows)).problems
    assert problem.line == 11 and "16" in problem.message


def test_a_role_the_club_does_not_have_is_refused_with_its_line() -> None:
    rows = game_rows()
    rows[2][5] = "Оборотень"
    result = read(csv_bytes(rows))
    assert result.games == []
    assert [(p.line, p.message) for p in result.problems] == [(4, "В клубе нет роли «Оборотень».")]


def test_a_role_the_catalogue_lacks_is_refused_even_with_a_known_alias() -> None:
    roles = {code: name for code, name in ROLES.items() if code != "doctor"}
    rows = game_rows()
    rows[0][5] = "доктор"
    with translation.override("ru"):
        result = read_spreadsheet(csv_bytes(rows), filename="x.csv", roles=roles)
    assert result.games == [] and result.problems[0].line == 2


def test_no_black_player_is_an_impossible_lineup() -> None:
    rows = game_rows(roles=["мирный"] * 9 + ["шериф"])
    (problem,) = read(csv_bytes(rows)).problems
    assert "Нет ни одного чёрного игрока" in problem.message


@pytest.mark.parametrize(("fouls", "ok"), [("4", True), ("5", False), ("-1", False)])
def test_fouls_from_zero_to_four(fouls: str, ok: bool) -> None:
    rows = game_rows()
    rows[3][6] = fouls
    result = read(csv_bytes(rows))
    assert bool(result.games) is ok
    if not ok:
        assert result.problems[0].line == 5


def test_left_and_when_must_be_readable() -> None:
    rows = game_rows()
    rows[4][7], rows[4][8] = "ушёл домой", ""
    rows2 = game_rows(number="2")
    rows2[4][7], rows2[4][8] = "заголосован", "в обед"
    result = read(csv_bytes(rows + rows2))
    assert result.games == []
    assert [p.line for p in result.problems] == [6, 16]


def test_winners_that_disagree_refuse_the_game() -> None:
    rows = game_rows()
    rows[5][10] = "мафия"
    (problem,) = read(csv_bytes(rows)).problems
    assert problem.line == 7 and "«победа»" in problem.message


def test_a_best_move_naming_a_seat_not_at_the_table_is_refused() -> None:
    rows = game_rows()
    rows[0][9] = "3 12"
    (problem,) = read(csv_bytes(rows)).problems
    assert "12" in problem.message


def test_a_csv_formula_is_refused_with_its_line_never_run() -> None:
    rows = game_rows()
    rows[6][4] = '=HYPERLINK("http://x";"y")'
    result = read(csv_bytes(rows, sep=","))
    assert result.games == []
    assert result.problems[0].line == 8 and "формул" in result.problems[0].message


def test_rows_grouped_by_the_game_column() -> None:
    header = ["Игра", "Дата", "Место", "Ник", "Роль", "Победа"]
    rows = []
    for key in ("A", "B"):
        for seat, role in enumerate(["мирный"] * 7 + ["дон", "мафия", "мафия"], start=1):
            rows.append([key, "7.12.2026", str(seat), f"{key}{seat}", role, "black"])
    result = read(csv_bytes(rows, header=header))
    assert result.problems == []
    assert [(g.key, g.number) for g in result.games] == [("A", 1), ("B", 2)]


def test_a_row_without_its_game_refuses_the_games_beside_it() -> None:
    rows = game_rows() + game_rows(number="2") + game_rows(number="3")
    rows[10][0] = ""  # line 12, between game 1 and the rest of game 2: either may be its game
    result = read(csv_bytes(rows))
    assert [g.number for g in result.games] == [3]
    assert [p.line for p in result.problems] == [2, 12, 13]


def test_a_header_without_the_required_columns_refuses_the_file() -> None:
    result = read("Ник;Роль\nА;мирный\n".encode())
    assert result.games == []
    (problem,) = result.problems
    assert problem.line == 1 and "«место»" in problem.message


def test_an_empty_file_is_refused_clearly() -> None:
    (problem,) = read(b"  \r\n").problems
    assert problem.message == "Файл пуст."


def test_a_stray_quote_refuses_every_game_of_the_file() -> None:
    data = (
        csv_bytes(game_rows()) + b'"unclosed;1;2\r\n' + csv_bytes(game_rows(number="2"), header=[])
    )
    result = read(data)
    assert result.games == [] and len(result.problems) == 1


def test_a_cell_the_export_neutralised_reads_back_as_written() -> None:
    from club.kernel.spreadsheets import neutral_cell

    rows = game_rows()
    rows[1][4] = neutral_cell("=Лев=")
    rows[2][4] = neutral_cell("-Лиса-")
    rows[3][4] = "'Сова"  # a quote before a letter is the nickname's own
    (game,) = read(csv_bytes(rows)).games
    assert [s.nickname for s in game.seats[1:4]] == ["=Лев=", "-Лиса-", "'Сова"]


def test_a_title_above_the_header_is_passed_over() -> None:
    data = "Клуб «Сова», сезон осень 2026;;\r\n\r\n".encode() + csv_bytes(game_rows())
    result = read(data)
    assert result.problems == [] and result.games[0].line == 4
