"""A campaign's backup: one JSON document that round-trips (export_campaign, import_campaign).

The document is a header plus the rows, written by Django's own serializer (``python``
format, dumped as JSON with full-precision datetimes: the roll chain hashes
``created_at.isoformat()`` with its microseconds, which Django's JSON encoder would cut to
milliseconds). Every model of ``sheets``, ``mesa`` and ``canon`` that hangs from a campaign by
non-null foreign keys (found by walking the models, not listed by hand) is exported with its
primary keys as they are: the roll chain hashes a declaration's id, so ids must survive. The
canon's registers (divergences, decisions, corrections) and the procedure's tables are per
campaign too (``garganta_site.founding.campaign_create`` makes them for each campaign), so
they travel with it; the import saves the rows as they are, without seeding, and a later
``migrate`` finds the seeded items again by their ``source_key``.

Users travel by their natural key (the username): the members, and anyone a row names
(author, rolled_by …), with username, names, email, password hash and is_active (never
staff or superuser rights), plus the members' hashed API tokens. On import a username that
already exists is kept as it is, and the rows point at it.

The import goes into an empty database (a freshly migrated one), in one transaction: rows
are inserted (``force_insert``: an append-only row is never updated), the PostgreSQL
sequences are reset as ``loaddata`` does, and the result is checked — counts per model
against the header, the content against the file, the roll chain with ``rolls_verify`` and
its head against the header. Any difference rolls everything back and says what differed.
"""

from __future__ import annotations

import datetime
import json
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.utils import timezone

FORMAT = "garganta-campaign-export"
VERSION = 1
APP_LABELS = ("sheets", "mesa", "canon")
CAMPAIGN = "sheets.campaign"

# Models of those apps that do not hang from a campaign, and where they go instead. A new
# model that reaches no campaign by non-null foreign keys must be named here (or given such
# a key): tests/sheets/test_backup.py fails otherwise, so none is forgotten.
USER_SCOPED = {
    "sheets.apitoken": "do usuário, não da campanha: vai com os usuários membros",
}
# Not a campaign's: what is kept only while a request may be sent again.
NOT_EXPORTED: dict[str, str] = {
    "sheets.idempotencykey": "a que pedido cada Idempotency-Key da API serviu: guarda de "
    "repetição, do usuário, não registro da campanha",
}

USER_FIELDS = ("username", "first_name", "last_name", "email", "password", "is_active")

# pt-BR messages (the commands say them as they are)
UNKNOWN_SLUG = "Campanha não encontrada: «{slug}»."
FILE_NOT_FOUND = "Arquivo não encontrado: {path}."
NOT_AN_EXPORT = "{path} não é uma exportação de campanha da Garganta."
VERSION_UNSUPPORTED = (
    "Versão de exportação não suportada: {version} (este site lê a versão {supported})."
)
CAMPAIGN_PRESENT = (
    "A campanha «{slug}» já existe neste banco: importe num banco vazio (recém-migrado)."
)
IDS_TAKEN = (
    "O banco já tem registros com os ids do arquivo ({which}): importe num banco vazio "
    "(recém-migrado)."
)
FILE_INCOMPLETE = "O arquivo não confere com o próprio cabeçalho: {which}."
OUTSIDE_CAMPAIGN = "{label} #{pk} aponta para {target} #{value}, que não é da campanha «{slug}»."
NOT_AN_EXPORT_ROW = "Um registro do arquivo não se lê: {error}. Nada foi importado."
LOAD_FAILED = "Falha ao gravar {label} #{pk}: {error}. Nada foi importado."
LINKS_BROKEN = (
    "Há registros que apontam para registros ausentes do arquivo: {error}. Nada foi importado."
)
COUNTS_DIFFER = "As contagens não conferem com o cabeçalho: {which}. Nada foi importado."
CONTENT_DIFFERS = "O conteúdo importado difere do arquivo: {which}. Nada foi importado."
CHAIN_BROKEN = (
    "A cadeia de rolagens ficou quebrada depois da importação, na rolagem #{sequence}. "
    "Nada foi importado."
)
CHAIN_HEAD_DIFFERS = (
    "A cadeia de rolagens importada termina em #{sequence} ({hash}), mas o cabeçalho diz "
    "#{expected_sequence} ({expected_hash}). Nada foi importado."
)


class BackupError(Exception):
    """A refusal with its message in pt-BR."""


class _Encoder(DjangoJSONEncoder):
    """Django's encoder, but datetimes and times keep their microseconds."""

    def default(self, o):
        if isinstance(o, (datetime.datetime, datetime.time)):
            return o.isoformat()
        return super().default(o)


# --- which models belong to a campaign ---------------------------------------------------------


def label_of(model) -> str:
    return model._meta.label_lower


def app_models() -> list[type[models.Model]]:
    """Every concrete model of sheets, mesa and canon, in app order."""
    return [m for label in APP_LABELS for m in apps.get_app_config(label).get_models()]


def campaign_paths() -> dict[type[models.Model], str]:
    """Each model that reaches the Campaign by non-null foreign keys, with the shortest such
    path as a lookup ("" for the Campaign, "week__campaign" for a Scene …)."""
    campaign = apps.get_model(CAMPAIGN)
    ours = set(app_models())
    paths: dict[type[models.Model], str] = {campaign: ""}

    def path_of(model) -> str | None:
        seen, queue = {model}, deque([(model, [])])
        while queue:
            current, names = queue.popleft()
            for f in current._meta.concrete_fields:
                remote = f.related_model
                if not f.is_relation or f.null or remote not in ours or remote in seen:
                    continue
                if remote is campaign:
                    return "__".join([*names, f.name])
                seen.add(remote)
                queue.append((remote, [*names, f.name]))
        return None

    for model in ours:
        if model is not campaign and (path := path_of(model)) is not None:
            paths[model] = path
    return paths


def unaccounted_models() -> list[str]:
    """Models of the three apps that are neither exported nor named as not a campaign's."""
    known = {label_of(m) for m in campaign_paths()} | set(USER_SCOPED) | set(NOT_EXPORTED)
    return sorted(label_of(m) for m in app_models() if label_of(m) not in known)


def ordered_models() -> list[type[models.Model]]:
    """The exported models in the order they load (users first: rows name them)."""
    user = get_user_model()
    exported = [m for m in app_models() if m in campaign_paths() or label_of(m) in USER_SCOPED]
    app_list = [(user._meta.app_config, [user])] + [
        (apps.get_app_config(label), [m for m in exported if m._meta.app_label == label])
        for label in APP_LABELS
    ]
    return serializers.sort_dependencies(app_list)


# --- export -------------------------------------------------------------------------------------


@dataclass
class Collected:
    campaign: models.Model
    querysets: dict[type[models.Model], models.QuerySet] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        return {label_of(m): qs.count() for m, qs in self.querysets.items()}


def collect(campaign) -> Collected:
    """Every row of the campaign, each model's queryset ordered by pk."""
    user_model = get_user_model()
    paths = campaign_paths()
    found = Collected(campaign)
    user_ids: set[int] = set()
    for model in ordered_models():
        if model is user_model or label_of(model) in USER_SCOPED:
            continue
        path = paths[model]
        lookup = {path: campaign} if path else {"pk": campaign.pk}
        queryset = model._base_manager.filter(**lookup).order_by("pk")
        found.querysets[model] = queryset
        for f in model._meta.concrete_fields:
            if f.is_relation and f.related_model is user_model:
                user_ids.update(v for v in queryset.values_list(f.attname, flat=True) if v)
    membership = apps.get_model("sheets", "Membership")
    members = membership.objects.filter(campaign=campaign).values_list("user_id", flat=True)
    user_ids.update(members)
    users = user_model._base_manager.filter(pk__in=user_ids).order_by(user_model.USERNAME_FIELD)
    tokens = apps.get_model("sheets", "ApiToken")._base_manager.filter(user_id__in=members)
    # users first, then the rest in load order
    ordered = {user_model: users}
    for model in ordered_models():
        if model in found.querysets:
            ordered[model] = found.querysets[model]
        elif label_of(model) in USER_SCOPED:
            ordered[model] = tokens.order_by("pk")
    found.querysets = ordered
    return found


def _serialize(collected: Collected) -> list[dict]:
    user_model = get_user_model()
    objects: list[dict] = []
    for model, queryset in collected.querysets.items():
        options = {"use_natural_foreign_keys": True}
        if model is user_model:
            options.update(fields=USER_FIELDS, use_natural_primary_keys=True)
        objects += serializers.serialize("python", queryset, **options)
    # through our encoder and back: plain JSON values, as they are in the file
    return json.loads(json.dumps(objects, cls=_Encoder, ensure_ascii=False))


def _chain_head(campaign) -> dict:
    roll = apps.get_model("mesa", "Roll")._base_manager.filter(campaign=campaign)
    last = roll.order_by("-sequence").first()
    return {
        "count": roll.count(),
        "last_sequence": last.sequence if last else 0,
        "last_hash": last.hash if last else "",
    }


def _check_inside(collected: Collected, objects: list[dict]) -> None:
    """Every foreign key of an exported row points at an exported row (or a user)."""
    pks = {
        label_of(m): set(qs.values_list("pk", flat=True)) for m, qs in collected.querysets.items()
    }
    user_model = get_user_model()
    by_label = {label_of(m): m for m in collected.querysets}
    for obj in objects:
        model = by_label[obj["model"]]
        for f in model._meta.concrete_fields:
            if not f.is_relation or f.related_model is user_model:
                continue
            value = obj["fields"].get(f.name)
            if value is not None and value not in pks[label_of(f.related_model)]:
                raise BackupError(
                    OUTSIDE_CAMPAIGN.format(
                        label=obj["model"],
                        pk=obj["pk"],
                        target=label_of(f.related_model),
                        value=value,
                        slug=collected.campaign.slug,
                    )
                )


def export_campaign(slug: str) -> dict:
    """The campaign ``slug`` as one JSON-ready document: header and rows."""
    campaign_model = apps.get_model(CAMPAIGN)
    campaign = campaign_model.objects.filter(slug=slug).first()
    if campaign is None:
        raise BackupError(UNKNOWN_SLUG.format(slug=slug))
    outermost = not connection.in_atomic_block
    with transaction.atomic():  # one consistent read (a snapshot on PostgreSQL)
        if connection.vendor == "postgresql" and outermost:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        collected = collect(campaign)
        objects = _serialize(collected)
        _check_inside(collected, objects)
        counts = Counter(obj["model"] for obj in objects)
        return {
            "format": FORMAT,
            "version": VERSION,
            "campaign": campaign.slug,
            "exported_at": timezone.now().isoformat(),
            "counts": {label_of(m): counts.get(label_of(m), 0) for m in collected.querysets},
            "roll_chain": _chain_head(campaign),
            "objects": objects,
        }


def dumps(document: dict) -> str:
    return json.dumps(document, cls=_Encoder, ensure_ascii=False, indent=1) + "\n"


def summary(document: dict) -> str:
    counts = document["counts"]
    chain = document["roll_chain"]
    return (
        f"{document['campaign']}: {sum(1 for n in counts.values() if n)} modelos, "
        f"{sum(counts.values())} registros, {chain['count']} rolagens "
        f"(última #{chain['last_sequence']})"
    )


# --- import -------------------------------------------------------------------------------------


def read(path: str | Path) -> dict:
    """The document in ``path``, checked to be an export this site reads."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(FILE_NOT_FOUND.format(path=path))
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BackupError(NOT_AN_EXPORT.format(path=path)) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError(NOT_AN_EXPORT.format(path=path))
    if document.get("version") != VERSION:
        raise BackupError(
            VERSION_UNSUPPORTED.format(version=document.get("version"), supported=VERSION)
        )
    for key, kind in (
        ("campaign", str),
        ("counts", dict),
        ("roll_chain", dict),
        ("objects", list),
    ):
        if not isinstance(document.get(key), kind):
            raise BackupError(NOT_AN_EXPORT.format(path=path))
    return document


def _differences(expected: dict[str, int], found: dict[str, int]) -> list[str]:
    return [
        f"{label}: esperado {expected.get(label, 0)}, encontrado {found.get(label, 0)}"
        for label in sorted(set(expected) | set(found))
        if expected.get(label, 0) != found.get(label, 0)
    ]


def _check_file(document: dict) -> None:
    in_file = Counter(obj.get("model") for obj in document["objects"])
    known = {label_of(m) for m in ordered_models()} | {label_of(get_user_model())}
    unknown = sorted(str(label) for label in in_file if label not in known)
    if unknown:
        raise BackupError(
            FILE_INCOMPLETE.format(which="modelos desconhecidos: " + ", ".join(unknown))
        )
    differ = _differences(document["counts"], dict(in_file))
    if differ:
        raise BackupError(FILE_INCOMPLETE.format(which="; ".join(differ)))


def _check_free(document: dict) -> None:
    """The campaign is not here, and no id of the file is taken."""
    slug = document["campaign"]
    if apps.get_model(CAMPAIGN).objects.filter(slug=slug).exists():
        raise BackupError(CAMPAIGN_PRESENT.format(slug=slug))
    pks: dict[str, list] = {}
    for obj in document["objects"]:
        if "pk" in obj:
            pks.setdefault(obj["model"], []).append(obj["pk"])
    taken = []
    for label, values in pks.items():
        model = apps.get_model(label)
        hits = list(model._base_manager.filter(pk__in=values).values_list("pk", flat=True)[:5])
        if hits:
            taken.append(f"{label}: {', '.join(map(str, sorted(hits)))}")
    if taken:
        raise BackupError(IDS_TAKEN.format(which="; ".join(taken)))


@dataclass
class ImportResult:
    slug: str
    counts: dict[str, int]
    rolls: int
    users_created: list[str]
    users_kept: list[str]

    def summary(self) -> str:
        kept = (
            f", usuários já existentes mantidos: {', '.join(self.users_kept)}"
            if self.users_kept
            else ""
        )
        return (
            f"{self.slug}: importada, {sum(1 for n in self.counts.values() if n)} modelos, "
            f"{sum(self.counts.values())} registros, {self.rolls} rolagens, cadeia íntegra{kept}"
        )


def _load(document: dict) -> tuple[list[str], list[str], set]:
    """Insert every row (inside the caller's transaction); return the users created and kept,
    and the models loaded."""
    user_model = get_user_model()
    created, kept, loaded = [], [], set()
    with connection.constraint_checks_disabled():
        deferred = []
        objects = serializers.deserialize(
            "python", document["objects"], handle_forward_references=True
        )
        for item in _checked(objects):
            model = type(item.object)
            loaded.add(model)
            if model is user_model:
                username = item.object.get_username()
                if item.object.pk is not None:  # matched by its username: kept as it is
                    kept.append(username)
                    continue
                created.append(username)
            try:
                item.save(force_insert=True)
            except (DatabaseError, IntegrityError) as error:
                raise BackupError(
                    LOAD_FAILED.format(label=label_of(model), pk=item.object.pk, error=error)
                ) from None
            if item.deferred_fields:
                deferred.append(item)
        for item in deferred:
            item.save_deferred_fields()
    tables = [m._meta.db_table for m in loaded]
    try:
        connection.check_constraints(table_names=tables)
    except (DatabaseError, IntegrityError) as error:
        raise BackupError(LINKS_BROKEN.format(error=str(error).strip())) from None
    return created, kept, loaded


def _checked(objects):
    """The deserialized objects, a malformed one refused in pt-BR."""
    try:
        yield from objects
    except DeserializationError as error:
        raise BackupError(NOT_AN_EXPORT_ROW.format(error=error)) from None


def _reset_sequences(loaded) -> None:
    statements = connection.ops.sequence_reset_sql(no_style(), list(loaded))
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)


def _verify(document: dict) -> None:
    from sessions.log.chain import rolls_verify

    campaign = apps.get_model(CAMPAIGN).objects.get(slug=document["campaign"])
    collected = collect(campaign)
    differ = _differences(document["counts"], collected.counts())
    if differ:
        raise BackupError(COUNTS_DIFFER.format(which="; ".join(differ)))
    user_label = label_of(get_user_model())
    again = {(o["model"], o.get("pk")): o["fields"] for o in _serialize(collected)}
    for obj in document["objects"]:
        if obj["model"] == user_label:
            continue  # a user kept as it was differs on purpose
        now = again.get((obj["model"], obj["pk"]))
        if now != obj["fields"]:
            fields = sorted(
                k for k in obj["fields"] if now is None or now.get(k) != obj["fields"][k]
            )
            raise BackupError(
                CONTENT_DIFFERS.format(which=f"{obj['model']} #{obj['pk']} ({', '.join(fields)})")
            )
    report = rolls_verify(campaign)
    if not report.ok:
        raise BackupError(CHAIN_BROKEN.format(sequence=report.first_broken))
    head, expected = _chain_head(campaign), document["roll_chain"]
    if (head["last_sequence"], head["last_hash"]) != (
        expected.get("last_sequence"),
        expected.get("last_hash"),
    ):
        raise BackupError(
            CHAIN_HEAD_DIFFERS.format(
                sequence=head["last_sequence"],
                hash=head["last_hash"][:12],
                expected_sequence=expected.get("last_sequence"),
                expected_hash=str(expected.get("last_hash"))[:12],
            )
        )


def import_campaign(document: dict) -> ImportResult:
    """Load an export into this (empty) database in one transaction, reset the sequences and
    verify; on any difference nothing stays."""
    _check_file(document)
    with transaction.atomic():
        _check_free(document)
        created, kept, loaded = _load(document)
        _reset_sequences(loaded)
        _verify(document)
    return ImportResult(
        slug=document["campaign"],
        counts=document["counts"],
        rolls=document["roll_chain"].get("count", 0),
        users_created=created,
        users_kept=kept,
    )
