from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_deadline_index_skips_nothing"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="staged",
            field=models.JSONField(blank=True, default=dict, verbose_name="staged melds"),
        ),
    ]
