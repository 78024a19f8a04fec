"""What a character carries in play: picking up and putting down, quantities, loot, and the
sheet's items following a newly homologated version.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import IntegrityError, transaction

from campaigns.errors import ServiceError
from gurps import derived, encumbrance
from sheets.models import Character, Possession, SheetVersion
from sheets.reads import carried_kg, homologated_version, possessions_of

# Messages are constants so tests import them instead of repeating them.
LOOT_NEEDS_NAME = "Diga o que é o espólio."
WEIGHT_NOT_NEGATIVE = "O peso não pode ser negativo."
WEIGHT_TOO_LARGE = "Peso acima de 10.000 kg: confira o número."
QUANTITY_AT_LEAST_1 = "A quantidade mínima é 1; para deixar o item, use o botão «largar»."
QUANTITY_TOO_LARGE = "Quantidade acima de 10.000: confira o número."
MAX_WEIGHT_KG = Decimal("10000")
CANNOT_LIFT = (
    "Não se ergue: seriam {total} kg carregados, acima de 15 × ST = {limit} kg, o maior peso "
    "que se ergue (§2.2)."
)
MAX_QUANTITY = 10000


def _clean_weight(value) -> Decimal:
    try:
        weight = Decimal(str(value))
    except Exception as error:  # noqa: BLE001 - any unparsable value is the same refusal
        raise ServiceError("Peso inválido.", field="weight_kg") from error
    if not weight.is_finite():
        raise ServiceError("Peso inválido.", field="weight_kg")
    if weight < 0:
        raise ServiceError(WEIGHT_NOT_NEGATIVE, field="weight_kg")
    if weight > MAX_WEIGHT_KG:
        raise ServiceError(WEIGHT_TOO_LARGE, field="weight_kg")
    return weight


def _clean_quantity(value) -> int:
    try:
        quantity = int(value)
    except (TypeError, ValueError) as error:
        raise ServiceError(QUANTITY_AT_LEAST_1, field="quantity") from error
    if quantity < 1:
        raise ServiceError(QUANTITY_AT_LEAST_1, field="quantity")
    if quantity > MAX_QUANTITY:
        raise ServiceError(QUANTITY_TOO_LARGE, field="quantity")
    return quantity


def _refuse_what_cannot_be_lifted(
    character: Character, *, adding_kg: Decimal, leaving: Possession | None, field: str
) -> None:
    """Refuse a change that would leave the character carrying more than 15 × ST, which
    cannot be lifted (§2.2, p. 76): ``adding_kg`` carried besides what is carried now (minus
    ``leaving``, the row the change replaces). Without a homologated sheet there is no ST."""
    version = homologated_version(character)
    if version is None:
        return
    others = [p for p in possessions_of(character) if leaving is None or p.pk != leaving.pk]
    total = carried_kg(others) + adding_kg
    if not encumbrance.encumbrance(version.st, total).can_lift:
        limit = encumbrance.lift_max_kg(version.st)
        raise ServiceError(
            CANNOT_LIFT.format(
                total=derived.format_number(encumbrance.to_kg(total)),
                limit=derived.format_number(limit),
            ),
            field=field,
            code="cannot_lift",
        )


def possession_set_carried(*, possession: Possession, carried: bool) -> Possession:
    """Pick up (``carried``) or put down; picking up more than 15 × ST in all is refused
    (``CANNOT_LIFT``, field ``carried``)."""
    if carried and not possession.carried:
        _refuse_what_cannot_be_lifted(
            possession.character,
            adding_kg=possession.total_weight_kg,
            leaving=possession,
            field="carried",
        )
    Possession.objects.filter(pk=possession.pk).update(carried=carried)
    possession.carried = carried
    return possession


def possession_set_quantity(*, possession: Possession, quantity) -> Possession:
    quantity = _clean_quantity(quantity)
    if possession.carried and quantity > possession.quantity:
        _refuse_what_cannot_be_lifted(
            possession.character,
            adding_kg=possession.unit_weight_kg * quantity,
            leaving=possession,
            field="quantity",
        )
    Possession.objects.filter(pk=possession.pk).update(quantity=quantity)
    possession.quantity = quantity
    return possession


def loot_add(
    *, character: Character, name: str, weight_kg, quantity=1, user, request_key: str = ""
) -> Possession:
    """Add loot picked up in play; it is carried at once, so more than 15 × ST in all is
    refused (``CANNOT_LIFT``, field ``weight_kg``, §2.2). The same ``request_key`` twice (the
    form posted twice) adds it once: a doubled weight would change Carga, Move and Dodge."""
    name = (name or "").strip()
    if not name:
        raise ServiceError(LOOT_NEEDS_NAME, field="name")
    weight = _clean_weight(weight_kg)
    quantity = _clean_quantity(quantity)
    request_key = (request_key or "")[:64]
    earlier = Possession.objects.filter(character=character, request_key=request_key)
    if request_key and earlier.exists():
        return earlier.get()
    _refuse_what_cannot_be_lifted(
        character, adding_kg=weight * quantity, leaving=None, field="weight_kg"
    )
    try:
        with transaction.atomic():
            return Possession.objects.create(
                character=character,
                loot_name=name[:200],
                loot_weight_kg=weight,
                quantity=quantity,
                carried=True,
                added_by=user,
                request_key=request_key,
            )
    except IntegrityError:
        if request_key:  # the same form, posted twice at once
            return earlier.get()
        raise


LOOT_ONLY = "Só espólio se remove; item da ficha se larga, e sai da ficha numa nova versão."


def loot_remove(*, possession: Possession) -> None:
    """Remove loot added in play (a mistake, or given away). Sheet items are never removed here."""
    if not possession.is_loot:
        raise ServiceError(LOOT_ONLY)
    possession.delete()


def possessions_sync(*, character: Character, version: SheetVersion) -> None:
    """Point the character's sheet possessions at a newly homologated version.

    Items keep their carried flag and quantity when the new version has an item of the same
    name; new items start as the sheet says; loot is untouched.
    """
    old = {
        p.item.name.casefold(): p
        for p in Possession.objects.filter(character=character, item__isnull=False).select_related(
            "item"
        )
    }
    keep = []
    for item in version.items.all():
        previous = old.pop(item.name.casefold(), None)
        if previous is not None:
            previous.item = item
            previous.save(update_fields=["item"])
            keep.append(previous.pk)
        else:
            created = Possession.objects.create(
                character=character,
                item=item,
                quantity=item.quantity,
                carried=item.carried_by_default,
            )
            keep.append(created.pk)
    Possession.objects.filter(character=character, item__isnull=False).exclude(pk__in=keep).delete()


# --- writes: versions and homologation ------------------------------------------------------
