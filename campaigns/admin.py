from django.contrib import admin

from campaigns.models import Membership

admin.site.register(Membership)
