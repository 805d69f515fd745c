"""Where mail goes: the lobby's verification and password-reset messages.

A :class:`Mailer` sends one :class:`Mail`. Tabula ships no mail provider; it has two mailers:

* :class:`FolderMailer` (``TABULA_MAIL_DIR=<folder>``): development and tests. Each message is
  written to the folder as one RFC 5322 file (``<ms>-<id>.eml``, readable by its owner only); no
  mail leaves the machine.
* :class:`UnsentMail` (neither variable set): each message is dropped with a warning naming its
  kind and player (never the address or the code), so an operator sees that accounts cannot
  verify their address or reset a password until a mailer is configured.

A provider (SMTP, an HTTP mail API) plugs in as a class with ``send`` named by a zero-argument
factory in ``TABULA_MAIL=module:attr``, built once at start-up, like the push hook
(``adapters/push.py``). ``send`` runs in the request's thread: queue the work if the provider is slow.
A message carries a secret code: never log its body.
"""

from __future__ import annotations

import importlib
import logging
import os
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol

from shared.runtime.observability import log_fields

log = logging.getLogger("tabula.lobby.mail")
MAIL, MAIL_DIR, MAIL_FROM = "TABULA_MAIL", "TABULA_MAIL_DIR", "TABULA_MAIL_FROM"
DEFAULT_FROM = "Tabula <no-reply@localhost>"


@dataclass(frozen=True, slots=True)
class Mail:
    to: str = field(repr=False)
    subject: str
    body: str = field(repr=False)  # holds a code: kept out of repr and logs
    kind: str  # "verify" or "reset", for logs and providers' tags
    player_id: str


class Mailer(Protocol):
    def send(self, mail: Mail) -> None:
        """Hand one message to the provider (or the folder)."""
        ...


class FolderMailer:
    def __init__(self, folder: Path, sender: str = DEFAULT_FROM) -> None:
        self.folder, self.sender = folder, sender
        folder.mkdir(parents=True, exist_ok=True)

    def send(self, mail: Mail) -> None:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = self.sender, mail.to, mail.subject
        message["X-Tabula-Kind"] = mail.kind
        message.set_content(mail.body)
        path = self.folder / f"{int(time.time() * 1000)}-{uuid.uuid4().hex[:12]}.eml"
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as out:
            out.write(bytes(message))


class UnsentMail:
    def send(self, mail: Mail) -> None:
        fields = log_fields(kind=mail.kind, player_id=mail.player_id)
        log.warning("mail not sent: set %s or %s", MAIL_DIR, MAIL, extra=fields)


def load_mailer(env: Mapping[str, str]) -> Mailer:
    """``TABULA_MAIL=module:attr`` (a factory), else ``TABULA_MAIL_DIR``'s folder, else
    :class:`UnsentMail`."""
    spec, folder = env.get(MAIL, "").strip(), env.get(MAIL_DIR, "").strip()
    if spec:
        module, colon, attr = spec.partition(":")
        if not colon:
            raise ValueError(f"{MAIL}: {spec!r} is not module:attr")
        factory: Callable[[], Mailer] = getattr(importlib.import_module(module), attr)
        return factory()
    if folder:
        return FolderMailer(Path(folder), env.get(MAIL_FROM, DEFAULT_FROM))
    return UnsentMail()
