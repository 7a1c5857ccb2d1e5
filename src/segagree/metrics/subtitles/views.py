"""The views the subtitle measures read, and their options (no Documents, no files).

The pipeline (:mod:`segagree.scoring.subtitles.evaluation`) builds one :class:`SubtitleSide` per file (its
sentences for EvalSubtitle, its suber segments for SubER, its blocks for reading speed) and one
:class:`PairData` per (reference, hypothesis) text; the subtitle measures
(:mod:`segagree.metrics.subtitles.measures`) score a sequence of them, pooled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from segagree.errors import UsageError
from segagree.metrics.subtitles.scores import SUBER_METRICS, Cue, Sentence

__all__ = ["PairData", "SubtitleOptions", "SubtitleSide"]


@dataclass(frozen=True)
class SubtitleOptions:
    """Parameters of the subtitle metrics (defaults: the reference tools' defaults).

    Attributes:
        layer: the layer holding ``<eob>``/``<eol>`` (default ``subtitle``).
        language: ``zh``, ``ja`` or ``ko`` for SubER's CJK tokenisation (its ``-l``).
        suber: SubER metric names to compute (default: all its command line accepts).
        max_cpl: characters per line for CPL conformity (42).
        max_cps: characters per second for reading-speed conformity (21).
        max_lines: lines per block for lines-per-block conformity (2).
        n_t: segeval's transposition span for S and B (2).
        window: Pk/WindowDiff window (default: segeval's from the reference, per type).
        use_source_files: let suber read the source files (exact SubER parity).
        jobs: processes for the masked-TER computations.
    """

    layer: str | None = None
    language: str | None = None
    suber: tuple[str, ...] = SUBER_METRICS
    max_cpl: int = 42
    max_cps: float = 21.0
    max_lines: int = 2
    n_t: int = 2
    window: int | None = None
    use_source_files: bool = True
    jobs: int = 1

    def __post_init__(self) -> None:
        if self.language not in (None, "zh", "ja", "ko"):
            raise UsageError(f"language must be zh, ja or ko (SubER's -l), not {self.language!r}")
        bad = [m for m in self.suber if m not in SUBER_METRICS]
        if bad:
            raise UsageError(f"unknown SubER metric(s) {bad}; known: {', '.join(SUBER_METRICS)}")
        for name in ("max_cpl", "max_lines", "n_t", "jobs"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise UsageError(f"{name} must be a positive integer, not {v!r}")
        if self.window is not None and (not isinstance(self.window, int) or self.window < 1):
            raise UsageError(f"window must be a positive integer, not {self.window!r}")

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any] | SubtitleOptions | None) -> SubtitleOptions:
        """Options from a mapping; keys that are not subtitle options are ignored."""
        if isinstance(options, SubtitleOptions):
            return options
        names = {f.name for f in fields(cls)}
        given = {k: v for k, v in (options or {}).items() if k in names and v is not None}
        if isinstance(given.get("suber"), str):
            given["suber"] = tuple(x.strip() for x in given["suber"].split(",") if x.strip())
        elif "suber" in given:
            given["suber"] = tuple(given["suber"])
        for name in ("max_cpl", "max_lines", "n_t", "jobs", "window"):
            if name in given and isinstance(given[name], str):
                try:
                    given[name] = int(given[name])
                except ValueError:
                    raise UsageError(f"{name} must be an integer, not {given[name]!r}") from None
        if "max_cps" in given:
            given["max_cps"] = float(given["max_cps"])
        if isinstance(given.get("use_source_files"), str):
            given["use_source_files"] = given["use_source_files"].lower() in ("1", "true", "yes", "on")
        return cls(**given)


@dataclass
class SubtitleSide:
    """One side's views (see the module docstring)."""

    name: str
    sentences: list[Sentence]
    sentence_source: str
    segments: list[Any] | None
    segment_source: str
    blocks: list[Cue]
    timed: bool
    source_path: str = ""
    source_format: str = ""
    words_dropped: int = 0
    # The whole text for the masses, CPL and projection: the sentences, or (SRT) all words as one.
    stream: list[Sentence] = field(default_factory=list)
    # Why suber cannot have this side's segments (the SubER-based measures are then not applicable).
    segments_problem: str = ""


@dataclass
class PairData:
    """What one (reference, hypothesis) pair contributes to per-file and pooled scores."""

    reference: SubtitleSide
    hypothesis: SubtitleSide
    identical: bool
    projection: dict[str, Any] = field(default_factory=dict)
    hyp_on_ref: list[Sentence] = field(default_factory=list)
