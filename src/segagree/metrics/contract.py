"""The measure contract: every measure segagree computes is one :class:`Measure`, registered once.

In the spirit of sacrebleu's ``Metric`` (sentence statistics -> corpus statistics -> score) and
pyannote.metrics' ``BaseMetric`` (components that accumulate), a measure is computed in three
steps, so that pooled values always come from summed statistics, never from averaged scores::

    stats = measure.statistics(item, params)      # sufficient statistics of one input item
    total = measure.add([stats, stats2, ...])     # statistics add across speakers and texts
    result = measure.score(total, params)         # a typed result: .value and .to_dict()

A measure module declares a :class:`Card` (what it computes, its parameters and defaults, the
paper that defines it, which way is better, what checks it, and what input it **needs**) and a
:class:`Measure` subclass; it is listed once in :data:`segagree.metrics.registry.MEASURES` (name ->
module), which every consumer reads: ``segagree metrics``, ``compare --metric``, ``run``, the report,
the API and the JSON. A lab adds its own measure without forking through the entry-point group
``segagree.metrics`` (see ``CONTRIBUTING.md``).

What a measure reads is declared by :attr:`Card.needs`; the pipeline builds that input, the measure
never reads files or Documents (layering: ``metrics`` imports ``schemas`` at most):

* ``"tokens"``: a :class:`TokenPair`, one speaker's two boundary code arrays over one shared token
  stream (plus the layer's scheme);
* ``"annotations"``: a :class:`TokenSet`, one speaker's code arrays of two or more annotators over
  one shared token stream (agreement coefficients);
* ``"subtitles"``: the reference's and hypothesis's subtitle views (sentences, blocks, segments),
  built by :mod:`segagree.scoring.subtitles.evaluation`;
* ``"times"``: a :class:`UnitSet`, time intervals per annotator (start, end, category, text), for
  time-based unitizing agreement (no shared transcript needed);
* ``"characters"``: a :class:`CharacterPair`, two files' characters and their sentences as spans
  of them (CoNLL 2018's sentence score: no shared tokenisation needed).
"""

from __future__ import annotations

import textwrap
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:  # the arrays are annotations only: the official scorers' path runs without numpy
    import numpy as np

__all__ = [
    "INPUT_KINDS",
    "Card",
    "CharacterPair",
    "MetricCard",
    "Measure",
    "NotApplicableResult",
    "Result",
    "TokenPair",
    "TokenSet",
    "UnitSet",
]

InputKind = Literal["tokens", "annotations", "subtitles", "times", "characters"]
INPUT_KINDS: tuple[str, ...] = ("tokens", "annotations", "subtitles", "times", "characters")
Better = Literal["higher", "lower", "none"]


@dataclass(frozen=True)
class Card:
    """One measure's card: what ``segagree metrics NAME`` prints and ``--json`` returns.

    Attributes:
        name: short name (the registry key, used on the command line and in the JSON).
        title: full name.
        definition: one or two lines: what is computed, as a formula where there is one.
        citation: the paper (or standard) that defines it.
        parameters: parameter name -> default, as text.
        better: ``"higher"`` (similarities, agreement), ``"lower"`` (error rates, distances) or
            ``"none"`` (counts and descriptive statistics).
        needs: the input kind (one of :data:`INPUT_KINDS`).
        annotators: ``"2"`` (a pair) or ``"2+"`` (two or more annotators).
        group: the named set it belongs to on the command line (``boundary``, ``subtitles``,
            ``agreement``, ``time``), or ``""``.
        library: what computes it (``"segagree"``, or e.g. ``"sacrebleu"``).
        reference: the implementation (or published example) it is checked against.
        notes: where it deliberately differs from a reference, and anything a user should know.
        formula: the definition as a LaTeX formula (rendered on the documentation's card), or "".
        range: the values it can take (``[0, 1]``, ``[-1, 1]``, ``0 or more``).
        reading: how to read a value: what 1 and 0 (or its best and worst) mean, what moves it.
        chance: what it is under chance agreement, for measures that have a chance level.
        link: the citation's DOI or address (``https://...``).
        example: a worked example: a Python expression (run in the sample corpora, ``segagree``
            imported), ``->``, and its value as shown; the tests run it.
    """

    name: str
    title: str
    definition: str
    citation: str
    parameters: Mapping[str, str] = field(default_factory=dict)
    better: Better = "higher"
    needs: InputKind = "tokens"
    annotators: Literal["2", "2+"] = "2"
    group: str = ""
    library: str = "segagree"
    reference: str = ""
    notes: str = ""
    formula: str = ""
    range: str = ""
    reading: str = ""
    chance: str = ""
    link: str = ""
    example: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", MappingProxyType(dict(self.parameters)))
        if not (self.name and self.title and self.definition and self.citation):
            raise ValueError(f"measure card {self.name!r}: name, title, definition and citation are required")
        if self.needs not in INPUT_KINDS:
            raise ValueError(f"measure card {self.name!r}: needs must be one of {INPUT_KINDS}, not {self.needs!r}")
        if self.better not in ("higher", "lower", "none"):
            raise ValueError(f"measure card {self.name!r}: better must be higher, lower or none")
        if self.link and not self.link.startswith("https://"):
            raise ValueError(f"measure card {self.name!r}: link must be an https:// address, not {self.link!r}")
        if self.example and " -> " not in self.example:
            raise ValueError(f"measure card {self.name!r}: example must read 'expression -> value'")

    @classmethod
    def from_text(cls, text: str, **fields: Any) -> Card:
        """A card written as it reads: one ``field: value`` line per field.

        A line indented deeper continues the previous field's value; under ``parameters:``
        each such line is ``name = default``. ``fields`` are added as given (e.g. ``name``)::

            Card.from_text('''
                title: Boundary count difference
                definition: |boundaries of A - boundaries of B| / tokens, summed over
                    speakers before the division
                citation: your lab's paper
                parameters:
                    types = all
                better: lower
            ''', name="count_difference")
        """
        values: dict[str, Any] = dict(fields)
        parameters: dict[str, str] = dict(values.pop("parameters", {}))
        known = {f for f in cls.__dataclass_fields__ if f != "parameters"}
        key = ""
        for line in textwrap.dedent(text).splitlines():
            if not line.strip():
                continue
            if not line[0].isspace():
                key, sep, value = line.partition(":")
                key = key.strip()
                if not sep or (key not in known and key != "parameters"):
                    raise ValueError(f"measure card: {line.strip()!r} is not 'field: value' with a card field")
                if key != "parameters":
                    values[key] = value.strip()
            elif key == "parameters":
                name, sep, default = line.strip().partition(" = ")
                if not sep:
                    raise ValueError(f"measure card parameter {line.strip()!r} is not 'name = default'")
                parameters[name.strip()] = default.strip()
            elif key:
                values[key] = f"{values[key]} {line.strip()}"
            else:
                raise ValueError(f"measure card: {line.strip()!r} continues no field")
        for required in ("name", "title", "definition", "citation"):
            values.setdefault(required, "")  # missing: __post_init__ says which card lacks what
        return cls(parameters=parameters, **values)

    @property
    def higher_is_better(self) -> bool:
        """True unless lower is better (the old cards' flag)."""
        return self.better != "lower"

    def to_dict(self) -> dict[str, Any]:
        """The card as plain JSON types."""
        return {
            "name": self.name,
            "title": self.title,
            "definition": self.definition,
            "citation": self.citation,
            "parameters": dict(self.parameters),
            "better": self.better,
            "higher_is_better": self.higher_is_better,
            "needs": self.needs,
            "annotators": self.annotators,
            "group": self.group,
            "library": self.library,
            "reference": self.reference,
            "notes": self.notes,
            "formula": self.formula,
            "range": self.range,
            "reading": self.reading,
            "chance": self.chance,
            "link": self.link,
            "example": self.example,
        }


# The card type's name before the measure contract (``segagree.MetricCard``).
MetricCard = Card


@runtime_checkable
class Result(Protocol):
    """What :meth:`Measure.score` returns: a value (None where undefined) and its JSON form."""

    @property
    def value(self) -> float | None: ...

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class NotApplicableResult:
    """A measure that does not apply to this input, and why (``value`` is None)."""

    measure: str
    reason: str

    @property
    def value(self) -> None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"value": None, "not_applicable": self.reason}


@dataclass(frozen=True)
class TokenPair:
    """One speaker's two segmentations of one shared token stream (input kind ``tokens``).

    Attributes:
        a, b: boundary code arrays (int, one per token: 0 none, k the k-th type of ``scheme``).
        scheme: the layer's :class:`segagree.model.BoundaryScheme`.
        sets_a, sets_b: with several layers compared at once, segeval's per-gap sets of types
            (else None).
        sentences: A's (the gold's) sentence ends on the same index (nonzero after a sentence's
            last token), where A has a ``sentence`` layer besides the compared one (else None):
            what sentence-level scorers (RST-DT's intra-sentential EDU score) read.
        marks_a, marks_b: where both files are CoNLL-U, each token's DISRPT label as the file
            writes it (:data:`segagree.metrics.boundary.segment_match.MARKS`: what DISRPT's
            ``seg_eval.py`` reads), on the same index (else None); ``marks_next``: A's and B's
            label of the word their files have after this stream (-1 at the file's end);
            ``marks_in_files``: where the stream is a run of its files' words, its place in each
            (:class:`segagree.metrics.boundary.segment_match.StreamSpans`: connective spans are
            built over the whole files, as the script builds them); ``marks_connective``: the
            script's mode, read from the gold's labels (connective spans where it has no BeginSeg).
    """

    a: np.ndarray
    b: np.ndarray
    scheme: Any
    sets_a: Sequence[frozenset[int]] | None = None
    sets_b: Sequence[frozenset[int]] | None = None
    sentences: np.ndarray | None = None
    marks_a: np.ndarray | None = None
    marks_b: np.ndarray | None = None
    marks_next: tuple[int, int] = (-1, -1)
    marks_in_files: tuple[Any, Any] | None = None
    marks_connective: bool | None = None


@dataclass(frozen=True)
class CharacterPair:
    """Two annotations' characters (whitespace left out) and their sentences as character spans
    (input kind ``characters``), as ``conll18_ud_eval.py`` loads a file: any two tokenisations of
    the same characters can be compared.

    Attributes:
        chars_a, chars_b: the characters of A's (the gold's) and B's words, concatenated.
        spans_a, spans_b: (first character, one past the last) of every sentence, in order.
    """

    chars_a: str
    chars_b: str
    spans_a: Sequence[tuple[int, int]]
    spans_b: Sequence[tuple[int, int]]


@dataclass(frozen=True)
class TokenSet:
    """Code arrays of two or more annotators over one token stream (input kind ``annotations``).

    ``codes[i]`` is annotator i's code array, or, for a text with several speakers, a mapping
    speaker -> code array (the same speakers for every annotator). Agreement coefficients are
    computed per text (chance models see every speaker), so the pipeline gives one TokenSet per
    text.
    """

    codes: Sequence[np.ndarray | Mapping[str, np.ndarray]]
    scheme: Any
    annotators: Sequence[str] = ()


@dataclass(frozen=True)
class UnitSet:
    """Time intervals of two or more annotators over one continuum (input kind ``times``).

    Parallel arrays, one entry per unit. ``annotator`` and ``category`` are indices into
    ``annotators`` and ``categories``; ``category`` is -1 for a unit without a category.

    Attributes:
        annotators: annotator names, in the order given (annotators with no units included).
        categories: category labels.
        annotator, start, end, category: per-unit arrays (int, float seconds, float, int).
        text: per-unit text (may be empty strings).
        continuum: (start, end) of the stretch the units lie in.
        name: the item's name (a speaker, or ``RECORDING/SPEAKER``; '' when not known), for
            parameters given per item (a diarization UEM's regions per recording).
    """

    annotators: Sequence[str]
    categories: Sequence[str]
    annotator: np.ndarray
    start: np.ndarray
    end: np.ndarray
    category: np.ndarray
    text: Sequence[str] = ()
    continuum: tuple[float, float] = (0.0, 0.0)
    name: str = ""


In = TypeVar("In")
St = TypeVar("St")
R = TypeVar("R", bound=Result)


class Measure(ABC, Generic[In, St, R]):
    """Base class of every measure (see the module docstring).

    Subclasses set :attr:`card` and implement :meth:`statistics` and :meth:`score`; :meth:`add`
    sums statistics with ``+`` unless overridden. ``params`` are the card's parameters with the
    user's values (already parsed to Python types by the caller); a measure ignores the ones that
    are not its own.
    """

    card: ClassVar[Card]
    #: Statistics in about linear time of the item (no sampling, no search over alignments): scoring
    #: items in worker processes then costs more (each worker's start and imports) than it saves.
    light: ClassVar[bool] = False
    #: Its value depends on units' categories agreeing across annotators (gamma's dissimilarity):
    #: categories read from labels that mean nothing across annotators deserve a note.
    compares_categories: ClassVar[bool] = False

    @property
    def name(self) -> str:
        return self.card.name

    def warm(self) -> None:
        """Import what :meth:`statistics` imports on first use, before worker processes fork from this
        one (each worker would otherwise import it again: scipy takes longer than many items)."""

    @abstractmethod
    def statistics(self, item: In, params: Mapping[str, Any]) -> St:
        """Sufficient statistics of one input item (one speaker of one text)."""

    def add(self, stats: Sequence[St]) -> St:
        """Statistics of several items combined (default: their sum)."""
        if not stats:
            raise ValueError(f"measure {self.card.name!r}: nothing to add")
        total = stats[0]
        for s in stats[1:]:
            total = total + s  # type: ignore[operator]
        return total

    @abstractmethod
    def score(self, stats: St, params: Mapping[str, Any]) -> R:
        """The result (score and what it came from) of these statistics."""

    def compute(self, items: Sequence[In], params: Mapping[str, Any]) -> R:
        """Score of several items pooled by their summed statistics."""
        return self.score(self.add([self.statistics(i, params) for i in items]), params)
