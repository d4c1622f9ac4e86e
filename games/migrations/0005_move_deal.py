from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_game_staged"),
    ]

    operations = [
        migrations.AddField(
            model_name="move",
            name="deal",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="deal"),
        ),
    ]
