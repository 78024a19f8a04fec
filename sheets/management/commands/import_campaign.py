from django.core.management.base import BaseCommand, CommandError

from garganta_site import backup


class Command(BaseCommand):
    help = (
        "Importa, num banco vazio (recém-migrado), uma campanha exportada por "
        "export_campaign; confere contagens, conteúdo e a cadeia de rolagens, e desfaz tudo "
        "se algo não confere."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="O arquivo JSON de export_campaign.")

    def handle(self, *args, file, **options):
        try:
            result = backup.import_campaign(backup.read(file))
        except backup.BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(result.summary())
