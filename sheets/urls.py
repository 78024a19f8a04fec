from django.urls import path

from sheets import draft_views, live, views

urlpatterns = [
    path("", views.home, name="home"),
    path("fichas/<uuid:code>/", views.sheet_detail, name="sheet"),
    path("fichas/<uuid:code>/vivo/", views.sheet_live, name="sheet-live"),
    path("fichas/<uuid:code>/eventos/", live.sheet_events, name="sheet-events"),
    path(
        "fichas/<uuid:code>/pertences/<uuid:possession_code>/carregar/",
        views.possession_carry,
        name="possession-carry",
    ),
    path(
        "fichas/<uuid:code>/pertences/<uuid:possession_code>/quantidade/",
        views.possession_quantity,
        name="possession-quantity",
    ),
    path("fichas/<uuid:code>/espolio/", views.loot_add, name="loot-add"),
    path(
        "fichas/<uuid:code>/pertences/<uuid:possession_code>/remover/",
        views.loot_remove,
        name="loot-remove",
    ),
    path("fichas/<uuid:code>/rascunho/", draft_views.draft_edit, name="draft"),
    path("fichas/<uuid:code>/rascunho/enviar/", draft_views.draft_submit, name="draft-submit"),
    path("fichas/<uuid:code>/rascunho/importar/", draft_views.draft_import, name="draft-import"),
    path("fichas/<uuid:code>/sem-a-pericia/", draft_views.sheet_defaults, name="sheet-defaults"),
    path("fichas/<uuid:code>/historico/", views.sheet_history, name="sheet-history"),
    path("conta/", views.account, name="account"),
    path("conta/tokens/", views.account_token_create, name="account-token-create"),
    path(
        "conta/tokens/<uuid:code>/revogar/",
        views.account_token_revoke,
        name="account-token-revoke",
    ),
    path(
        "conta/tokens/revogar-todos/",
        views.account_tokens_revoke_all,
        name="account-tokens-revoke-all",
    ),
]
