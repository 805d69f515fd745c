"""The balance report (docs/rules/florenza.md, "Balance report"): what is counted in a game's log, the
bound, the committed report checked against the content and the bound, and the command writing it."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from services.cli.balance import (
    BEGIN,
    END,
    MIN_SAMPLES,
    RATIO,
    Row,
    Tally,
    p_at_least,
    parse,
    render,
    verdict,
    write,
)
from services.cli.main import app
from services.florenza import balance
from services.florenza.rules.events import (
    ArtistHired,
    MarketVisited,
    OfferingMade,
    RoundStarted,
    StartingWorkshopChosen,
    WorkshopBuilt,
    WorkshopPlanned,
)
from services.games import manifest

from .helpers import ANON_PAINTER, BOSCAIUOLO, GIARDINO, RULES, SAVONAROLA, C

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "florenza.md"


def test_the_manifest_names_what_to_count() -> None:
    hook = manifest("florenza").balance
    assert hook is not None and hook().families == ("workshop", "artist", "preacher", "opening")
    assert hook().doc == "docs/rules/florenza.md"


def test_a_log_counts_starting_and_built_workshops_hired_artists_offerings_and_the_first_placement() -> None:
    log = [
        StartingWorkshopChosen(0, BOSCAIUOLO, 1),
        RoundStarted(1, (1, 0)),
        MarketVisited(1),
        WorkshopPlanned(0, 12, 3),
        ArtistHired(1, GIARDINO, 1, ANON_PAINTER),
        OfferingMade(0, SAVONAROLA, False),
        WorkshopBuilt(0, 3, 12),
        RoundStarted(2, (0, 1)),
        ArtistHired(0, GIARDINO, 0, 5),
    ]
    got = list(balance.takers(RULES, log))
    assert got == [
        ("opening", "starting workshop: Boscaiuolo", 0),
        ("workshop", "Boscaiuolo", 0),
        ("opening", "first placement: the market", 1),
        ("opening", "first placement: plan a workshop", 0),
        ("artist", "Anonymous painter", 1),
        ("preacher", "Girolamo Savonarola", 0),
        ("workshop", "Fabbro", 0),
        ("artist", "Sandro Botticelli", 0),
    ]


def test_every_item_of_the_content_is_listed() -> None:
    items = balance.items(RULES)
    assert len(items["workshop"]) == len(C.workshops) == 28
    assert len(items["artist"]) == 34 + 3  # the named ones and the three kinds of anonymous artist
    assert len(items["preacher"]) == 6 + 1
    assert len(items["opening"]) == 12 + 6


def test_the_bound_flags_a_far_better_item_only_with_enough_samples_and_significance() -> None:
    share = 0.25
    assert verdict(Row("x", "a", MIN_SAMPLES, 20), share) == "far above"
    assert verdict(Row("x", "a", MIN_SAMPLES - 1, 29), share) == "too few"
    assert verdict(Row("x", "a", 40, 14), share) == "ok"  # 0.35: not above 1.5 x 0.25
    assert verdict(Row("x", "a", 40, 15), share) == "ok"  # 0.375: not above, and p = 0.054
    assert verdict(Row("x", "a", 40, 16), share) == "far above"  # 0.40 and p = 0.026
    assert verdict(Row("x", "a", 400, 152), share) == "far above"
    assert verdict(Row("x", "a", 10, 4), share) == "too few"
    assert verdict(Row("x", "a", 200, 10), share) == "far below"
    assert abs(p_at_least(0, 10, 0.3) - 1.0) < 1e-12 and abs(p_at_least(10, 10, 0.5) - 0.5**10) < 1e-12


def test_the_committed_report_lists_every_item_and_none_is_far_above_its_share() -> None:
    text = DOC.read_text()
    share, rows = parse(text, "florenza")
    items = balance.items(RULES)
    for family in balance.FAMILIES:
        listed = [row.item for f, row, _ in rows if f == family]
        assert listed[: len(items[family])] == items[family], family
    assert 0.2 < share < 0.3  # four seats, ties shared
    for family, row, shown in rows:
        assert shown == verdict(row, share), (family, row.item)
        assert shown != "far above", (family, row.item, row.rate, RATIO * share)
    assert sum(1 for _, row, _ in rows if row.samples >= MIN_SAMPLES) > 60  # enough games to judge most
    assert "tabula balance florenza --games " in text.split(BEGIN.format(game="florenza"), 1)[1]


def test_the_command_writes_the_report_between_the_markers(tmp_path: Path) -> None:
    doc = tmp_path / "rules.md"
    doc.write_text(f"# before\n\n{BEGIN.format(game='florenza')}\nold\n{END}\n\nafter\n")
    result = CliRunner().invoke(
        app, ["balance", "florenza", "--games", "2", "--players", "2", "--processes", "1", "--doc", str(doc)]
    )
    assert result.exit_code == 0, result.output
    text = doc.read_text()
    assert text.startswith("# before\n\n") and text.endswith("\n\nafter\n") and "old" not in text
    share, rows = parse(text, "florenza")
    assert share == 0.5 and len(rows) >= sum(len(v) for v in balance.items(RULES).values())
    assert sum(row.samples for f, row, _ in rows if f == "opening" and row.item.startswith("first")) == 4


def test_render_and_parse_agree() -> None:
    rows = (Row("workshop", "Cava", 40, 30), Row("artist", "Giotto", 3, 1))
    text = render("florenza", Tally(10, 4, 7, 10, rows))
    share, parsed = parse(text, "florenza")
    assert share == 0.25 and [(f, r) for f, r, _ in parsed] == [("workshop", rows[0]), ("artist", rows[1])]
    assert "**Result:** 1 item(s) far above their share: workshop Cava." in text


def test_the_report_is_written_only_between_its_markers(tmp_path: Path) -> None:
    doc = tmp_path / "no-markers.md"
    doc.write_text("nothing to replace\n")
    try:
        write(doc, "florenza", "report")
    except Exception as err:  # typer.BadParameter
        assert "needs the markers" in str(err)
    else:
        raise AssertionError("a file without the markers was written")
    assert doc.read_text() == "nothing to replace\n"
