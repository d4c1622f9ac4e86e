"""The outbox no longer knows games: the foreign key to games.Game and the game columns go (their
content is in key/topic/data since 0005); the key is unique (exactly once)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("handsite", "0005_notification_generic_data"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="notification", name="one_notification_per_game_turn_kind"),
        migrations.RemoveConstraint(model_name="notification", name="one_digest_per_user_day"),
        migrations.RemoveField(model_name="notification", name="game"),
        migrations.RemoveField(model_name="notification", name="seat"),
        migrations.RemoveField(model_name="notification", name="turn"),
        migrations.RemoveField(model_name="notification", name="number"),
        migrations.RemoveField(model_name="notification", name="day"),
        migrations.AlterField(
            model_name="notification",
            name="key",
            field=models.CharField(blank=True, max_length=150, null=True, unique=True, verbose_name="key"),
        ),
        migrations.AddIndex(
            model_name="notification",
            index=models.Index(
                condition=models.Q(("read_at__isnull", True)),
                fields=["user", "topic"],
                name="notification_unread_topic",
            ),
        ),
    ]
