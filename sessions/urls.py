from django.urls import path

from sessions import views

urlpatterns = [
    path("cenas/<uuid:code>/", views.scene_detail, name="scene"),
    path("cenas/<uuid:code>/registro/", views.scene_log, name="scene-log"),
    path("cenas/<uuid:code>/declarar/", views.declaration_add, name="declaration-add"),
    path("cenas/<uuid:code>/rolar/", views.roll_add, name="roll-add"),
]
