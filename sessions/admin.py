from django.contrib import admin

from sessions.models import Declaration, Roll, Scene, Week


@admin.register(Roll)
class RollAdmin(admin.ModelAdmin):
    """Read-only: a roll is never added, changed or deleted by hand (DESIGN.md invariant 2)."""

    list_display = ("sequence", "campaign", "scene", "character", "label", "total", "outcome")
    list_filter = ("campaign", "outcome", "hidden")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


admin.site.register(Week)
admin.site.register(Scene)
admin.site.register(Declaration)
