"""Translation of analyses (``service_layer/analysis.py``) into ``tabula.lobby.v1.Analysis``."""

from __future__ import annotations

from tabula.lobby.v1 import analysis_pb2 as apb

from services.lobby.service_layer.analysis import Asked
from shared.core.i18n import DEFAULT
from shared.matches.analysis import Status

STATUSES = {
    None: apb.ANALYSIS_STATUS_UNSPECIFIED,
    Status.QUEUED: apb.ANALYSIS_STATUS_QUEUED,
    Status.RUNNING: apb.ANALYSIS_STATUS_RUNNING,
    Status.DONE: apb.ANALYSIS_STATUS_DONE,
    Status.CANCELLED: apb.ANALYSIS_STATUS_CANCELLED,
    Status.FAILED: apb.ANALYSIS_STATUS_FAILED,
}


def analysis(asked: Asked, locale: str = DEFAULT) -> apb.Analysis:
    """The analysis with its moves in words of ``locale`` (English where a rating has none in it)."""
    record = asked.record
    return apb.Analysis(
        match_id=asked.match_id,
        seat=asked.seat,
        status=STATUSES[record.status],
        decisions=record.decisions,
        iterations=record.iterations,
        error=record.error,
        moves=[
            apb.MoveRating(
                version=r.version,
                played=r.in_locale(locale)[0],
                best=r.in_locale(locale)[1],
                played_value=r.played_value,
                best_value=r.best_value,
                same=r.same,
                forced=r.forced,
                choices=r.choices,
            )
            for r in record.ratings
        ],
    )
