"""Fill the generic columns of existing notifications from the old game columns (a database that
already has the old schema keeps every row, its exactly-once key and its unread state).

The key and topic formats are games' (games/notifications.py: ``turn_key`` and ``topic``); they are
written out here because a migration must not import app code that may change later."""

from django.db import migrations


def forwards(apps, schema_editor):
    Notification = apps.get_model("handsite", "Notification")
    for row in Notification.objects.all().only(
        "pk", "user_id", "kind", "game_id", "seat", "turn", "number", "day"
    ):
        if row.game_id is not None:
            row.key = f"game:{row.game_id}:{row.seat}:{row.turn}:{row.kind}:{row.number}"
            row.topic = f"game:{row.game_id}"
            row.data = {"game": row.game_id, "seat": row.seat, "turn": row.turn, "number": row.number}
        elif row.day is not None:
            row.key = f"{row.kind}:{row.user_id}:{row.day.isoformat()}"
            row.data = {"day": row.day.isoformat()}
        else:
            continue
        row.save(update_fields=["key", "topic", "data"])


def backwards(apps, schema_editor):
    import datetime as dt

    Notification = apps.get_model("handsite", "Notification")
    for row in Notification.objects.all():
        data = row.data or {}
        if "game" in data:
            row.game_id = data["game"]
            row.seat, row.turn, row.number = data.get("seat"), data.get("turn"), data.get("number") or 0
        elif "day" in data:
            row.day = dt.date.fromisoformat(data["day"])
        row.save(update_fields=["game", "seat", "turn", "number", "day"])


class Migration(migrations.Migration):
    dependencies = [
        ("handsite", "0004_notification_generic_fields"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
