from django.core.management.base import BaseCommand

from garganta_site.demo_xuleta import demo_xuleta_seed


class Command(BaseCommand):
    help = (
        "Cria, uma vez, a campanha de demonstração O Vau das Brumas na Xuleta (d20): três fichas "
        "homologadas, uma luta contra três lobos e um dia de jornada com marcha forçada."
    )

    def handle(self, *args, **options):
        made = demo_xuleta_seed()
        campaign = made["campaign"]
        self.stdout.write(
            f"Xuleta em «{campaign.name}»: luta em /cenas/{made['fight_scene'].code}/combate/, "
            f"jornada em /cenas/{made['journey_scene'].code}/ (mesmos logins)."
        )
