"""The mail folder and the password hashes, on their own."""

from __future__ import annotations

import email
import email.policy
import logging
import stat
from pathlib import Path

import pytest

from services.lobby.adapters.mail import FolderMailer, Mail, UnsentMail, load_mailer
from services.lobby.adapters.passwords import check_password, hash_password, needs_rehash

MAIL = Mail("ada@example.org", "Reset your password", "your code:\n\n    SECRET\n", "reset", "a-ada")


class Recording:
    """A provider named by TABULA_MAIL (its class is the factory)."""

    sent: list[Mail] = []

    def send(self, mail: Mail) -> None:
        self.sent.append(mail)


def test_the_folder_mailer_writes_one_message_per_mail_readable_by_its_owner_only(tmp_path: Path) -> None:
    mailer = FolderMailer(tmp_path / "mail", "Tabula <tabula@example.org>")
    mailer.send(MAIL)
    mailer.send(MAIL)
    files = sorted((tmp_path / "mail").glob("*.eml"))
    assert len(files) == 2
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    message = email.message_from_bytes(files[0].read_bytes(), policy=email.policy.default)
    assert (message["To"], message["From"], message["X-Tabula-Kind"]) == (
        "ada@example.org",
        "Tabula <tabula@example.org>",
        "reset",
    )
    assert "    SECRET" in message.get_body().get_content()  # type: ignore[union-attr]


def test_the_mailer_is_a_provider_else_the_folder_else_none(tmp_path: Path) -> None:
    assert isinstance(load_mailer({"TABULA_MAIL_DIR": str(tmp_path)}), FolderMailer)
    assert isinstance(load_mailer({}), UnsentMail)
    provider = load_mailer({"TABULA_MAIL": f"{__name__}:Recording", "TABULA_MAIL_DIR": str(tmp_path)})
    assert isinstance(provider, Recording)
    with pytest.raises(ValueError):
        load_mailer({"TABULA_MAIL": "no-colon"})


def test_an_unsent_mail_is_a_warning_without_its_address_or_body(caplog: pytest.LogCaptureFixture) -> None:
    UnsentMail().send(MAIL)
    (record,) = caplog.records
    assert record.levelno == logging.WARNING
    text = f"{record.getMessage()} {record.__dict__.get('fields')} {MAIL!r}"
    assert "ada@example.org" not in text and "SECRET" not in text


def test_a_password_hash_is_argon2id_salted_and_checks_only_its_password() -> None:
    first, second = hash_password("correct horse"), hash_password("correct horse")
    assert first.startswith("$argon2id$") and first != second and "correct horse" not in first
    assert check_password(first, "correct horse") and check_password(second, "correct horse")
    assert not check_password(first, "correct horse ") and not check_password(first, "")
    assert not check_password(None, "not anybody's password"), "no account: never a match"
    assert not check_password("not a hash", "correct horse")
    assert not needs_rehash(first)


def test_no_password_matches_an_account_without_one() -> None:
    """An account made by an external sign-in stores "" and is checked against the throwaway hash:
    not even that hash's own password passes."""
    for password in ("not anybody's password", "", "anything"):
        assert not check_password("", password)
        assert not check_password(None, password)
