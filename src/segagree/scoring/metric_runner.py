"""Running measures on an AnnotationPair through the measure contract, per speaker and pooled.

Every measure comes from :mod:`segagree.metrics.registry`. The runner has no per-measure code:
it builds the measure's input from the pair by the input kind its card **needs**
(:data:`INPUTS`), calls ``statistics`` per item, ``score`` per item and ``score(add(...))`` for
the pooled value, so pooled values always come from summed statistics, never from averaged
per-speaker scores.

* ``tokens``: one :class:`~segagree.metrics.contract.TokenPair` per speaker (the compared
  layer's code arrays; with several layers, segeval's gap sets). ``fmt="codes"``: the boundary
  after the stream's last token is the text's end, not a gap, as in segeval's masses.
* ``annotations``: one :class:`~segagree.metrics.contract.TokenSet` for the whole text
  (agreement coefficients see every speaker at once).
* ``subtitles``: one item for the whole text, built by
  ``segagree.scoring.subtitles.evaluation.measure_item(pair, options)`` (see :func:`subtitle_items`).
* ``characters``: one :class:`~segagree.metrics.contract.CharacterPair` per document (or per file, one
  stream), the two Documents' characters and sentences (:func:`character_items`); no token pairing.
* ``times``: one :class:`~segagree.metrics.contract.UnitSet` per speaker, each annotator's units in time
  read from the pair's two Documents as ``agree --time`` reads one file per annotator
  (:func:`time_items`); no token pairing is needed, so :func:`run_on_documents` scores them on
  annotations whose words differ.

One measure's output (the ``metrics`` entries of ``compare --json``)::

    {"value": pooled value, "per_speaker": {speaker: value or None}, "signature": "...",
     "params": {parameter: {speaker: chosen value}},   # what the measure chose, e.g. Pk's k
     "skipped": {speaker: reason}}                      # speakers the measure cannot score

S_f and S_f^B are computed by ``compare`` itself (with their operations) and skipped here.
Subtitle metrics not yet in the registry still run through their own runners (``LEGACY``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from segagree.errors import MismatchError, SegagreeError, UsageError
from segagree.metrics.boundary.sf import SF_NAMES
from segagree.metrics.contract import Card, CharacterPair, Measure, TokenPair, TokenSet
from segagree.metrics.registry import MEASURES, get_measure, guided, known_names
from segagree.model import Document
from segagree.scoring.measure_output import WHOLE, run_items
from segagree.scoring.tokens.pairing import AnnotationPair

__all__ = [
    "ALL",
    "GROUPS",
    "DOCUMENT_INPUTS",
    "INPUTS",
    "RUNNERS",
    "WHOLE",
    "known_metrics",
    "metric_cards",
    "register_input",
    "resolve_metric_names",
    "run_items",
    "run_measure",
    "run_metrics",
    "run_on_documents",
    "time_items",
]

# `--metric all` is every measure of this card group.
ALL = ("all", "boundary")

ItemBuilder = Callable[[AnnotationPair, Mapping[str, Any]], dict[str, Any]]
Runner = Callable[[AnnotationPair, Mapping[str, Any]], dict[str, Any]]


# --- inputs ------------------------------------------------------------------------------------------


def token_items(pair: AnnotationPair, options: Mapping[str, Any]) -> dict[str, Any]:
    """speaker -> TokenPair of the compared layer (gap sets too when several layers are compared; A's
    sentences where A has a ``sentence`` layer besides the compared one)."""
    items: dict[str, Any] = {}
    for s in pair.speakers:
        sets_a, sets_b = pair.gap_sets(s) if pair.extra_layers else (None, None)
        items[s] = TokenPair(
            pair.arrays_a[s],
            pair.arrays_b[s],
            pair.scheme,
            sets_a,
            sets_b,
            sentences=pair.sentences_a.get(s),
            marks_a=pair.marks_a.get(s),
            marks_b=pair.marks_b.get(s),
            marks_next=pair.marks_next.get(s, (-1, -1)),
            marks_in_files=pair.marks_in_files.get(s),
            marks_connective=pair.marks_connective,
        )
    return items


def character_items(pair: AnnotationPair, options: Mapping[str, Any]) -> dict[str, Any]:
    """speaker (document) -> CharacterPair of A's and B's characters and sentences, read from the two
    Documents themselves (no token pairing): documents paired by id, or each file one stream where
    :func:`segagree.scoring.tokens.pairing.document_stream` says so (``options["one_stream"]``)."""
    from segagree.formats.conllu import NO_DOCUMENT
    from segagree.scoring.tokens.pairing import document_stream, stream_rows

    merge, _ = document_stream(pair.a, pair.b, bool(options.get("one_stream")))
    streams = [_sentence_spans(doc, stream_rows(doc, merge or {})) for doc in (pair.a, pair.b)]
    common = [s for s in streams[0] if s in streams[1]]
    if not common:
        raise UsageError(
            f"the annotations have no document in common (A: {', '.join(streams[0])}; B: {', '.join(streams[1])}); "
            "score each file as one stream with --one-stream"
        )
    from segagree.metrics.boundary.segment_match import character_difference

    for s in common:
        differs = character_difference(streams[0][s][0], streams[1][s][0])
        if differs:
            where = f"document {s!r}: " if s != NO_DOCUMENT or len(common) > 1 else ""
            hint = (
                " (the files' documents differ: score each file as one stream with --one-stream)"
                if not merge and set(streams[0]) != set(streams[1])
                else ""
            )
            raise MismatchError(f"{where}{differs}{hint}")
    return {s: CharacterPair(streams[0][s][0], streams[1][s][0], streams[0][s][1], streams[1][s][1]) for s in common}


def _sentence_spans(doc: Document, streams: Mapping[str, Any]) -> dict[str, tuple[str, list[tuple[int, int]]]]:
    """Per stream: its characters (:func:`segagree.formats.conllu.surface_forms`) and its sentences as
    character spans (the ``sentence`` layer; without one, each stream is one sentence)."""
    import numpy as np

    from segagree.formats.conllu import surface_forms

    forms = np.asarray(surface_forms(doc), dtype=object)
    ends = doc.layers["sentence"].boundaries if "sentence" in doc.layers else np.zeros(doc.n_tokens, dtype=np.int16)
    out = {}
    for name, rows in streams.items():
        own = forms[rows].tolist()
        offsets = np.cumsum([len(f) for f in own]) if own else np.zeros(0, dtype=np.int64)
        cut = np.flatnonzero(ends[rows]).tolist()
        if not cut or cut[-1] != len(own) - 1:
            cut.append(len(own) - 1)
        bounds = [0, *(int(offsets[k]) for k in cut)]
        out[name] = ("".join(own), list(zip(bounds, bounds[1:], strict=False)))
    return out


def annotation_items(pair: AnnotationPair, options: Mapping[str, Any]) -> dict[str, Any]:
    """The whole text as one TokenSet of the two annotators (speaker -> codes each)."""
    names = (pair.a.annotator or "A", pair.b.annotator or "B")
    if names[0] == names[1]:
        names = ("A", "B")
    return {WHOLE: TokenSet((pair.arrays_a, pair.arrays_b), pair.scheme, names)}


def subtitle_items(pair: AnnotationPair, options: Mapping[str, Any]) -> dict[str, Any]:
    """The whole text as one subtitle input: ``segagree.scoring.subtitles.evaluation.measure_item(pair, options)``.

    That function (owned by the subtitle pipeline) returns the input a ``needs="subtitles"``
    measure's ``statistics`` takes, or raises a SegagreeError when the pair has no subtitles.
    """
    from segagree.scoring.subtitles import evaluation as subtitles

    build = getattr(subtitles, "measure_item", None)
    if build is None:
        raise UsageError("subtitle measures in the registry need segagree.scoring.subtitles.evaluation.measure_item")
    return {WHOLE: build(pair, options)}


def time_items(pair: AnnotationPair, options: Mapping[str, Any]) -> dict[str, Any]:
    """speaker -> UnitSet of A's and B's units in time (:func:`segagree.scoring.time.reading.read_timed_units` of
    the two Documents, one per annotator; ``options["category"]``: label, endnote or none; default label)."""
    from copy import copy

    from segagree.scoring.time.reading import read_timed_units
    from segagree.scoring.time.units import UnitReading

    docs = [copy(pair.a), copy(pair.b)]
    if (docs[0].annotator or docs[0].name) == (docs[1].annotator or docs[1].name):
        docs[0].annotator, docs[1].annotator = "A", "B"  # two files of one name: still two annotators
    how = UnitReading(category=str(options.get("category") or "label"), layer=pair.layer)
    return dict(read_timed_units(docs, how).speakers)


INPUTS: dict[str, ItemBuilder] = {
    "tokens": token_items,
    "annotations": annotation_items,
    "subtitles": subtitle_items,
    "times": time_items,
    "characters": character_items,
}

#: Input kinds built from the two Documents alone (no token pairing): scored by :func:`run_on_documents`.
DOCUMENT_INPUTS = ("times", "characters")


def register_input(kind: str, builder: ItemBuilder) -> None:
    """Let the pipeline build input kind ``kind`` (e.g. ``times``) from an AnnotationPair."""
    INPUTS[kind] = builder


# --- running ------------------------------------------------------------------------------------------


def run_measure(
    measure: Measure[Any, Any, Any],
    pair: AnnotationPair,
    options: Mapping[str, Any],
    statistics: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One measure on ``pair``: per speaker, and pooled from the summed statistics (also put in
    ``statistics[name]`` when given, for pooling over texts)."""
    build = INPUTS.get(measure.card.needs)
    if build is None:
        raise UsageError(f"metric {measure.name!r} needs {measure.card.needs!r} input, which compare cannot build")
    return run_items(measure, build(pair, options), options, statistics)


def run_metrics(
    pair: AnnotationPair, names: Sequence[str], options: Mapping[str, Any], statistics: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Every requested metric except S_f (which the caller computes) on ``pair``; ``statistics``
    receives the summed statistics of the measures scored per speaker (:func:`run_measure`)."""
    out: dict[str, Any] = {}
    for name in names:
        if name in SF_NAMES:
            continue
        # the registry first: the legacy table imports the subtitle measures
        legacy = None if name in MEASURES else _legacy_runners().get(name)
        out[name] = legacy(pair, options) if legacy else run_measure(get_measure(name), pair, options, statistics)
    return out


def reads_documents(name: str) -> bool:
    """Whether a measure's input is built from the Documents alone (:data:`DOCUMENT_INPUTS`)."""
    return name in MEASURES and get_measure(name).card.needs in DOCUMENT_INPUTS


def run_on_documents(
    a: Document, b: Document, layer: str, names: Sequence[str], options: Mapping[str, Any]
) -> dict[str, Any]:
    """Measures that read the two Documents themselves (:func:`reads_documents`), per speaker and pooled
    from summed statistics as :func:`run_measure` does, whether or not the tokens pair. A parameter a
    measure refuses is a UsageError; None options are the measures' defaults (as in ``agree --time``)."""
    given = {k: v for k, v in options.items() if v is not None}
    pair = AnnotationPair(a, b, layer, a.layer(layer).scheme, [], {}, {}, {})
    built: dict[str, Mapping[str, Any]] = {}  # each input kind is read once for every measure
    out = {}
    try:
        for name in names:
            measure = get_measure(name)
            kind = measure.card.needs
            if kind not in built:
                built[kind] = INPUTS[kind](pair, given)
            out[name] = run_items(measure, built[kind], given)
            # the parameters given that this measure takes, shown with its result (compare's table)
            taken = {k: v for k, v in given.items() if k in measure.card.parameters}
            if taken and isinstance(out[name], dict) and not out[name].get("signature"):
                out[name]["params"] = {**taken, **(out[name].get("params") or {})}
    except SegagreeError:
        raise  # (also a ValueError: an input's error stays one)
    except ValueError as err:
        raise UsageError(str(err)) from None
    return out


# --- names and groups ---------------------------------------------------------------------------------

_legacy: dict[str, Runner] | None = None
_legacy_groups: dict[str, tuple[str, ...]] = {}


def _legacy_runners() -> dict[str, Runner]:
    """Runners of the subtitle metrics not yet in the registry (``pipeline.subtitles.register``)."""
    global _legacy
    if _legacy is None:
        from segagree.scoring.subtitles import evaluation as subtitles

        runners: dict[str, Any] = dict.fromkeys(MEASURES)
        register = getattr(subtitles, "register", None)
        if register is not None:
            _legacy_groups.update(register(runners))
        _legacy = {n: r for n, r in runners.items() if n not in MEASURES}
    return _legacy


# Kept for callers of the old runner table: the legacy (subtitle) runners.
class _LazyTable(Mapping[str, Any]):
    def __init__(self, load: Callable[[], Mapping[str, Any]]):
        self._load = load

    def __getitem__(self, key: str) -> Any:
        return self._load()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


def groups() -> dict[str, tuple[str, ...]]:
    """Named groups of metrics: every card group, ``all`` (the boundary measures) and legacy groups."""
    out: dict[str, list[str]] = {}
    for name in known_names():
        out.setdefault(get_measure(name).card.group or "other", []).append(name)
    _legacy_runners()
    for group, names in _legacy_groups.items():
        out.setdefault(group, []).extend(n for n in names if n not in out.get(group, []))
    table = {g: tuple(n) for g, n in out.items()}
    return {ALL[0]: table.get(ALL[1], ()), **table}


RUNNERS: Mapping[str, Runner] = _LazyTable(_legacy_runners)
GROUPS: Mapping[str, tuple[str, ...]] = _LazyTable(groups)


def known_metrics() -> list[str]:
    """Every metric name `compare --metric` accepts."""
    return [*known_names(), *(n for n in _legacy_runners() if n not in MEASURES)]


def resolve_metric_names(spec: str | Sequence[str]) -> list[str]:
    """Expand groups (``all``, ``agreement``, ...) and comma lists; UsageError naming an unknown metric."""
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    out: list[str] = []
    for raw in names:
        name = raw.strip().lower()
        if not name:
            continue
        if name in MEASURES or name in known_metrics():
            out.append(name)
            continue
        table = groups()
        if name not in table:
            listed = ", ".join(f"'{g}'" for g in table)
            raise UsageError(f"unknown metric {raw!r}; known: {', '.join(known_metrics())} (or {listed})")
        out.extend(table[name])
    return list(dict.fromkeys(out))


# --- cards ---------------------------------------------------------------------------------------------


def _legacy_card(card: Mapping[str, Any]) -> Card:
    """A card of the subtitle metrics' dict form (until they are contract measures)."""
    return Card(
        name=card["name"],
        title=card["title"],
        definition=card["definition"],
        citation=card["citation"],
        parameters=card.get("params", {}),
        better="higher" if card.get("higher_is_better", True) else "lower",
        needs="subtitles",
        group="subtitles",
        library=card.get("library", "segagree"),
        reference=card.get("reference", ""),
    )


def metric_cards() -> dict[str, Card]:
    """name -> card of every metric: the registry's, then subtitle cards not yet in it."""
    from segagree.metrics.subtitles import scores as subtitles

    cards = {name: guided(get_measure(name).card) for name in known_names()}
    for card in getattr(subtitles, "METRIC_CARDS", ()):
        if card["name"] not in cards:
            cards[card["name"]] = guided(_legacy_card(card))
    return cards
