import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from garganta_site import backup


class Command(BaseCommand):
    help = (
        "Exporta uma campanha inteira (fichas, mesa, cânone, rolagens com seus hashes, "
        "membros e seus tokens em hash) num documento JSON que import_campaign lê."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="O slug da campanha: a-garganta.")
        parser.add_argument("--output", "-o", help="Arquivo a escrever (padrão: a saída padrão).")

    def handle(self, *args, slug, output=None, **options):
        try:
            document = backup.export_campaign(slug)
        except backup.BackupError as error:
            raise CommandError(str(error)) from None
        text = backup.dumps(document)
        if output:
            Path(output).write_text(text, encoding="utf-8")
            self.stdout.write(f"Exportada {backup.summary(document)} → {output}")
        else:
            self.stdout.write(text, ending="")
            sys.stderr.write(f"Exportada {backup.summary(document)}\n")
