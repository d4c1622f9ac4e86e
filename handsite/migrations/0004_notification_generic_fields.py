"""The outbox becomes generic (issue 11, one direction): new columns first; 0005 fills them from the
old game columns; 0006 drops the game foreign key and the game columns."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("handsite", "0003_user_pending_invitation"),
    ]

    operations = [
        migrations.AlterField(
            model_name="notification",
            name="kind",
            field=models.CharField(max_length=30, verbose_name="kind"),
        ),
        migrations.AddField(
            model_name="notification",
            name="key",
            field=models.CharField(blank=True, max_length=150, null=True, verbose_name="key"),
        ),
        migrations.AddField(
            model_name="notification",
            name="topic",
            field=models.CharField(blank=True, default="", max_length=60, verbose_name="topic"),
        ),
        migrations.AddField(
            model_name="notification",
            name="subject",
            field=models.CharField(blank=True, default="", max_length=200, verbose_name="subject"),
        ),
        migrations.AddField(
            model_name="notification",
            name="body",
            field=models.TextField(blank=True, default="", verbose_name="text"),
        ),
        migrations.AddField(
            model_name="notification",
            name="link",
            field=models.CharField(blank=True, default="", max_length=500, verbose_name="link"),
        ),
        migrations.AddField(
            model_name="notification",
            name="data",
            field=models.JSONField(blank=True, default=dict, verbose_name="data"),
        ),
        migrations.AddField(
            model_name="notificationpreference",
            name="last_seen_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="last seen at"),
        ),
    ]
