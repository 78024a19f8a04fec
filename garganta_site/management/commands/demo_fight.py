from django.core.management.base import BaseCommand

from garganta_site.demo import demo_fight_seed


class Command(BaseCommand):
    help = (
        "Cria, uma vez, a campanha de demonstração A Ponte de Cordas no Sistema 001 (capítulo de "
        "combate), com mestre, arbitro e jogador, e um combate começado e jogado um turno ou dois."
    )

    def handle(self, *args, **options):
        made = demo_fight_seed()
        scene = made["scene"]
        self.stdout.write(
            f"Combate do Sistema 001 em «{made['campaign'].name}»: /cenas/{scene.code}/combate/"
        )
