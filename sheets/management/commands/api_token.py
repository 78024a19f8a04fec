from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from campaigns.auth import api_token_create, api_tokens_revoke


class Command(BaseCommand):
    help = "Cria um token de API para USERNAME (mostrado uma vez; guarda-se só o hash), ou revoga os dele."

    def add_arguments(self, parser):
        parser.add_argument("username", help="O usuário dono do token.")
        parser.add_argument(
            "--revoke", action="store_true", help="Revoga todos os tokens ativos do usuário."
        )

    def handle(self, *args, username, revoke=False, **options):
        User = get_user_model()
        try:
            user = User.objects.get(username=username)
        except User.DoesNotExist as error:
            raise CommandError(f"Usuário desconhecido: {username}") from error
        if revoke:
            count = api_tokens_revoke(user=user)
            self.stdout.write(f"{count} token(s) revogado(s) de {username}.")
            return
        self.stdout.write(api_token_create(user=user))
