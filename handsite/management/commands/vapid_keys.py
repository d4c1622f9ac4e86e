"""Make a VAPID key pair for Web Push (py-vapid) and print the three settings to put in the
environment (README "Push notifications"). The private key is printed once, here, and nowhere else."""

from django.core.management.base import BaseCommand, CommandError

from handsite.push.messages import valid_subject


def new_keys() -> tuple[str, str]:
    """(private, public): the private key as its 32 raw bytes and the public key as the uncompressed
    point browsers take as ``applicationServerKey``, both base64url without padding."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    from py_vapid import Vapid
    from py_vapid.utils import b64urlencode

    vapid = Vapid()
    vapid.generate_keys()
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    public = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64urlencode(private), b64urlencode(public)


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push as environment settings."

    def add_arguments(self, parser):
        parser.add_argument(
            "--subject",
            default="",
            help="Who runs the site, for push services: mailto:you@example.com or an https:// URL.",
        )

    def handle(self, *args, subject: str, **options):
        if subject and not valid_subject(subject):
            raise CommandError("The subject must be a mailto: address or an https:// URL.")
        private, public = new_keys()
        self.stdout.write(f"HANDSITE_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"HANDSITE_VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"HANDSITE_VAPID_SUBJECT={subject or 'mailto:you@example.com'}")
