"""Settings of a corpus run, read from an optional ``segagree.toml``.

Example (every key optional; these are the defaults)::

    scheme = "dubois"            # built-in name or a scheme file (relative to this file)
    layer = "iu"                 # the layer to compare
    mode = "optimal"             # S_f search: optimal or segsimflex
    transpositions = true
    # metrics = [...]          # default S_f, S_f^B, B and Pk; any names of `segagree metrics`; kappa below
    align = true                 # align differing transcripts instead of failing
    max_mismatch = 0.2           # largest share of mismatched tokens the alignment tolerates
    normalise_speakers = true    # "F2:" and "F2" are one speaker ("MARCIA;" -> "MARCIA")
    common_speakers = false      # score the speakers both annotations have, list the others
    review_matches = false       # list match operations in the review workbooks too
    review_pages = false         # a review part (rows, recording, decisions) on every text page
    report_plots = "corpus"      # report figures: "corpus" (corpus-level figures and light
                                 # per-text HTML graphics) or "all" (also a matplotlib PNG per
                                 # text and pair under OUTDIR/plots/, linked from the report)
    reference = ""               # annotator scored as A (the reference) in its pairs; by default
                                 # one named ref, reference or gold, else alphabetical order
    format = ""                  # input format of every file (default: by extension)
    encoding = ""                # text encoding of every file (default: detected)

    [read]                       # reader options, as in convert/compare (none by default), e.g.
    # tiers = ["ROSA", "BEN"]    # ELAN/Praat tiers to read as units
    # speaker_tier = "speaker"   # Praat: the tier naming each unit's speaker
    # word_tier = "{speaker}-words"  # Praat: the word tier's name or pattern
    # gap_labels = ["#"]         # Praat: labels that mark gaps, not units
    # chat_units = "main-tiers"  # CHAT: one unit per main tier (default: per bulleted line
                                 # where continuation lines carry bullets, as in SBCSAE)
    # no_speaker = "unknown"     # Transcriber: the speaker of a <Turn> without one
    # speaker_from = "tier"      # ELAN: speaker = tier name ("participant": its PARTICIPANT)

    [kappa]
    enabled = true
    sims = 1000                  # K simulated chance annotations per speaker
    chance = "cohen"             # cohen, scott, bennett, bennett_modified, segsimflex
    seed = 12345

    [speakers]                   # explicit renames, applied before pairing
    "F2:" = "F2"

    [time]                       # run --time only: the measures and their parameters, e.g.
    # measures = [...]         # names of the time group (segagree metrics); default all
    # category = "label"         # label, endnote or none
    # samples = 30               # gamma: sampled continua; tolerance, seed, alpha, beta ... too
    # jobs = 2                   # gamma's own sample workers (--sample-jobs)
    # time_unit = "index"        # units tables: s (default), ms or index (integer positions)
    # window = [600, 900]        # score only these seconds of every text (--window)
"""

from __future__ import annotations

import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from segagree.errors import SegagreeError
from segagree.files.atomic import note_input
from segagree.metrics.boundary.sf import check_mode
from segagree.metrics.chance.models import DEFAULT_CHANCE, DEFAULT_SIMS
from segagree.model import BoundaryScheme, load_scheme
from segagree.model.digest import json_digest
from segagree.version import version

CONFIG_NAME = "segagree.toml"
# Reader options a run passes to every reader (see segagree.api.reader_options).
READ_OPTIONS = {"tiers", "speaker_tier", "word_tier", "gap_labels", "chat_units", "no_speaker", "speaker_from"}


def _default_metrics() -> list[str]:
    """S_f and S_f^B, B and Pk (their modules are imported only when a run needs its settings)."""
    from segagree.metrics.boundary.boundary_edit import B_CARD
    from segagree.metrics.boundary.sf import SF_NAMES
    from segagree.metrics.boundary.windows import PK_CARD

    return [*SF_NAMES, B_CARD.name, PK_CARD.name]


@dataclass
class KappaSettings:
    """Simulated chance-corrected agreement (Lai, Li & Zhang 2023, section 5)."""

    enabled: bool = True
    sims: int = DEFAULT_SIMS
    chance: str = DEFAULT_CHANCE
    seed: int = 12345


@dataclass
class RunConfig:
    """Everything that decides a run's numbers (its hash keys the resume cache)."""

    scheme: str = "dubois"
    layer: str | None = "iu"
    mode: str = "optimal"
    transpositions: bool = True
    metrics: list[str] = field(default_factory=_default_metrics)
    align: bool = True
    max_mismatch: float = 0.2
    normalise_speakers: bool = True
    common_speakers: bool = False
    review_matches: bool = False
    reference: str = ""
    format: str = ""
    encoding: str = ""
    read: dict[str, Any] = field(default_factory=dict)
    report_plots: str = "corpus"
    review_pages: bool = False  # run --review-pages: about 0.09 s of CPU per text
    cues: bool = False  # run --cues: acoustic cues in the workbooks and the cue profile in the report
    # run --metric: the subtitle measures a subtitle text gets (None: every one)
    subtitle_metrics: list[str] | None = None
    kappa: KappaSettings = field(default_factory=KappaSettings)
    speakers: dict[str, str] = field(default_factory=dict)
    time: dict[str, Any] = field(default_factory=dict)
    base_dir: str = "."

    def load_scheme(self) -> BoundaryScheme:
        """The scheme, a scheme file's path taken relative to the config's folder."""
        candidate = Path(self.base_dir) / self.scheme
        return load_scheme(candidate if candidate.is_file() else self.scheme)

    def reader_options(self) -> dict[str, Any]:
        """Options for every reader: the ``[read]`` table, plus ``encoding`` when set."""
        options = dict(self.read)
        if self.encoding:
            options["encoding"] = self.encoding
        return options

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("base_dir")
        return d

    @property
    def digest(self) -> str:
        """Hash of the settings that decide the scores, the scheme's cost model and the version
        (the resume cache key part). Settings of the outputs only (:data:`OUTPUT_SETTINGS`) are
        left out, so changing them rebuilds outputs without scoring again."""
        scoring = {k: v for k, v in self.to_dict().items() if k not in OUTPUT_SETTINGS}
        return _hash({**scoring, "scheme_digest": self.load_scheme().digest, "v": version()})

    @property
    def outputs_digest(self) -> str:
        """Hash of every setting (outputs' ones included), the scheme and the version: what an
        output written from the scores depends on besides the scores."""
        return _hash({**self.to_dict(), "scheme_digest": self.load_scheme().digest, "v": version()})


#: Settings that change only how results are written, never a score (of the token track: ``time``
#: holds the time track's settings, which key that track's tasks, :mod:`segagree.corpus.time_track`).
OUTPUT_SETTINGS = frozenset({"review_matches", "report_plots", "review_pages", "time", "cues"})
#: Keys of the ``[time]`` table: the measures, the category, the time measures' parameters.
TIME_SETTINGS = frozenset(
    {"measures", "category", "alpha", "beta", "delta_empty", "samples", "seed", "sampler", "jobs"}
    | {"tolerance", "min_overlap", "resolution", "gamma_cat_variant", "collar", "skip_overlap", "convention", "uem"}
    | {"time_unit"}  # how units tables are read (s, ms or index), not a measure parameter
    | {"window"}  # the stretch scored, [START, END] seconds (the continuum), not a measure parameter
)
REPORT_PLOTS = ("corpus", "all")


def _hash(payload: dict[str, Any]) -> str:
    return json_digest(payload, 12)


_BOOLS = ("transpositions", "align", "normalise_speakers", "common_speakers", "review_matches", "review_pages", "cues")
_STRINGS = ("scheme", "layer", "mode", "reference", "format", "encoding", "report_plots")
_TABLES = ("read", "time", "speakers")
MAX_SIMS = 10_000_000  # simulated annotations per speaker (the default is 1,000)


def _shown(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:40] + '...'}"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_values(data: dict[str, Any], kappa: dict[str, Any], path: Path) -> None:
    """Refuse a setting of the wrong type or outside its range, naming the key (TOML's
    ``"false"`` is a string, which Python's truth would take for true)."""

    def refuse(key: str, expected: str, value: Any) -> None:
        raise SegagreeError(f"{key} must be {expected}, not {_shown(value)}", path=path)

    for key in _BOOLS:
        if key in data and not isinstance(data[key], bool):
            refuse(key, "true or false", data[key])
    for key in _STRINGS:
        if key in data and not isinstance(data[key], str):
            refuse(key, "a string", data[key])
    for key in _TABLES:
        if key in data and not isinstance(data[key], dict):
            refuse(key, f"a table ([{key}])", data[key])
    if "speakers" in data and not all(isinstance(v, str) for v in data["speakers"].values()):
        refuse("[speakers]", 'a table of "name" = "new name"', data["speakers"])
    if "metrics" in data and not (
        isinstance(data["metrics"], list) and all(isinstance(m, str) for m in data["metrics"])
    ):
        refuse("metrics", "a list of measure names", data["metrics"])
    if "max_mismatch" in data:
        value = data["max_mismatch"]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            refuse("max_mismatch", "a number from 0 to 1 (a share of tokens)", value)
    if data.get("encoding"):
        import codecs

        try:
            info = codecs.lookup(data["encoding"])
        except LookupError:
            refuse("encoding", "the name of a text encoding (utf-8, cp1252 ...)", data["encoding"])
        else:
            if not getattr(info, "_is_text_encoding", True):  # rot13, base64, zlib: not text encodings
                refuse("encoding", "the name of a text encoding (utf-8, cp1252 ...)", data["encoding"])
    if "enabled" in kappa and not isinstance(kappa["enabled"], bool):
        refuse("[kappa] enabled", "true or false", kappa["enabled"])
    if "chance" in kappa and not isinstance(kappa["chance"], str):
        refuse("[kappa] chance", "a string", kappa["chance"])
    if "sims" in kappa and not (_is_int(kappa["sims"]) and 1 <= kappa["sims"] <= MAX_SIMS):
        refuse("[kappa] sims", f"a whole number from 1 to {MAX_SIMS:,}", kappa["sims"])
    if "seed" in kappa and not (_is_int(kappa["seed"]) and 0 <= kappa["seed"] < 2**63):
        refuse("[kappa] seed", "a whole number from 0 to 2^63 - 1", kappa["seed"])


def load_config(path: Path | None, corpus: Path) -> RunConfig:
    """The run's settings: ``path``, else ``CORPUS/segagree.toml`` if present, else defaults."""
    if path is None:
        candidate = corpus / CONFIG_NAME
        if not candidate.is_file():
            return RunConfig(base_dir=str(corpus))
        path = candidate
    note_input(path)  # no output of the run may be written over it
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SegagreeError("no such config file", path=path) from None
    except OSError as err:
        raise SegagreeError(f"cannot read the config file ({err.strerror})", path=path) from None
    try:
        # TOML is UTF-8; a file saved as UTF-16 by an editor is read by its byte order mark.
        text = raw.decode("utf-16") if raw.startswith((b"\xff\xfe", b"\xfe\xff")) else raw.decode("utf-8-sig")
        if "\x00" in text:  # UTF-16 without a byte order mark decodes as UTF-8 with NUL bytes
            raise UnicodeDecodeError("utf-8", raw, raw.index(b"\x00"), raw.index(b"\x00") + 1, "NUL byte")
        data = tomllib.loads(text)
    except UnicodeDecodeError as err:
        raise SegagreeError(
            f"not UTF-8 (byte {err.start}): TOML files are UTF-8; save it as UTF-8", path=path
        ) from None
    except tomllib.TOMLDecodeError as err:
        raise SegagreeError(f"not valid TOML: {err}", path=path) from None
    known = set(RunConfig.__dataclass_fields__) - {"base_dir"}
    unknown = set(data) - known
    if unknown:
        raise SegagreeError(f"unknown settings {sorted(unknown)}; known: {sorted(known)}", path=path)
    kappa_raw = data.pop("kappa", {})
    if not isinstance(kappa_raw, dict):
        raise SegagreeError(f"kappa must be a table ([kappa]), not {_shown(kappa_raw)}", path=path)
    kappa_known = set(KappaSettings.__dataclass_fields__)
    if set(kappa_raw) - kappa_known:
        raise SegagreeError(f"unknown [kappa] settings {sorted(set(kappa_raw) - kappa_known)}", path=path)
    check_values(data, kappa_raw, path)
    config = RunConfig(**data, kappa=KappaSettings(**kappa_raw), base_dir=str(path.parent))
    check_mode(config.mode, path=path, error=SegagreeError)
    if config.report_plots not in REPORT_PLOTS:
        raise SegagreeError(f"report_plots must be corpus or all, not {config.report_plots!r}", path=path)
    if config.kappa.sims < 1:
        raise SegagreeError(f"[kappa] sims must be >= 1, not {config.kappa.sims}", path=path)
    unknown_read = set(config.read) - READ_OPTIONS
    if unknown_read:
        raise SegagreeError(f"unknown [read] settings {sorted(unknown_read)}; known: {sorted(READ_OPTIONS)}", path=path)
    unknown_time = set(config.time) - TIME_SETTINGS
    if unknown_time:
        raise SegagreeError(
            f"unknown [time] settings {sorted(unknown_time)}; known: {sorted(TIME_SETTINGS)}", path=path
        )
    config.load_scheme()  # fail early on a bad scheme
    return config
