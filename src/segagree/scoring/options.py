"""Which option applies where: one table, consulted by the command line and the API alike.

segagree never ignores an option in silence: an option that cannot apply to the chosen **track**
(``token`` segmentations, units in ``time`` with ``--time``, or agree's segeval ``dataset``) or to the
chosen **measures** is refused, naming the option and what applies instead (a usage error, exit 2).

Each command's options are declared in :data:`OPTIONS` (``flag -> Rule``); a new option is checked by
adding one line (tests/scoring/test_options.py fails for an option of ``agree``, ``compare``,
``review`` or ``run`` that is not declared). A rule says:

* ``tracks``: the tracks the option applies to (:data:`ANY`: every track of the command);
* ``parameter``: the option is a measure parameter (a key of the measures' cards, ``Card.parameters``,
  or of :data:`GROUP_PARAMETERS`): it applies only when one of the chosen measures takes it;
* ``unless``: other options' values with which it does nothing (``--sims`` with ``--exact``);
* ``instead``: what to use instead, for the message.

An option left at its default (or set by ``segagree.toml``) is never "given": only options typed on
the command line (or set in the environment) are checked. The API checks its measure parameters
(``params`` of the time functions, ``metric_options`` of :func:`segagree.api.compare`) with
:func:`check_measure_parameters`, which reads the same cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from segagree.errors import UsageError

__all__ = [
    "ANY",
    "DATASET",
    "GROUP_PARAMETERS",
    "OPTIONS",
    "TIME",
    "TOKEN",
    "Rule",
    "check_measure_parameters",
    "check_options",
    "table_rows",
]

TOKEN, TIME, DATASET = "token", "time", "dataset"
ANY = "*"
#: How each track is chosen and what it scores (for messages).
TRACKS = {
    TOKEN: ("without --time", "token segmentations (without --time)"),
    TIME: ("with --time", "units in time (--time)"),
    DATASET: ("with --dataset", "a segeval dataset (--dataset)"),
}
#: Keys that are not a card's parameter but apply to every measure of a card group.
GROUP_PARAMETERS = {"category": "time"}

Unless = tuple[tuple[Mapping[str, Any], str], ...]


@dataclass(frozen=True)
class Rule:
    """Where one option applies (see the module docstring)."""

    tracks: tuple[str, ...] = (ANY,)
    parameter: str | None = None
    unless: Unless = ()
    instead: str = ""


BOTH = (TOKEN, TIME)
_NO_KAPPA: Unless = (({"--kappa": False}, "with --no-kappa (no kappa is simulated)"),)


def _reading(tracks: tuple[str, ...]) -> dict[str, Rule]:
    """The reader options (cli.common.reading_options): how files are read, on every track that reads files."""
    flags = ("--from", "--encoding", "--tier", "--speaker-tier", "--word-tier", "--gap-label", "--chat-units")
    return {flag: Rule(tracks) for flag in (*flags, "--no-speaker", "--speaker-from")}


def _measure_parameters(tracks: tuple[str, ...]) -> dict[str, Rule]:
    """The time measures' parameters (cli.agree_time._scoring_options), each for the measures whose card takes it."""
    keys: tuple[str, ...] = ("alpha", "beta", "delta_empty", "samples", "sampler", "gamma_cat_variant")
    keys = (*keys, "tolerance", "matching", "min_overlap", "collar", "skip_overlap", "convention", "uem")
    rules = {"--" + key.replace("_", "-"): Rule(tracks, key) for key in (*keys, "resolution")}
    return {**rules, "--category": Rule(tracks, "category")}


def _time_input() -> dict[str, Rule]:
    """How agree/review --time find the annotators and the continuum (cli.agree_time._input_options)."""
    names = ("--annotator-tier", "--annotator", "--annotators", "--continuum")
    return {flag: Rule((TIME,)) for flag in names}


def _plan(run: bool = False) -> dict[str, Rule]:
    """The annotation plan's options (cli.agree_time._plan_options); agree and review also print it (--plan)."""
    rules = {f: Rule((TIME,)) for f in ("--missing-as-empty", "--time-unit", "--text-column", "--window", "--untimed")}
    rules["--memory-budget"] = Rule((TIME,), "memory_budget_mb")  # gamma's alignment (its cards)
    return {**rules, "--annotators": Rule((TIME,))} if run else {**rules, "--plan": Rule((TIME,))}


def _speaker_labels(time_too: tuple[str, ...]) -> dict[str, Rule]:
    """--rename (the annotation plan applies it with --time too) and the token pairing's speaker options."""
    pairing = "units in time are paired by speaker name as written"
    return {
        "--rename": Rule(time_too),
        "--keep-speaker-labels": Rule((TOKEN,), instead=pairing),
        "--common-speakers": Rule((TOKEN,), instead=pairing),
    }


_SAMPLES = "for units in time, --samples sets gamma's expected disorder"
_EXACT: Unless = (({"--exact": True}, "with --exact (the chance expectation is exact, nothing is simulated)"),)
_S_F = "S_f's search; the time measures do not use it"

OPTIONS: dict[str, dict[str, Rule]] = {
    "agree": {
        "--time": Rule(),
        "--dataset": Rule((DATASET,)),
        "--sims": Rule((TOKEN,), unless=_EXACT, instead=_SAMPLES),
        "--seed": Rule(
            (TOKEN, TIME, DATASET),
            "seed",
            (
                (
                    {"--exact": True, "--ci-speakers": False},
                    "with --exact and without --ci-speakers (nothing is random)",
                ),
            ),
        ),
        "--chance": Rule((TOKEN,), instead="for units in time, gamma's chance disorder is set by --sampler, --samples"),
        "--exact": Rule((TOKEN,), instead=_SAMPLES),
        "--mc-tolerance": Rule((TOKEN,), unless=_EXACT, instead=_SAMPLES),
        "--jobs": Rule((TOKEN, TIME), unless=_EXACT),
        "--threads": Rule((TOKEN,), unless=_EXACT, instead="for units in time, --jobs sets the worker processes"),
        "--scheme": Rule(BOTH),
        "--mode": Rule((TOKEN,), instead=_S_F),
        "--transpositions": Rule((TOKEN,), instead=_S_F),
        "--layer": Rule(BOTH),
        "--align": Rule((TOKEN,), instead="units in time need no shared transcript"),
        "--max-mismatch": Rule((TOKEN,), unless=(({"--align": False}, "without --align"),)),
        **_speaker_labels(BOTH),
        **_reading(BOTH),
        "--ci-speakers": Rule((TOKEN,)),
        "--n-boot": Rule(
            (TOKEN, DATASET),
            unless=(({"--ci-speakers": False, "--dataset": None}, "without --ci-speakers (one text: no interval)"),),
        ),
        **_time_input(),
        **_plan(),
        "--measure": Rule((TIME,), instead="token agreement scores S_f, S_f^B and their kappas"),
        **_measure_parameters((TIME,)),
        "--json": Rule(),
        "--quiet": Rule(),
    },
    "compare": {
        "--scheme": Rule(),
        "--mode": Rule((ANY,), "mode"),  # S_f's: refused where only official scorers are named
        "--metric": Rule(),
        "--layer": Rule(),
        "--transpositions": Rule((ANY,), "transpositions"),
        "--align": Rule(),
        "--max-mismatch": Rule(),
        **_speaker_labels((TOKEN,)),
        **_reading((ANY,)),
        "--ops": Rule(),
        "--csv-guard": Rule(),
        "--csv-raw": Rule(),
        "--language": Rule((ANY,), "language"),
        "--max-cpl": Rule((ANY,), "max_cpl"),
        "--seed": Rule((ANY,), "seed"),
        "--one-stream": Rule(),
        "--disrpt-version": Rule((ANY,), "version"),
        "--first-token": Rule((ANY,), "first_token"),
        **_measure_parameters((ANY,)),
        "--json": Rule(),
        "--quiet": Rule(),
    },
    "review": {
        "--output": Rule(),
        "--media": Rule(),  # the page's recording and the cues'
        "--margin": Rule(),
        **{flag: Rule(BOTH) for flag in ("--cues", "--pitch-floor", "--pitch-ceiling", "--silence-threshold")},
        "--scheme": Rule(BOTH),
        "--mode": Rule((TOKEN,), instead=_S_F),
        "--matches": Rule((TOKEN,), instead="a time review lists every aligned group"),
        "--kappa": Rule((TOKEN,)),
        "--sims": Rule((TOKEN,), unless=_NO_KAPPA, instead=_SAMPLES),
        "--seed": Rule(BOTH, "seed", _NO_KAPPA),
        "--max-mismatch": Rule((TOKEN,)),
        **_speaker_labels(BOTH),
        **_reading(BOTH),
        "--time": Rule(),
        **_time_input(),
        **_plan(),
        "--measure": Rule((TIME,)),
        **_measure_parameters((TIME,)),
        "--plot": Rule((TIME,), instead="a token review lists edit operations (no timeline)"),
        "--metric": Rule((TOKEN,), instead="--measure chooses the measure whose alignment a time review shows"),
        "--json": Rule(),
        "--quiet": Rule(),
    },
    "run": {
        "--output": Rule(),
        "--config": Rule(BOTH),
        "--reference": Rule((TOKEN,), instead="the time measures score every annotator at once"),
        "--jobs": Rule(BOTH),
        "--sample-jobs": Rule((TIME,), instead="--jobs sets the worker processes over texts"),
        "--csv-guard": Rule(),
        "--csv-raw": Rule(),
        "--backend": Rule(BOTH),
        "--scheme": Rule(BOTH),
        "--kappa": Rule((TOKEN,), instead="for units in time choose measures with --measure"),
        "--sims": Rule((TOKEN,), unless=_NO_KAPPA, instead=_SAMPLES),
        "--seed": Rule(BOTH, "seed", (({"--kappa": False, "--report": False}, "with --no-kappa and --no-report"),)),
        "--workbooks": Rule((TOKEN,), instead="for units in time use segagree review --time on a text"),
        "--review-pages": Rule((TOKEN,), instead="for units in time use segagree review --time TEXT... -o TEXT.html"),
        "--machine": Rule(BOTH),
        "--cues": Rule((TOKEN,), instead="the acoustic cues are measured on the token track only so far"),
        "--metric": Rule((TOKEN,), instead="--measure chooses the time measures"),
        "--report": Rule(BOTH),
        "--fresh": Rule(BOTH),
        **_reading(BOTH),
        "--common-speakers": Rule((TOKEN,)),
        "--quiet": Rule(),
        "--json": Rule(),
        "--time": Rule(),
        "--measure": Rule((TIME,), instead="a token run's measures are segagree.toml's metrics"),
        **_plan(run=True),
        **_measure_parameters((TIME,)),
    },
}


# --- measures and their parameters --------------------------------------------------------------------
def _cards() -> Mapping[str, Any]:
    from segagree.scoring.metric_runner import metric_cards

    return metric_cards()


def takers(key: str, cards: Mapping[str, Any] | None = None) -> list[str]:
    """The measures a parameter applies to: those whose card lists it (or of its group, for a key of
    :data:`GROUP_PARAMETERS`)."""
    cards = _cards() if cards is None else cards
    group = GROUP_PARAMETERS.get(key)
    return [n for n, c in cards.items() if (group is not None and c.group == group) or key in c.parameters]


def _taken_by_registered(key: str, chosen: Sequence[str]) -> bool:
    """Whether a registered measure among ``chosen`` takes ``key``, read from the chosen cards alone
    (every card is loaded only to say who takes a parameter nobody chosen does)."""
    from segagree.metrics.registry import MEASURES, get_measure

    cards = {n: get_measure(n).card for n in chosen if n in MEASURES}
    return bool(cards) and bool(takers(key, cards))


def _not_taken(key: str, chosen: Sequence[str], cards: Mapping[str, Any], choose: str) -> str | None:
    """Why ``key`` applies to none of ``chosen`` (None: it applies to one of them)."""
    who = takers(key, cards)
    if any(name in who for name in chosen):
        return None
    needs = {cards[n].needs for n in chosen if n in cards}
    who = [n for n in who if cards[n].needs in needs] or who  # the measures of the kind chosen
    what = f"the {GROUP_PARAMETERS[key]} measures" if key in GROUP_PARAMETERS else ", ".join(who) or "no measure"
    shown = ", ".join(dict.fromkeys(chosen)) or "none"
    # "in use": the measures chosen, or the command's default ones when none was chosen
    return f"is a parameter of {what}, not of the measures in use ({shown}); choose one with {choose}"


def check_measure_parameters(
    params: Mapping[str, Any] | None,
    chosen: Sequence[str],
    *,
    choose: str = "measures",
    known_only: bool = False,
) -> None:
    """Refuse (UsageError) a parameter no chosen measure takes. None values are "not given".

    ``known_only``: keys no card lists are left to the measures (compare's ``metric_options`` carries
    reader-like options such as the subtitles' ``layer``); otherwise an unknown key is refused too.
    """
    given = [k for k, v in (params or {}).items() if v is not None]
    if not given:
        return
    cards = _cards()
    problems = []
    for key in given:
        if not takers(key, cards):
            if not known_only:
                problems.append(f"{key!r} is not a parameter of any measure (see segagree metrics)")
            continue
        why = _not_taken(key, chosen, cards, choose)
        if why:
            problems.append(f"{key!r} {why}")
    if problems:
        raise UsageError("; ".join(problems))


# --- the command line's options -------------------------------------------------------------------------
def _applies_on(rule: Rule, track: str) -> bool:
    return ANY in rule.tracks or track in rule.tracks


def keyword_applies(command: str, keyword: str, track: str) -> bool:
    """Whether the API keyword of an option of ``command`` (``common_speakers`` for ``--common-speakers``)
    applies on ``track``: the Python API's reading of this table."""
    return _applies_on(OPTIONS[command]["--" + keyword.replace("_", "-")], track)


def _track_problem(flag: str, rule: Rule, track: str) -> str:
    where = ", ".join(TRACKS[t][1] for t in rule.tracks if t in TRACKS)
    text = f"{flag} does not apply {TRACKS[track][0]}: it applies to {where}"
    return text + (f"; {rule.instead}" if rule.instead else "")


def check_options(
    command: str,
    given: Mapping[str, Any],
    values: Mapping[str, Any],
    *,
    track: str,
    measures: Callable[[], Sequence[str]] | None = None,
    choose: str = "--measure",
) -> None:
    """Refuse (UsageError naming each) the ``given`` options (flag -> as typed) of ``command`` that do
    not apply to ``track``, to the chosen ``measures`` (called only if a measure parameter was given;
    None: the track's measures are fixed) or with the other options' ``values`` (flag -> value)."""
    table = OPTIONS[command]
    problems = []
    chosen: Sequence[str] | None = None
    for flag, shown in given.items():
        rule = table.get(flag)
        if rule is None:
            raise UsageError(f"{command}: {flag} is not declared in segagree.scoring.options.OPTIONS")
        if not _applies_on(rule, track):
            problems.append(_track_problem(shown, rule, track))
            continue
        why = next((w for cond, w in rule.unless if all(values.get(k) == v for k, v in cond.items())), None)
        if why:
            problems.append(f"{shown} does nothing {why}")
            continue
        if rule.parameter and measures is not None:
            chosen = list(measures()) if chosen is None else chosen
            if _taken_by_registered(rule.parameter, chosen):
                continue
            reason = _not_taken(rule.parameter, chosen, _cards(), choose)
            if reason:
                problems.append(f"{shown} {reason}")
    if problems:
        raise UsageError("; ".join(problems))


def table_rows(command: str) -> list[tuple[str, str]]:
    """(flag, where it applies) of each option of ``command``: the README's and the report's table."""
    out = []
    for flag, rule in OPTIONS[command].items():
        where = "every track" if ANY in rule.tracks else " and ".join(rule.tracks)
        if rule.parameter:
            where += f", measures taking {rule.parameter}"
        for _cond, words in rule.unless:
            where += f"; not {words.split(' (')[0]}"
        out.append((flag, where))
    return out
