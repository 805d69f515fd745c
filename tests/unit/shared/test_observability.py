from __future__ import annotations

import json
import logging

from shared.runtime.observability import JsonFormatter, log_fields


def test_log_lines_are_json_with_their_fields() -> None:
    record = logging.LogRecord("tabula.x", logging.WARNING, __file__, 1, "moved %s", ("on",), None)
    record.__dict__.update(log_fields(match_id="m1", version=3))
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "moved on" and line["level"] == "warning" and line["logger"] == "tabula.x"
    assert (line["match_id"], line["version"]) == ("m1", 3)
    assert line["time"].endswith("Z")
