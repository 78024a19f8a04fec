from django.core.management.base import BaseCommand

from campaigns.models import Campaign
from sessions.demo import demo_combat_start


class Command(BaseCommand):
    help = (
        "Começa, uma vez, na cena de demonstração, um combate do Jurado e do Hoplita contra "
        "dois cavadores-cinzentos (dados de demonstração do Mestre, não cânone)."
    )

    def handle(self, *args, **options):
        combat = demo_combat_start(Campaign.objects.get(slug="a-garganta"))
        if combat is None:
            self.stdout.write("A cena de demonstração já não aceita entradas: nenhum combate.")
            return
        self.stdout.write(f"Combate de demonstração: /cenas/{combat.scene.code}/combate/")
