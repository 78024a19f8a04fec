from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from sheets.services import api_token_create


class Command(BaseCommand):
    help = "Cria um token de API para USERNAME; mostra o token uma vez e guarda só o hash."

    def add_arguments(self, parser):
        parser.add_argument("username", help="O usuário dono do token.")

    def handle(self, *args, username, **options):
        User = get_user_model()
        try:
            user = User.objects.get(username=username)
        except User.DoesNotExist as error:
            raise CommandError(f"Usuário desconhecido: {username}") from error
        token = api_token_create(user=user)
        self.stdout.write(token)
