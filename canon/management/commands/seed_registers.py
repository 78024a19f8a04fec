from django.core.management.base import BaseCommand

from canon.services import registers_seed_all


class Command(BaseCommand):
    help = (
        "Põe os itens do próprio cânone nos registros de cada campanha (idempotente; o migrate "
        "já faz isto sozinho)."
    )

    def handle(self, *args, **options):
        for slug, count in registers_seed_all().items():
            self.stdout.write(
                f"{slug}: {count.decisions} decisões, {count.corrections} correções e "
                f"{count.divergences} pendências novas"
            )
