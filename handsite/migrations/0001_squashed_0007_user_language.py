"""handsite's tables as they are now, in one migration of handsite alone (it depends on no other app).

It replaces 0001_initial to 0007_user_language: a database that applied those is up to date with it,
and a new database creates the tables at once."""

import django.contrib.auth.validators
import django.core.validators
import django.db.models.deletion
import django.db.models.functions.text
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

import handsite.models


class Migration(migrations.Migration):
    initial = True

    replaces = [
        ("handsite", "0001_initial"),
        ("handsite", "0002_notifications"),
        ("handsite", "0003_user_pending_invitation"),
        ("handsite", "0004_notification_generic_fields"),
        ("handsite", "0005_notification_generic_data"),
        ("handsite", "0006_notification_without_game"),
        ("handsite", "0007_user_language"),
    ]

    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.CreateModel(
            name="User",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("password", models.CharField(max_length=128, verbose_name="password")),
                ("last_login", models.DateTimeField(blank=True, null=True, verbose_name="last login")),
                (
                    "is_superuser",
                    models.BooleanField(
                        default=False,
                        help_text="Designates that this user has all permissions without explicitly assigning them.",
                        verbose_name="superuser status",
                    ),
                ),
                (
                    "username",
                    models.CharField(
                        error_messages={"unique": "A user with that username already exists."},
                        help_text="Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.",
                        max_length=150,
                        unique=True,
                        validators=[django.contrib.auth.validators.UnicodeUsernameValidator()],
                        verbose_name="username",
                    ),
                ),
                ("first_name", models.CharField(blank=True, max_length=150, verbose_name="first name")),
                ("last_name", models.CharField(blank=True, max_length=150, verbose_name="last name")),
                (
                    "is_staff",
                    models.BooleanField(
                        default=False,
                        help_text="Designates whether the user can log into this admin site.",
                        verbose_name="staff status",
                    ),
                ),
                (
                    "is_active",
                    models.BooleanField(
                        default=True,
                        help_text="Designates whether this user should be treated as active. Unselect this instead of deleting accounts.",
                        verbose_name="active",
                    ),
                ),
                (
                    "date_joined",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="date joined"),
                ),
                ("email", models.EmailField(max_length=254, unique=True, verbose_name="e-mail address")),
                (
                    "display_name",
                    models.CharField(
                        blank=True,
                        help_text="The name other players see. Leave empty to use the start of your e-mail address.",
                        max_length=60,
                        verbose_name="display name",
                    ),
                ),
                (
                    "language",
                    models.CharField(
                        blank=True,
                        choices=[("ar", "العربية"), ("en", "English")],
                        default="",
                        max_length=8,
                        verbose_name="language",
                    ),
                ),
                (
                    "groups",
                    models.ManyToManyField(
                        blank=True,
                        help_text="The groups this user belongs to. A user will get all permissions granted to each of their groups.",
                        related_name="user_set",
                        related_query_name="user",
                        to="auth.group",
                        verbose_name="groups",
                    ),
                ),
                (
                    "user_permissions",
                    models.ManyToManyField(
                        blank=True,
                        help_text="Specific permissions for this user.",
                        related_name="user_set",
                        related_query_name="user",
                        to="auth.permission",
                        verbose_name="user permissions",
                    ),
                ),
            ],
            options={
                "verbose_name": "user",
                "verbose_name_plural": "users",
            },
            managers=[
                ("objects", handsite.models.EmailUserManager()),
            ],
        ),
        migrations.CreateModel(
            name="Invitation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "token",
                    models.CharField(
                        default=handsite.models.new_token, max_length=64, unique=True, verbose_name="token"
                    ),
                ),
                ("email", models.EmailField(blank=True, max_length=254, verbose_name="e-mail address")),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="created at"),
                ),
                ("expires_at", models.DateTimeField(blank=True, null=True, verbose_name="expires at")),
                ("revoked_at", models.DateTimeField(blank=True, null=True, verbose_name="revoked at")),
                ("sent_at", models.DateTimeField(blank=True, null=True, verbose_name="e-mail sent at")),
                ("accepted_at", models.DateTimeField(blank=True, null=True, verbose_name="accepted at")),
                (
                    "accepted_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "invitation",
                "verbose_name_plural": "invitations",
            },
        ),
        migrations.AddField(
            model_name="user",
            name="pending_invitation",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="handsite.invitation",
                verbose_name="pending invitation",
            ),
        ),
        migrations.CreateModel(
            name="Membership",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        choices=[("owner", "Owner"), ("admin", "Admin"), ("member", "Member")],
                        default="member",
                        max_length=10,
                        verbose_name="role",
                    ),
                ),
                (
                    "joined_at",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="joined at"),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memberships",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "membership",
                "verbose_name_plural": "memberships",
                "ordering": ["joined_at", "pk"],
            },
        ),
        migrations.CreateModel(
            name="NotificationPreference",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "your_turn_email",
                    models.BooleanField(
                        default=True,
                        help_text="Sent at once when the turn reaches you.",
                        verbose_name="e-mail me when it is my turn",
                    ),
                ),
                (
                    "reminders",
                    models.BooleanField(default=True, verbose_name="remind me while it stays my turn"),
                ),
                (
                    "first_reminder_hours",
                    models.PositiveSmallIntegerField(
                        default=12,
                        validators=[
                            django.core.validators.MinValueValidator(1),
                            django.core.validators.MaxValueValidator(336),
                        ],
                        verbose_name="first reminder after (hours)",
                    ),
                ),
                (
                    "reminder_every_hours",
                    models.PositiveSmallIntegerField(
                        default=24,
                        validators=[
                            django.core.validators.MinValueValidator(1),
                            django.core.validators.MaxValueValidator(336),
                        ],
                        verbose_name="then remind me every (hours)",
                    ),
                ),
                (
                    "daily_digest",
                    models.BooleanField(
                        default=False,
                        help_text="One e-mail a day listing every game where it is your turn, instead of the e-mails above.",
                        verbose_name="one daily digest instead",
                    ),
                ),
                (
                    "digest_hour",
                    models.PositiveSmallIntegerField(
                        default=8,
                        validators=[django.core.validators.MaxValueValidator(23)],
                        verbose_name="digest at (hour, your time)",
                    ),
                ),
                ("time_zone", models.CharField(default="UTC", max_length=64, verbose_name="time zone")),
                ("quiet_start", models.TimeField(blank=True, null=True, verbose_name="quiet hours from")),
                ("quiet_end", models.TimeField(blank=True, null=True, verbose_name="quiet hours until")),
                (
                    "vacation_started_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="vacation started at"),
                ),
                (
                    "vacation_until",
                    models.DateTimeField(blank=True, null=True, verbose_name="on vacation until"),
                ),
                ("vacation_year", models.PositiveSmallIntegerField(default=0, verbose_name="vacation year")),
                (
                    "vacation_days_used",
                    models.PositiveSmallIntegerField(default=0, verbose_name="vacation days used this year"),
                ),
                ("last_seen_at", models.DateTimeField(blank=True, null=True, verbose_name="last seen at")),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notification_preference",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "notification preference",
                "verbose_name_plural": "notification preferences",
            },
        ),
        migrations.CreateModel(
            name="PlayerGroup",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=80, verbose_name="name")),
                ("slug", models.SlugField(max_length=100, unique=True, verbose_name="slug")),
                ("description", models.TextField(blank=True, max_length=1000, verbose_name="description")),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="created at"),
                ),
                (
                    "members",
                    models.ManyToManyField(
                        related_name="player_groups",
                        through="handsite.Membership",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="members",
                    ),
                ),
            ],
            options={
                "verbose_name": "player group",
                "verbose_name_plural": "player groups",
                "ordering": [django.db.models.functions.text.Lower("name"), "pk"],
            },
        ),
        migrations.AddField(
            model_name="membership",
            name="group",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="memberships",
                to="handsite.playergroup",
                verbose_name="group",
            ),
        ),
        migrations.AddField(
            model_name="invitation",
            name="group",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="invitations",
                to="handsite.playergroup",
                verbose_name="group",
            ),
        ),
        migrations.CreateModel(
            name="Notification",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("kind", models.CharField(max_length=30, verbose_name="kind")),
                (
                    "key",
                    models.CharField(blank=True, max_length=150, null=True, unique=True, verbose_name="key"),
                ),
                ("topic", models.CharField(blank=True, default="", max_length=60, verbose_name="topic")),
                ("subject", models.CharField(blank=True, default="", max_length=200, verbose_name="subject")),
                ("body", models.TextField(blank=True, default="", verbose_name="text")),
                ("link", models.CharField(blank=True, default="", max_length=500, verbose_name="link")),
                ("data", models.JSONField(blank=True, default=dict, verbose_name="data")),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting to be sent"),
                            ("sending", "Being sent"),
                            ("sent", "E-mailed"),
                            ("skipped", "Not e-mailed"),
                            ("failed", "Could not be sent"),
                        ],
                        default="pending",
                        max_length=10,
                        verbose_name="state",
                    ),
                ),
                (
                    "send_after",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="send after"),
                ),
                ("attempts", models.PositiveSmallIntegerField(default=0, verbose_name="attempts")),
                ("claimed_at", models.DateTimeField(blank=True, null=True, verbose_name="claimed at")),
                ("sent_at", models.DateTimeField(blank=True, null=True, verbose_name="sent at")),
                ("last_error", models.CharField(blank=True, max_length=300, verbose_name="last error")),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="created at"),
                ),
                ("read_at", models.DateTimeField(blank=True, null=True, verbose_name="read at")),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notifications",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "notification",
                "verbose_name_plural": "notifications",
                "ordering": ["-created_at", "-pk"],
                "indexes": [
                    models.Index(
                        condition=models.Q(("state", "pending")),
                        fields=["send_after"],
                        name="notification_pending",
                    ),
                    models.Index(
                        condition=models.Q(("state", "sending")),
                        fields=["claimed_at"],
                        name="notification_sending",
                    ),
                    models.Index(fields=["user", "-created_at"], name="notification_user_list"),
                    models.Index(
                        condition=models.Q(("read_at__isnull", True)),
                        fields=["user"],
                        name="notification_unread",
                    ),
                    models.Index(
                        condition=models.Q(("read_at__isnull", True)),
                        fields=["user", "topic"],
                        name="notification_unread_topic",
                    ),
                ],
            },
        ),
        migrations.AddConstraint(
            model_name="membership",
            constraint=models.UniqueConstraint(fields=("group", "user"), name="one_membership_per_group"),
        ),
    ]
