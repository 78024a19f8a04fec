from django.core.management.base import BaseCommand, CommandError

from campaigns.models import Campaign
from sessions.log.chain import rolls_verify


class Command(BaseCommand):
    help = "Recalcula a cadeia de rolagens de cada campanha e diz se está íntegra."

    def add_arguments(self, parser):
        parser.add_argument("--campaign", help="Slug de uma campanha (padrão: todas).")

    def handle(self, *args, campaign=None, **options):
        campaigns = Campaign.objects.all()
        if campaign:
            campaigns = campaigns.filter(slug=campaign)
        broken = []
        for item in campaigns:
            report = rolls_verify(item)
            if report.ok:
                self.stdout.write(f"{item.slug}: íntegra, {report.count} rolagens")
            else:
                broken.append(f"{item.slug} #{report.first_broken}")
                self.stdout.write(f"{item.slug}: QUEBRADA na rolagem #{report.first_broken}")
        if broken:
            raise CommandError(
                "A cadeia de rolagens está quebrada na rolagem " + ", ".join(broken) + "."
            )
