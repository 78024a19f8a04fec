from django.urls import path

from sessions.procedure import views as procedure_views

urlpatterns = [
    path(
        "cenas/<uuid:code>/procedimento/",
        procedure_views.procedure_roll_add,
        name="procedure-roll-add",
    ),
    path("mesa/tabelas/", procedure_views.procedure_tables_page, name="procedure-tables"),
    path("mesa/tabelas/nova/", procedure_views.procedure_table_add, name="procedure-table-add"),
    path(
        "mesa/tabelas/<uuid:code>/",
        procedure_views.procedure_table_page,
        name="procedure-table",
    ),
    path(
        "mesa/tabelas/<uuid:code>/linhas/<int:position>/",
        procedure_views.procedure_row_edit,
        name="procedure-row-edit",
    ),
    path(
        "mesa/tabelas/<uuid:code>/linhas/nova/",
        procedure_views.procedure_row_add,
        name="procedure-row-add",
    ),
]
