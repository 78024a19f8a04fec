"""The Campaign's admin sits here, above the apps: a campaign made in it is seeded with what
every app gives a new campaign (garganta_site.founding)."""

from django.contrib import admin
from django.core.exceptions import ValidationError

from campaigns.errors import ServiceError
from campaigns.models import Campaign
from campaigns.services import RULESET_FIXED, ruleset_checked, ruleset_fixed
from garganta_site.founding import campaign_seed


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    """A campaign made here starts with its registers and tables, as campaign_create does; its
    ruleset is read-only once it has a sheet or a roll (campaigns.services.ruleset_fixed)."""

    list_display = ("name", "slug", "ruleset")

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and ruleset_fixed(obj):
            return ("ruleset",)
        return ()

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)

        def clean_ruleset(self):
            ruleset = self.cleaned_data["ruleset"]
            try:
                ruleset_checked(ruleset)
            except ServiceError as error:
                raise ValidationError(error.message) from None
            stored = self.instance
            if stored.pk and ruleset != stored.ruleset and ruleset_fixed(stored):
                raise ValidationError(RULESET_FIXED)  # a sheet arrived since the form opened
            return ruleset

        if "ruleset" in form.base_fields:
            form.clean_ruleset = clean_ruleset
        return form

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change:
            campaign_seed(campaign=obj)
