"""Read what the controller queued, straight from the outbox table (tablet_app/outbox.py)."""
import json


def outbox_items(outbox) -> list[tuple[str, str, dict]]:
    """(key, kind, payload) of every queued item, oldest first."""
    rows = outbox.conn.execute("SELECT item_key, kind, payload FROM outbox ORDER BY id").fetchall()
    return [(k, kind, json.loads(p)) for k, kind, p in rows]
