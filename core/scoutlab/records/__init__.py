"""Games and positions as files: game records (JSON, replayable) and positions (YAML), each with its schema.

The names here are the public API of records (docs/records.md, docs/api.md); positions are
in `scoutlab.records.position` (docs/positions.md).
"""

from scoutlab.records.game import (
    RecordError,
    check_record,
    game_record,
    load_record,
    parse_record,
    record_text,
    replay_record,
    save_record,
)

__all__ = ["RecordError", "check_record", "game_record", "load_record", "parse_record", "record_text", "replay_record", "save_record"]
