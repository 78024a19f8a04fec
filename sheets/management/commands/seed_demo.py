from django.core.management.base import BaseCommand

from garganta_site.demo import DEMO_PASSWORD, demo_seed


class Command(BaseCommand):
    help = "Cria a campanha de demonstração A Garganta (idempotente) e mostra os logins."

    def handle(self, *args, **options):
        logins = demo_seed()
        self.stdout.write(
            f"Campanha de demonstração pronta. Logins (senha de todos: {DEMO_PASSWORD}):"
        )
        for username, role in logins.items():
            self.stdout.write(f"  {username:<12} {role}")
