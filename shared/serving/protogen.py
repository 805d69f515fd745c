"""Per-game ``.proto`` files, generated from the rules' types, and the protoc step.

Every game service has the same RPCs; only the command, event and view types differ.
``render_game_proto`` writes them all into ``proto/tabula/<game>/v1/<game>.proto`` so the
rules stay the single source of truth; ``tabula proto --check`` fails when it is stale.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from shared.core.decider import Rules
from shared.core.protorender import render_proto
from shared.core.reasons import proto_comment, rule_reasons
from shared.core.wire import proto_name

SERVICE = """
// The rule service of one game: matches, views, commands, live events, replays and logs.
service {Name}Service {{
  // Set up a match (called by the lobby with a service token).
  rpc CreateMatch(CreateMatchRequest) returns (CreateMatchResponse);
  // The caller's view at the head, with the commands the caller may send now.
  rpc GetView(GetViewRequest) returns (GetViewResponse);
  // Decide and append one command; expected_version and command_id make retries safe.
  rpc SubmitCommand(SubmitCommandRequest) returns (SubmitCommandResponse);
  // The caller's seat resigns (a seat token): a greedy bot plays it from then on and it places last.
  rpc Resign(ResignRequest) returns (ResignResponse);
  // The caller's seat takes back its latest command (a seat token), unless it revealed anything or
  // another seat or the system acted since; refused with a reason code otherwise.
  rpc Undo(UndoRequest) returns (UndoResponse);
  // Events from a version on, redacted for the caller, with keepalives; resumable.
  rpc WatchMatch(WatchMatchRequest) returns (stream WatchMatchResponse);
  // The caller's view at any version.
  rpc Replay(ReplayRequest) returns (ReplayResponse);
  // The whole log: after the match ends, or to the system.
  rpc ExportLog(ExportLogRequest) returns (ExportLogResponse);
  // The game's components (cards, tiles, board spaces ...), typed, with costs, effects and an
  // English text for each. Public and the same for every match: no token needed.
  rpc GetContent(GetContentRequest) returns (GetContentResponse);
}}

// A match to set up.
message CreateMatchRequest {{
  string match_id = 1;
  int32 seats = 2;
  map<string, string> options = 3;
  int64 seed = 4;  // 0: the server draws one
  map<int32, string> bots = 5;  // seat -> bot level ("random", "greedy", "mcts")
  int32 turn_seconds = 6;  // 0: no turn clock
  repeated string players = 7;  // player id per seat ("" for a bot)
  repeated string display_names = 8;  // display name per seat ("" for a bot): views label seats with them
}}

// The match and its version after the setup events.
message CreateMatchResponse {{
  string match_id = 1;
  int64 version = 2;
}}

// Read the caller's view of a match.
message GetViewRequest {{
  string match_id = 1;
}}

// The caller's view at the head and what may happen next.
message GetViewResponse {{
  int64 version = 1;
  {View} view = 2;
  repeated Command legal_commands = 3;  // what the caller may send now
  repeated int32 seats_to_act = 4;
  bool system_to_act = 5;  // a round, period or game end is due
  optional tabula.common.v1.MatchOutcome outcome = 6;  // set once the match has ended
  repeated tabula.common.v1.Seat seats = 7;  // who plays each seat (names, bots), in seat order
  repeated tabula.common.v1.TurnClock clocks = 8;  // each human seat to act, in a match with a turn clock
  repeated int32 resigned = 9;  // the seats that resigned, in the order they did (a bot plays them)
  bool undoable = 10;  // the caller's seat may take back its latest command now (Undo)
}}

// One command for the caller's seat (or the system).
message SubmitCommandRequest {{
  string match_id = 1;
  int64 expected_version = 2;  // the version the caller saw; a stale one is refused (ABORTED)
  string command_id = 3;  // unique per command: a retry with the same id returns the first result
  Command command = 4;
}}

// The versions the command's events were appended at.
message SubmitCommandResponse {{
  int64 first_version = 1;
  int64 last_version = 2;
  bool duplicate = 3;
}}

// The caller's seat resigns the match.
message ResignRequest {{
  string match_id = 1;
  optional int64 expected_version = 2;  // set: refused (ABORTED) unless the match is at it; unset: the head
  string command_id = 3;  // unique per resignation: a retry with the same id returns the first result
}}

// The version the resignation was appended at.
message ResignResponse {{
  int64 first_version = 1;
  int64 last_version = 2;
  bool duplicate = 3;
}}

// The caller's seat takes back its latest command.
message UndoRequest {{
  string match_id = 1;
  int64 expected_version = 2;  // the version the caller saw; a stale one is refused (ABORTED)
  string command_id = 3;  // unique per undo: a retry with the same id returns the first result
}}

// The version the undo was appended at, and the version whose state the match returned to.
message UndoResponse {{
  int64 first_version = 1;
  int64 last_version = 2;
  bool duplicate = 3;
  int64 to_version = 4;  // the version whose state the match is back in (0: the id was another call's)
}}

// Follow a match's events.
message WatchMatchRequest {{
  string match_id = 1;
  int64 from_version = 2;
}}

// One stored event as the caller may see it: its envelope and the decoded event.
message MatchEvent {{
  tabula.common.v1.EventEnvelope envelope = 1;
  Event event = 2;
  // the seat that acted (its player, its bot, or its turn clock); unset for the system
  optional tabula.common.v1.Seat actor_seat = 3;
  // set instead of event when the platform appended it (envelope.type "tabula.common.v1.SeatResigned"
  // or "tabula.common.v1.CommandsUndone")
  optional tabula.common.v1.PlatformEvent platform = 4;
}}

// An event, or a keepalive when idle.
message WatchMatchResponse {{
  oneof item {{
    MatchEvent event = 1;
    tabula.common.v1.Keepalive keepalive = 2;
  }}
}}

// Read the caller's view at a version.
message ReplayRequest {{
  string match_id = 1;
  int64 version = 2;
}}

// The caller's view at that version.
message ReplayResponse {{
  int64 version = 1;
  {View} view = 2;
  repeated tabula.common.v1.Seat seats = 3;  // who plays each seat (names, bots), in seat order
  repeated int32 resigned = 4;  // the seats that had resigned at that version, in the order they did
}}

// Read a whole match log.
message ExportLogRequest {{
  string match_id = 1;
}}

// Every event of the match, in version order.
message ExportLogResponse {{
  repeated MatchEvent events = 1;
}}

// Read the game's content.
message GetContentRequest {{}}

{content}"""


@dataclass(frozen=True)
class GameModules:
    """A game's generated code: ``<game>_pb2`` and ``<game>_pb2_grpc``."""

    pb2: ModuleType
    pb2_grpc: ModuleType
    name: str  # "Chess" for ChessService (the manifest's service_name without "Service")


def proto_path(game: str) -> Path:
    return Path("proto") / "tabula" / game / "v1" / f"{game}.proto"


CONTENT = """// Every component of the game, typed, each with an English text generated from the data.
message GetContentResponse {{
  {Content} content = 1;
}}
"""

NO_CONTENT = """// This game describes no components: its view says everything.
message GetContentResponse {}
"""


def render_game_proto(rules: Rules[Any, Any, Any, Any, Any], source: str, content: type | None = None) -> str:
    """The game's ``.proto``: its types, the ``Command`` / ``Event`` oneofs and the service.

    ``content`` is the root ``@message`` of the game's content (its manifest's ``content`` hook),
    the type of ``GetContentResponse.content``; a game without one answers an empty message. The
    rules' reason codes, read from ``source`` (``shared.core.reasons``), are listed above the service.
    """
    game = rules.game
    header = f"Generated by `tabula proto` from {source}: do not edit by hand.\nGame: {game}."
    text = render_proto(
        f"tabula.{game}.v1",
        [rules.view_type, *([content] if content is not None else [])],
        {"Command": rules.command_types, "Event": rules.event_types},
        header,
        {
            "Command": rules.reserved_command_tags,
            "Event": rules.reserved_event_tags,
        },
    )
    lines = text.splitlines()
    at = lines.index(f"package tabula.{game}.v1;") + 1
    lines[at:at] = ["", 'import "tabula/common/v1/common.proto";']
    tail = CONTENT.format(Content=proto_name(content)) if content is not None else NO_CONTENT
    service = SERVICE.format(Name=game.capitalize(), View=rules.view_type.__name__, content=tail)
    reasons = proto_comment(rule_reasons(source))  # a code that is not a literal: ReasonError
    return "\n".join([*lines, "", *reasons, ""]) + service


def compile_protos(proto_root: Path, out_dir: Path, includes: tuple[Path, ...] = ()) -> None:
    """protoc (from grpcio-tools) for every .proto under proto_root, into out_dir.

    No ``__init__.py`` is written: ``tabula`` stays a namespace package, so code generated
    into several folders (the repo's ``gen/``, a test's temporary one) imports side by side.
    """
    from grpc_tools import protoc

    out_dir.mkdir(parents=True, exist_ok=True)
    files = sorted(str(p.relative_to(proto_root)) for p in proto_root.rglob("*.proto"))
    include = Path(protoc.__file__).parent / "_proto"
    args = [
        "protoc",
        f"-I{proto_root}",
        *(f"-I{p}" for p in includes),
        f"-I{include}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *files,
    ]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed on {proto_root}")
    if str(out_dir) not in sys.path:
        sys.path.insert(0, str(out_dir))
