"""Metric cards: what each metric computes, its parameters, citation and implementation.

``METRIC_CARDS`` is a plain dict from a metric's short name to its :class:`MetricCard`; it feeds
``segagree metrics``. Adding a metric is one line::

    add_card(MetricCard("ter", "Translation Edit Rate", "...", {"case_sensitive": "False"},
                        "Snover et al. 2006", library="sacrebleu", higher_is_better=False))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class MetricCard:
    """One metric's card.

    Attributes:
        name: short name (the registry key, used on the command line).
        title: full name.
        definition: one line: what is computed.
        parameters: parameter name -> default, as text.
        citation: the paper that defines it.
        library: what computes it (``"segagree"``, or e.g. ``"sacrebleu"``).
        higher_is_better: True for similarities and agreement, False for error rates.
        reference: the implementation it is checked against, if any.
    """

    name: str
    title: str
    definition: str
    parameters: Mapping[str, str] = field(default_factory=dict)
    citation: str = ""
    library: str = "segagree"
    higher_is_better: bool = True
    reference: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", MappingProxyType(dict(self.parameters)))


METRIC_CARDS: dict[str, MetricCard] = {}


def add_card(card: MetricCard) -> MetricCard:
    """Register a card under its name; a name can be registered only once."""
    if card.name in METRIC_CARDS:
        raise ValueError(f"metric card {card.name!r} is already registered")
    METRIC_CARDS[card.name] = card
    return card


_LAI = "Lai, Li & Zhang (2023), a flexible segmentation similarity for typed boundaries (segsimflex)"
_FI2012 = "Fournier & Inkpen (2012), Segmentation Similarity and Agreement, NAACL-HLT"
_F2013 = "Fournier (2013), Evaluating Text Segmentation using Boundary Edit Distance, ACL"

add_card(
    MetricCard(
        "sf",
        "S_f (flexible segmentation similarity)",
        "1 - scheme-weighted edit cost / number of token positions, typed boundaries with a "
        "similarity matrix and transpositions",
        {"scheme": "dubois", "mode": "optimal"},
        _LAI,
        reference="R segsimflex 0.1.3",
    )
)
add_card(
    MetricCard(
        "sf_b",
        "S_f^B (flexible boundary similarity)",
        "(actions - scheme-weighted edit cost) / actions, actions = matches and edit operations",
        {"scheme": "dubois", "mode": "optimal"},
        _LAI,
        reference="R segsimflex 0.1.3",
    )
)
add_card(
    MetricCard(
        "s",
        "Segmentation Similarity S",
        "(P - E) / P, E = weighted boundary edits, P = (N-1)|T|^2 potential boundaries",
        {"n_t": "2", "weights": "segeval (addition 1, ordinal substitution, span/n_t)"},
        _FI2012,
        reference="segeval 2.0.11",
    )
)
add_card(
    MetricCard(
        "b",
        "Boundary Similarity B",
        "1 - E / (additions + substitutions + transpositions + matches), E = weighted edits",
        {"n_t": "2", "weights": "segeval", "scheme": "none (ordinal types)"},
        _F2013,
        reference="segeval 2.0.11",
    )
)
add_card(
    MetricCard(
        "bed",
        "Boundary edit distance",
        "additions, substitutions and transpositions (near misses within n_t - 1 positions), greedy as in segeval",
        {"n_t": "2", "weights": "segeval"},
        _F2013,
        higher_is_better=False,
        reference="segeval 2.0.11",
    )
)
add_card(
    MetricCard(
        "pk",
        "Pk",
        "share of the N-k windows where exactly one segmentation has a boundary",
        {"k": "floor(mean reference mass / 2)", "k_rule": "half_mean"},
        "Beeferman, Berger & Lafferty (1999), Statistical Models for Text Segmentation, Machine Learning 34",
        higher_is_better=False,
        reference="NLTK 3.10.4, segeval 2.0.11",
    )
)
add_card(
    MetricCard(
        "windowdiff",
        "WindowDiff",
        "share of the N-k windows whose boundary counts differ",
        {"k": "floor(mean reference mass / 2)", "k_rule": "half_mean", "lamprier": "False"},
        "Pevzner & Hearst (2002), A Critique and Improvement of an Evaluation Metric for Text "
        "Segmentation, Computational Linguistics 28",
        higher_is_better=False,
        reference="NLTK 3.10.4, segeval 2.0.11",
    )
)
add_card(
    MetricCard(
        "winpr",
        "WinPR",
        "window-based TP/TN/FP/FN over k+1-gap windows with k phantom gaps of padding; precision, recall, F1",
        {"k": "floor(mean reference mass / 2)", "k_rule": "half_mean"},
        "Scaiano & Inkpen (2012), Getting More from Segmentation Evaluation, NAACL-HLT",
    )
)
add_card(
    MetricCard(
        "ghd",
        "Generalised Hamming distance (GHD)",
        "cheapest way to turn B's boundaries into A's by insertions, deletions and shifts "
        "(shift cost = coefficient x distance), by NLTK's dynamic programme; summed over speakers",
        {"ins_cost": "2.0", "del_cost": "2.0", "shift_cost_coeff": "1.0", "boundary": "'1' (NLTK strings)"},
        "Bookstein, Kulyukin & Raita (2002), Generalized Hamming Distance, Information Retrieval 5",
        higher_is_better=False,
        reference="NLTK 3.10.4 nltk.metrics.segmentation.ghd",
    )
)
add_card(
    MetricCard(
        "a",
        "Alignment-based similarity A",
        "mean Jaccard over the distinct edges aligning every segment to its best-covering overlapping segment",
        {},
        "An Alignment-Based Approach to Text Segmentation Similarity Scoring, CoNLL 2022",
        reference="the paper's code (values only)",
    )
)
add_card(
    MetricCard(
        "b_scheme",
        "Boundary Similarity B with a scheme's costs",
        "B with unordered types: substitutions cost 1 - M[x, y], additions the scheme's insertion/deletion "
        "cost, transpositions min(1, cost per token x span)",
        {"n_t": "2", "scheme": "the compared layer's scheme"},
        _F2013 + "; scheme weights: segagree",
    )
)
_AGREE = "Lai, Li & Zhang (2023) section 5 (simulated chance); Cohen (1960), Scott (1955), Bennett et al. (1954)"
add_card(
    MetricCard(
        "kappa_sf",
        "kappa of S_f",
        "(S_f - E[S_f]) / (1 - E[S_f]), E[S_f] the mean S_f of K simulated chance annotation pairs",
        {"chance": "cohen (scott, bennett, bennett_modified, segsimflex)", "sims": "1000", "seed": "12345"},
        _AGREE,
        reference="R segsimflex 0.1.3 IAA (within Monte Carlo error)",
    )
)
add_card(
    MetricCard(
        "kappa_sf_b",
        "kappa of S_f^B",
        "(S_f^B - E[S_f^B]) / (1 - E[S_f^B]) with simulated chance annotations, as kappa_sf",
        {"chance": "cohen", "sims": "1000", "seed": "12345"},
        _AGREE,
        reference="R segsimflex 0.1.3 IAA (within Monte Carlo error)",
    )
)
add_card(
    MetricCard(
        "fleiss_pi",
        "Fleiss' multi-pi",
        "(A_a - A_e) / (1 - A_e): actual agreement pooled over coder pairs, expected from pooled boundary "
        "proportions (Scott's pi for two coders)",
        {"similarity": "b (s, sf, sf_b)", "n_t": "2"},
        _FI2012 + "; Fleiss (1971)",
        reference="segeval 2.0.11 fleiss_pi_linear",
    )
)
add_card(
    MetricCard(
        "fleiss_kappa",
        "Fleiss' multi-kappa",
        "(A_a - A_e) / (1 - A_e) with A_e the mean over coder pairs of their proportions' product "
        "(Cohen's kappa for two coders)",
        {"similarity": "b (s, sf, sf_b)", "n_t": "2"},
        _FI2012 + "; Davies & Fleiss (1982)",
        reference="segeval 2.0.11 fleiss_kappa_linear",
    )
)
add_card(
    MetricCard(
        "bias",
        "Artstein & Poesio annotator bias",
        "A_e(pi) - A_e(kappa): how much the coders' boundary proportions differ",
        {"similarity": "b"},
        _FI2012 + "; Artstein & Poesio (2008)",
        higher_is_better=False,
        reference="segeval 2.0.11 artstein_poesio_bias_linear",
    )
)
