from django.urls import path

from canon import views

urlpatterns = [
    path("homologacao/", views.queue, name="queue"),
    path("homologacao/<uuid:code>/homologar/", views.homologate, name="homologate"),
    path("homologacao/<uuid:code>/devolver/", views.return_version, name="return-version"),
]
