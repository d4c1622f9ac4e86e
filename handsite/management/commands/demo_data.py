import importlib
import importlib.util

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand

from handsite import demo as base_demo


def project_demo_modules():
    """`<app>.demo` modules of the project's own apps (not handsite, whose demo is the base)."""
    for config in apps.get_app_configs():
        if config.name == "handsite" or not str(config.path).startswith(str(settings.BASE_DIR)):
            continue
        name = f"{config.name}.demo"
        if importlib.util.find_spec(name) is not None:
            yield importlib.import_module(name)


class Command(BaseCommand):
    help = "Create demo users and a demo group (safe to run again), then each app's demo content."

    def handle(self, *args, **options):
        demo = base_demo.load_base(self.stdout.write)
        for module in project_demo_modules():
            module.load(demo)
        site = settings.SITE_URL.rstrip("/")  # .ci/serve sets it from PORT
        self.stdout.write(self.style.SUCCESS(f"Demo data is ready. Log in at {site}/ as:"))
        for user in demo.users.values():
            self.stdout.write(f"  {user.email}  /  {demo.password}   ({user.name})")
        self.stdout.write(f"Demo group: {demo.group.get_absolute_url()}")
