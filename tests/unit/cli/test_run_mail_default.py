"""`tabula run` gives the lobby a mail folder beside its data (sign-up and reset codes land there)."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.cli.run import default_mail


def test_the_mail_goes_beside_the_data_folder(tmp_path: Path) -> None:
    env: dict[str, str] = {}
    default_mail(env, tmp_path / "redis")
    assert env == {"TABULA_MAIL_DIR": str(tmp_path.resolve() / "mail")}


@pytest.mark.parametrize("given", [{"TABULA_MAIL_DIR": "/srv/mail"}, {"TABULA_MAIL": "pkg.mail:sender"}])
def test_a_mail_folder_or_sender_of_ones_own_is_kept(tmp_path: Path, given: dict[str, str]) -> None:
    env = dict(given)
    default_mail(env, tmp_path / "redis")
    assert env == given
