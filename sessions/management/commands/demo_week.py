from django.core.management.base import BaseCommand

from campaigns.models import Campaign
from sessions.demo import demo_week_play


class Command(BaseCommand):
    help = "Joga a cena de demonstração da Semana 1 (depois de seed_demo), uma vez."

    def add_arguments(self, parser):
        parser.add_argument(
            "--homologate",
            action="store_true",
            help="Escreve, envia e homologa o relatório da semana (revela a rolagem escondida).",
        )

    def handle(self, *args, homologate=False, **options):
        scene = demo_week_play(Campaign.objects.get(slug="a-garganta"), homologate=homologate)
        self.stdout.write(f"Semana 1 jogada: /cenas/{scene.code}/")
