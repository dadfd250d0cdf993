"""`kz show`: the position of a record as text or SVG, and its errors."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

from django.core.management import call_command

from games.kz.position_show import handle_show

RECORDS = Path(__file__).resolve().parents[1] / "rules" / "records"


def run(**options):
    out, err = io.StringIO(), io.StringIO()
    code = handle_show({"ply": None, "svg": None, **options}, out, err)
    return code, out.getvalue(), err.getvalue()


def test_text_at_a_ply():
    code, out, _ = run(path=str(RECORDS / "example1-laws-capture.kzr"), ply=24)
    assert code == 0
    assert "Last move: Fe@G25 x V@E26" in out
    assert "Ply 25: green to move." in out


def test_empty_board_and_final_position():
    code, out, _ = run(path=str(RECORDS / "example1-laws-capture.kzr"), ply=0)
    assert code == 0 and "Fe" not in out.split("green:")[0]
    code, out, _ = run(path=str(RECORDS / "example1-laws-capture.kzr"))
    assert "Battle over: capture, green wins." in out


def test_svg_file(tmp_path):
    target = tmp_path / "board.svg"
    code, out, _ = run(path=str(RECORDS / "example2-laws-deadlock.kzr"), svg=str(target))
    assert code == 0 and str(target) in out
    assert len(ET.parse(target).getroot().findall(".//{http://www.w3.org/2000/svg}g")) > 0


def test_errors(tmp_path):
    code, _, err = run(path=str(tmp_path / "missing.kzr"))
    assert code == 2 and "cannot read" in err
    code, _, err = run(path=str(RECORDS / "example1-laws-capture.kzr"), ply=99)
    assert code == 1 and "--ply" in err


def test_through_manage_py(capsys):
    call_command("kz", "show", str(RECORDS / "example1-laws-capture.kzr"), "--ply", "20")
    assert "Ply 21: green to move." in capsys.readouterr().out
