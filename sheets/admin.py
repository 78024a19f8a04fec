from django.contrib import admin

from sheets.models import Character, CharacterState, Item, Possession, SheetVersion, Skill, Trait


class VersionLineInline(admin.TabularInline):
    """Lines of a submitted or homologated version are read-only, like the version."""

    extra = 0

    def _editable(self, obj) -> bool:
        return obj is None or obj.is_editable

    def has_add_permission(self, request, obj=None):
        return self._editable(obj)

    def has_change_permission(self, request, obj=None):
        return self._editable(obj)

    def has_delete_permission(self, request, obj=None):
        return self._editable(obj)


class SkillInline(VersionLineInline):
    model = Skill


class TraitInline(VersionLineInline):
    model = Trait


class ItemInline(VersionLineInline):
    model = Item


@admin.register(SheetVersion)
class SheetVersionAdmin(admin.ModelAdmin):
    list_display = ("character", "number", "status", "decided_at")
    list_filter = ("status",)
    inlines = [TraitInline, SkillInline, ItemInline]

    def has_delete_permission(self, request, obj=None):
        return obj is None or obj.is_editable

    def get_readonly_fields(self, request, obj=None):
        # A submitted or homologated version never changes (docs/DESIGN.md,
        # invariant 6 (A homologated sheet does not change)).
        if obj is not None and not obj.is_editable:
            return [f.name for f in obj._meta.fields]
        return []


admin.site.register(Character)
admin.site.register(CharacterState)
admin.site.register(Possession)
