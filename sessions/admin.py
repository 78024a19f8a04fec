from django.contrib import admin

from sessions.models import (
    Declaration,
    ModifierAnnouncement,
    Narration,
    ReportCorrection,
    Roll,
    Scene,
    Week,
    WeeklyReport,
    WorldAction,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Read-only: the log is never added to, changed or deleted by hand (docs/DESIGN.md,
    invariants 2 (Rolls are append-only) and 3 (Modifiers before dice)); the site's services are the
    only way in."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Roll)
class RollAdmin(ReadOnlyAdmin):
    list_display = (
        "sequence",
        "campaign",
        "scene",
        "character",
        "kind",
        "label",
        "total",
        "outcome",
    )
    list_filter = ("campaign", "kind", "outcome", "hidden")


@admin.register(ModifierAnnouncement)
class ModifierAnnouncementAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "scene", "declaration", "author")


@admin.register(ReportCorrection)
class ReportCorrectionAdmin(ReadOnlyAdmin):
    list_display = ("at", "report", "by", "reason")


@admin.register(WeeklyReport)
class WeeklyReportAdmin(ReadOnlyAdmin):
    list_display = ("week", "status", "written_by", "submitted_at", "decided_at", "decided_by")
    list_filter = ("status",)


@admin.register(WorldAction)
class WorldActionAdmin(ReadOnlyAdmin):
    list_display = ("week", "character", "ordinal", "text", "created_at")


admin.site.register(Week)
admin.site.register(Scene)
admin.site.register(Declaration)
admin.site.register(Narration)
