"""How to read each built-in measure: its formula, range, reading, chance level, reference link and a
worked example, joined to its card by the registry (:func:`segagree.metrics.registry.cards`).

A card's own fields win: a measure module (or a plugin) may carry these fields on its card itself. The
table is kept apart from the measure modules because it is documentation, read together: the metric
page of the site and ``segagree metrics NAME`` print it, and the tests hold every built-in measure to
an entry here and run every worked example (``tests/docs/test_metric_cards.py``). An example is a Python
expression run in the sample corpora (``segagree demo DIR`` copies them), ``->``, and its value as
:func:`shown` prints it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

GUIDE_FIELDS = ("formula", "range", "reading", "chance", "link", "example")


def shown(value: Any) -> str:
    """A worked example's value as the guide prints it: floats to 4 decimals (in mappings too),
    fractions as ``p/q``, everything else as Python writes it."""

    def rounded(v: Any) -> Any:
        if isinstance(v, float):
            return round(v, 4)
        if isinstance(v, dict):
            return {k: rounded(x) for k, x in v.items()}
        return v

    value = rounded(value)
    return str(value) if isinstance(value, Fraction) else repr(value)


GUIDES: dict[str, dict[str, str]] = {
    "sf": {
        "formula": r"S_f = 1 - \frac{\sum_{\text{speakers}} \text{cost}(A \to B)}{N}",
        "range": "[0, 1]",
        "reading": (
            "1: the two annotators placed every boundary alike, with the same endnote; each "
            "insertion, deletion, type change or near miss costs what the scheme says, so 0.95 "
            "means 5 % of the token positions' worth of edits. Dense agreement on 'no boundary' "
            "keeps it high: read it with S_f^B and kappa"
        ),
        "link": "https://doi.org/10.7275/fk79-fv58",
        "example": 'segagree.compare("garden.ann1.txt", "garden.ann2.txt").sf -> 0.9435',
    },
    "sf_b": {
        "formula": r"S_f^B = \frac{n_{\text{actions}} - \text{cost}(A \to B)}{n_{\text{actions}}}",
        "range": "[0, 1]",
        "reading": (
            "the share of boundary decisions (matches and edits) the two annotators agree on, "
            "weighted by the scheme; positions where neither put a boundary do not count, so it is "
            "lower and more telling than S_f"
        ),
        "link": "https://doi.org/10.7275/fk79-fv58",
        "example": 'segagree.compare("garden.ann1.txt", "garden.ann2.txt").sf_b -> 0.7439',
    },
    "s": {
        "formula": r"S = \frac{P - E}{P},\quad P = (N - 1)\,|T|^2",
        "range": "[0, 1]",
        "reading": (
            "1: identical segmentations; each full miss costs a whole potential boundary, a near "
            "miss (within n_t - 1 units) a fraction. Counts every potential boundary, so it is "
            "high on long texts with few boundaries"
        ),
        "link": "https://aclanthology.org/N12-1016/",
        "example": (
            "segagree.metrics.segmentation_similarity([1, 2, 2, 3, 3, 1, 2], [1, 2, 1, 2, 6, 2]).value -> 0.7308"
        ),
    },
    "b": {
        "formula": (
            r"B = 1 - \frac{E}{n_{\text{additions}} + n_{\text{substitutions}} + "
            r"n_{\text{transpositions}} + n_{\text{matches}}}"
        ),
        "range": "[0, 1]",
        "reading": (
            "1: every boundary matched; 0: no boundary of one annotator near one of the other. "
            "Only boundaries count, not the positions nobody marked (Fournier's recommended "
            "measure)"
        ),
        "link": "https://aclanthology.org/P13-1167/",
        "example": ("segagree.metrics.boundary_similarity([1, 2, 2, 3, 3, 1, 2], [1, 2, 1, 2, 6, 2]).value -> 0.5"),
    },
    "b_scheme": {
        "formula": (
            r"B_M = 1 - \frac{\sum_{e \in \text{edits}} \text{cost}_M(e)}{n_{\text{additions}} + "
            r"n_{\text{substitutions}} + n_{\text{transpositions}} + n_{\text{matches}}}"
        ),
        "range": "[0, 1]",
        "reading": (
            "as B, with the endnote scheme's costs: a ',' read as '.' costs 1 - M[',', '.'] "
            "instead of a whole substitution"
        ),
        "link": "https://aclanthology.org/P13-1167/",
        "example": (
            'segagree.compare("garden.ann1.txt", "garden.ann2.txt", metrics=["b_scheme"]).value("b_scheme") -> 0.75'
        ),
    },
    "bed": {
        "range": "0 or more (edits)",
        "reading": (
            "how many edits turn one segmentation into the other: additions (a boundary only one "
            "annotator has), substitutions (another type) and transpositions (near misses), "
            "weighted as segeval weighs them; 0 is identical"
        ),
        "link": "https://aclanthology.org/P13-1167/",
        "example": (
            "segagree.metrics.boundary_edit_distance([1, 2, 2, 3, 3, 1, 2], [1, 2, 1, 2, 6, 2]).weighted_edits -> 7/2"
        ),
    },
    "pk": {
        "formula": (
            r"P_k = \frac{1}{N - k} \sum_{i=1}^{N-k} \left[\delta_A(i, i+k) \ne \delta_B(i, "
            r"i+k)\right]"
        ),
        "range": "[0, 1]",
        "reading": (
            "the probability that a window of k units is judged differently (one side sees a "
            "boundary inside it, the other none); 0 is perfect, a segmentation with no boundary or "
            "with all boundaries scores about 0.5 on typical texts. A near miss costs less than a "
            "full miss"
        ),
        "link": "https://doi.org/10.1023/A:1007506220214",
        "example": "segagree.metrics.pk([1, 2, 2, 3, 3, 1, 2], [1, 2, 1, 2, 6, 2]).value -> 0.3333",
    },
    "windowdiff": {
        "formula": (
            r"\mathrm{WD} = \frac{1}{N - k} \sum_{i=1}^{N-k} \left[\,|b_A(i, i+k) - b_B(i, i+k)| > "
            r"0\,\right]"
        ),
        "range": "[0, 1]",
        "reading": (
            "the share of windows of k units whose boundary counts differ; 0 is perfect. Unlike Pk "
            "it also penalises a wrong number of boundaries inside a window"
        ),
        "link": "https://doi.org/10.1162/089120102317341756",
        "example": "segagree.metrics.windowdiff([1, 2, 2, 3, 3, 1, 2], [1, 2, 1, 2, 6, 2]).value -> 0.5",
    },
    "winpr": {
        "formula": r"P = \frac{TP}{TP + FP},\quad R = \frac{TP}{TP + FN},\quad F_1 = \frac{2PR}{P + R}",
        "range": "[0, 1] (each of precision, recall, F1)",
        "reading": (
            "WindowDiff's windows read as a confusion table: precision says how many of B's "
            "boundaries A has nearby, recall how many of A's B found; the value is F1, 1 at best"
        ),
        "link": "https://aclanthology.org/N12-1038/",
        "example": "segagree.metrics.winpr([1, 2, 2, 3, 3, 1, 2], [1, 2, 1, 2, 6, 2]).value -> 0.7879",
    },
    "a": {
        "range": "[0, 1]",
        "reading": (
            "1: every segment of one side lines up exactly with one of the other; a segment split "
            "in two, or shifted, loses the part of its Jaccard overlap it does not share. It "
            "judges segments, not isolated boundaries"
        ),
        "link": "https://doi.org/10.18653/v1/2022.conll-1.26",
        "example": ("segagree.metrics.alignment_similarity([1, 2, 2, 3, 3, 1, 2], [1, 2, 1, 2, 6, 2]).value -> 0.5982"),
    },
    "ghd": {
        "range": "0 or more (cost units)",
        "reading": (
            "the cheapest cost of turning B's boundaries into A's: 2 per inserted or deleted "
            "boundary, a shift costs its distance; 0 is identical. Not normalised: compare it only "
            "between texts of one length"
        ),
        "link": "https://doi.org/10.1023/A:1020499411651",
        "example": ('segagree.compare("garden.ann1.txt", "garden.ann2.txt", metrics=["ghd"]).value("ghd") -> 11.0'),
    },
    "ud_sentences": {
        "formula": (
            r"P = \frac{\text{correct}}{\text{system sentences}},\quad R = "
            r"\frac{\text{correct}}{\text{gold sentences}},\quad F_1 = \frac{2PR}{P + R}"
        ),
        "range": "[0, 1]",
        "reading": (
            "the CoNLL 2018 shared task's sentence score: a system sentence counts only when a "
            "gold sentence spans exactly the same characters (so any two tokenisations of the same "
            "text compare); the value is F1"
        ),
        "link": "https://aclanthology.org/K18-2001/",
    },
    "disrpt_seg": {
        "formula": r"P = \frac{TP}{TP + FP},\quad R = \frac{TP}{TP + FN},\quad F_1 = \frac{2PR}{P + R}",
        "range": "[0, 1]",
        "reading": (
            "the DISRPT shared task's score: token by token, does each token begin a discourse "
            "unit on both sides (on connectives: exact spans, built as the 2023 script builds them, "
            "or the 2019 script with version = 2019); the value is F1 over the whole file, as "
            "seg_eval.py prints it"
        ),
        "link": "https://aclanthology.org/W19-2701/",
    },
    "edus_seg": {
        "formula": r"F_1 = \frac{2PR}{P + R}\ \text{over the EDU boundaries inside gold sentences}",
        "range": "[0, 1]",
        "reading": (
            "RST-DT's usual score: only EDU boundaries inside a sentence count (sentence ends are "
            "given), so it is lower than a score over every boundary"
        ),
        "link": "https://aclanthology.org/N03-1030/",
    },
    "kappa_sf": {
        "formula": r"\kappa_{S_f} = \frac{S_f - \mathrm{E}[S_f]}{1 - \mathrm{E}[S_f]}",
        "range": "(-infinity, 1]; in practice [-1, 1]",
        "reading": (
            "agreement beyond chance: 1 is perfect, 0 is chance, below 0 worse than chance. S_f "
            "itself is high whenever boundaries are rare; kappa says how much of it is more than "
            "chance would give"
        ),
        "chance": (
            "0: the annotators agree only as much as two annotators who place the same numbers of "
            "boundaries of each type at random would (the simulated chance pairs)"
        ),
        "link": "https://doi.org/10.7275/fk79-fv58",
        "example": (
            'segagree.agree("garden.ann1.txt", "garden.ann2.txt", sims=200, '
            'seed=1)["pairs"][0]["pooled"]["kappa_sf"]["kappa"] -> 0.8141'
        ),
    },
    "kappa_sf_b": {
        "formula": r"\kappa_{S_f^B} = \frac{S_f^B - \mathrm{E}[S_f^B]}{1 - \mathrm{E}[S_f^B]}",
        "range": "(-infinity, 1]; in practice [-1, 1]",
        "reading": (
            "as kappa of S_f, on the boundary-normalised S_f^B: agreement on the boundaries themselves beyond chance"
        ),
        "chance": (
            "0: the annotators agree only as much as two annotators who place the same numbers of "
            "boundaries of each type at random would (the simulated chance pairs)"
        ),
        "link": "https://doi.org/10.7275/fk79-fv58",
        "example": (
            'segagree.agree("garden.ann1.txt", "garden.ann2.txt", sims=200, '
            'seed=1)["pairs"][0]["pooled"]["kappa_sf_b"]["kappa"] -> 0.7374'
        ),
    },
    "fleiss_pi": {
        "formula": r"\pi^* = \frac{A_a - A_e^{\pi}}{1 - A_e^{\pi}}",
        "range": "(-infinity, 1]; in practice [-1, 1]",
        "reading": (
            "agreement of two or more annotators beyond chance, with one boundary distribution "
            "pooled over all of them (Scott's pi for two); 1 perfect, 0 chance"
        ),
        "chance": ("0: agreement no better than annotators placing boundaries at random in the pooled proportions"),
        "link": "https://aclanthology.org/N12-1016/",
        "example": (
            'segagree.agree("panel/garden.ann1.txt", "panel/garden.ann2.txt", '
            '"panel/garden.ann3.txt", sims=200, seed=1)["multi"]["sf"]["pi"] -> 0.5871'
        ),
    },
    "fleiss_kappa": {
        "formula": r"\kappa^* = \frac{A_a - A_e^{\kappa}}{1 - A_e^{\kappa}}",
        "range": "(-infinity, 1]; in practice [-1, 1]",
        "reading": (
            "as multi-pi, with each annotator's own boundary proportions in the chance model "
            "(Cohen's kappa for two); 1 perfect, 0 chance"
        ),
        "chance": ("0: agreement no better than each annotator placing boundaries at random in their own proportions"),
        "link": "https://aclanthology.org/N12-1016/",
        "example": (
            'segagree.agree("panel/garden.ann1.txt", "panel/garden.ann2.txt", '
            '"panel/garden.ann3.txt", sims=200, seed=1)["multi"]["sf"]["kappa"] -> 0.5877'
        ),
    },
    "bias": {
        "formula": r"\text{bias} = A_e^{\pi} - A_e^{\kappa}",
        "range": "small values around 0",
        "reading": (
            "how far the annotators' boundary proportions differ: 0 when they mark boundaries "
            "equally often; a large value means multi-kappa and multi-pi part because one "
            "annotator segments more finely"
        ),
        "link": "https://doi.org/10.1162/coli.07-034-R2",
        "example": (
            'segagree.agree("panel/garden.ann1.txt", "panel/garden.ann2.txt", '
            '"panel/garden.ann3.txt", sims=200, seed=1)["multi"]["sf"]["bias"] -> 0.0005'
        ),
    },
    "gamma": {
        "formula": r"\gamma = 1 - \frac{\bar{D}_o}{\bar{D}_e}",
        "range": "(-infinity, 1]",
        "reading": (
            "agreement on where units are and what they are, beyond chance: 1 when the best "
            "alignment pairs every unit with an identical one; below 0 worse than chance. "
            "Positions and categories both count"
        ),
        "chance": (
            "0: the observed disorder equals the expected disorder of random continua built from "
            "the annotators' own units"
        ),
        "link": "https://doi.org/10.1162/COLI_a_00227",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], measures=["gamma"])["gamma"] -> 0.2946'
        ),
    },
    "gamma_cat": {
        "formula": r"\gamma_{cat} = 1 - \frac{\bar{D}_o^{cat}}{\bar{D}_e^{cat}}",
        "range": "(-infinity, 1]",
        "reading": (
            "agreement on categories alone, once units are aligned by gamma; 1 when every aligned "
            "pair has the same category"
        ),
        "chance": (
            "0: the observed disorder equals the expected disorder of random continua built from "
            "the annotators' own units"
        ),
        "link": "https://doi.org/10.1162/COLI_a_00296",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], '
            'measures=["gamma_cat"])["gamma_cat"] -> 0.4471'
        ),
    },
    "gamma_k": {
        "range": "(-infinity, 1] for each category",
        "reading": ("gamma-cat per category: which categories the annotators agree on and which they confuse"),
        "chance": (
            "0: the observed disorder equals the expected disorder of random continua built from "
            "the annotators' own units"
        ),
        "link": "https://doi.org/10.1162/COLI_a_00296",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], '
            "measures=[\"gamma_k\"])[\"gamma_k\"] -> {'beat': 1.0, 'point': 0.5222, 'iconic': "
            "-0.0538}"
        ),
    },
    "alpha_u": {
        "formula": r"{}_u\alpha = 1 - \frac{\operatorname{mean}_c D_o(c)}{\operatorname{mean}_c D_e(c)}",
        "range": "(-infinity, 1]",
        "reading": ("Krippendorff's unitizing reliability: 1 when the annotators' units coincide exactly; 0 chance"),
        "chance": "0: agreement of units placed at random on the continuum",
        "link": "https://doi.org/10.2307/271073",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], measures=["alpha_u"])["alpha_u"] -> 0.3321'
        ),
    },
    "u_alpha": {
        "formula": r"u\alpha = 1 - \frac{l - \sum_c o_{cc}}{l - \sum_c e_{cc}}",
        "range": "(-infinity, 1]",
        "reading": (
            "agreement on the whole continuum, units and gaps alike: 1 when every stretch of time "
            "is given the same value (or gap) by every annotator"
        ),
        "chance": "0: the coincidences expected by chance from the values' lengths",
        "link": "https://doi.org/10.1007/s11135-015-0266-1",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], measures=["u_alpha"])["u_alpha"] -> 0.4831'
        ),
    },
    "bu_alpha": {
        "formula": (
            r"|u\alpha = 1 - \frac{l_\varnothing - "
            r"o_{\varnothing\varnothing}}{e_{\varnothing\cdot} - e_{\varnothing\varnothing}}"
        ),
        "range": "(-infinity, 1]",
        "reading": "agreement on where units are, values put aside: units against gaps",
        "chance": "0: units and gaps placed by chance",
        "link": "https://doi.org/10.1007/s11135-015-0266-1",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], '
            'measures=["bu_alpha"])["bu_alpha"] -> 0.5842'
        ),
    },
    "cu_alpha": {
        "formula": r"cu\alpha = 1 - \frac{l' - \sum_c o_{cc}}{l' - \sum_c e'_{cc}}",
        "range": "(-infinity, 1]",
        "reading": (
            "agreement on the values where valued units of two annotators overlap: do they call "
            "the same stretch the same thing"
        ),
        "chance": "0: values paired by chance over the intersections",
        "link": "https://doi.org/10.1007/s11135-015-0266-1",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], '
            'measures=["cu_alpha"])["cu_alpha"] -> 0.4253'
        ),
    },
    "ku_alpha": {
        "range": "(-infinity, 1] for each value",
        "reading": (
            "cuα per value: which values are used reliably; its value is one number per category "
            "(ku_alpha_values), undefined where a value has no intersection to judge"
        ),
        "chance": "0 for each value",
        "link": "https://doi.org/10.1007/s11135-015-0266-1",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], '
            'measures=["ku_alpha"])["measures"]["ku_alpha"]["pooled"]["ku_alpha_values"]["point"]["alpha"] '
            "-> 0.3588"
        ),
    },
    "elan_kappa": {
        "formula": r"\kappa_{ipf} = \frac{p_o - p_{ipf}}{1 - p_{ipf}}",
        "range": "[-1, 1]",
        "reading": (
            "ELAN's modified Cohen's kappa: annotations matched in time become pairs of labels "
            "(unmatched ones are paired with 'no annotation'); 1 perfect, 0 chance"
        ),
        "chance": (
            "0: label pairs as often equal as the iterative proportional fitting of the table's margins predicts"
        ),
        "link": "https://doi.org/10.3758/s13428-014-0506-7",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], '
            'measures=["elan_kappa"])["elan_kappa"] -> 0.3182'
        ),
    },
    "boundary_f1": {
        "formula": (
            r"F_1 = \frac{2PR}{P + R},\ P = \frac{\text{matches}}{|B|},\ R = "
            r"\frac{\text{matches}}{|A|}"
        ),
        "range": "[0, 1]",
        "reading": (
            "the share of boundaries both annotators put within the tolerance of each other (one "
            "to one); 1 at best. Says nothing of labels"
        ),
        "link": "https://doi.org/10.21437/Interspeech.2017-411",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], '
            'measures=["boundary_f1"])["boundary_f1"] -> 0.8'
        ),
    },
    "purity_coverage": {
        "formula": r"F = \frac{2\,\text{purity}\cdot\text{coverage}}{\text{purity} + \text{coverage}}",
        "range": "[0, 1]",
        "reading": (
            "coverage: how much of each of A's segments lies in a single segment of B; purity the "
            "other way; the value is their F-measure, 1 when the two partitions of time coincide "
            "(A is the reference)"
        ),
        "link": "https://doi.org/10.21437/Interspeech.2017-411",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], '
            'measures=["purity_coverage"])["purity_coverage"] -> 0.9604'
        ),
    },
    "boundary_displacement": {
        "range": (
            "[0, 1] (the value: the share of A's boundaries within 20 ms); the mean and median "
            "displacement 0 or more ms"
        ),
        "reading": (
            "how far each of A's boundaries is from B's, as forced aligners are judged: the share "
            "within 10, 20 and 25 ms, and the mean and median distance; the example's annotators "
            "are 100 ms apart at the median"
        ),
        "link": "https://doi.org/10.21437/Interspeech.2017-1386",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], '
            'measures=["boundary_displacement"])["measures"]["boundary_displacement"]["pooled"]["median_ms"] '
            "-> 100.0"
        ),
    },
    "overlap_extent": {
        "formula": (
            r"\text{ratio} = \operatorname{mean}_{\text{pairs}} \frac{\text{overlap}(a, "
            r"b)}{\text{extent}(a, b)}"
        ),
        "range": "[0, 1]",
        "reading": (
            "ELAN's 'overlap / total extent': each of A's annotations paired with the B annotation "
            "it overlaps most; how much of their combined span they share, 0 for an annotation "
            "left unpaired; 1 when they coincide"
        ),
        "link": "https://archive.mpi.nl/tla/elan",
        "example": (
            'segagree.agree_time(["time/kim.TextGrid", "time/lee.TextGrid"], '
            'measures=["overlap_extent"])["overlap_extent"] -> 0.4079'
        ),
    },
    "der": {
        "formula": (
            r"\text{DER} = \frac{\text{missed} + \text{false alarm} + \text{confusion}}"
            r"{\text{scored speaker time}}"
        ),
        "range": "0 or more (above 1 when the system talks much more than the reference)",
        "reading": (
            "the share of the reference's speaker time that the system gets wrong after its speaker "
            "labels are mapped to the reference's at best: speech missed, speech added, and speech "
            "given to the wrong speaker; 0 is perfect. A collar forgives the time around the "
            "reference's boundaries"
        ),
        "link": "https://github.com/pyannote/pyannote-metrics",
        "example": (
            'segagree.agree_time(["diarization/meeting.ref.rttm", "diarization/meeting.sys.rttm"], '
            'measures=["der"])["der"] -> 0.2846'
        ),
    },
    "jer": {
        "formula": (
            r"\text{JER} = \operatorname{mean}_{r} \left(1 - "
            r"\frac{|R_r \cap H_{m(r)}|}{|R_r \cup H_{m(r)}|}\right)"
        ),
        "range": "[0, 1]",
        "reading": (
            "for each reference speaker, how much of the time that it or its mapped system speaker "
            "talks they do not share, averaged over the reference speakers (each weighs the same, "
            "however long it talks); 1 for a speaker the system never maps; 0 is perfect"
        ),
        "link": "https://github.com/nryant/dscore",
        "example": (
            'segagree.agree_time(["diarization/meeting.ref.rttm", "diarization/meeting.sys.rttm"], '
            'measures=["jer"])["jer"] -> 0.3665'
        ),
    },
    "suber_metrics": {
        "range": "0 or more for error rates (SubER, WER, TER: %), [0, 100] for BLEU and chrF",
        "reading": (
            "SubER: the edits (with shifts, breaks included, words only where subtitles overlap in "
            "time) per reference word, in %; 0 is perfect. The other entries are the metrics "
            "SubER's tool prints beside it"
        ),
        "link": "https://arxiv.org/abs/2205.05805",
        "example": (
            'segagree.compare("film.ref.srt", "film.mt.srt", '
            'metrics=["suber_metrics"])["metrics"]["suber_metrics"]["SubER"] -> 28.571'
        ),
    },
    "sigma": {
        "formula": r"\Sigma = 100 \cdot \frac{\mathrm{BLEU}_{br}}{\mathrm{BLEU}_{br}^{\text{upper}}}",
        "range": "[0, 100]",
        "reading": (
            "the quality of the breaks alone: 100 when the hypothesis's breaks are where the "
            "reference's are, whatever its words"
        ),
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.ref.srt", metrics=["sigma"]).value("sigma") -> 100.0'),
    },
    "bleu_br": {
        "range": "[0, 100]",
        "reading": "BLEU with the breaks as tokens: words and breaks together; 100 identical",
        "link": "https://arxiv.org/abs/2006.01080",
        "example": ('segagree.compare("film.ref.srt", "film.ref.srt", metrics=["bleu_br"]).value("bleu_br") -> 100.0'),
    },
    "bleu_nb": {
        "range": "[0, 100]",
        "reading": ("BLEU with the breaks removed: the words alone; the gap to BLEU_br is what the breaks cost"),
        "link": "https://arxiv.org/abs/2006.01080",
        "example": ('segagree.compare("film.ref.srt", "film.ref.srt", metrics=["bleu_nb"]).value("bleu_nb") -> 100.0'),
    },
    "ter_br": {
        "range": "0 or more (%)",
        "reading": "edits of the breaks alone (words masked) per reference token; 0 is perfect",
        "link": "https://arxiv.org/abs/2006.01080",
        "example": ('segagree.compare("film.ref.srt", "film.ref.srt", metrics=["ter_br"]).value("ter_br") -> 0.0'),
    },
    "cpl_conformity": {
        "range": "[0, 100] (%)",
        "reading": ("the share of subtitle lines short enough to read (at most max_cpl characters); 100 at best"),
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": (
            'segagree.compare("film.ref.srt", "film.mt.srt", '
            'metrics=["cpl_conformity"]).value("cpl_conformity") -> 100.0'
        ),
    },
    "f1_eob": {
        "range": "[0, 1]",
        "reading": ("F1 of break positions: 1 when every break is in the reference's place; here of block breaks"),
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["f1_eob"]).value("f1_eob") -> 0.7273'),
    },
    "pk_eob": {
        "range": "[0, 1]",
        "reading": "Pk over the breaks (see pk); 0 is perfect; here of block breaks",
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["pk_eob"]).value("pk_eob") -> 0.3571'),
    },
    "windowdiff_eob": {
        "range": "[0, 1]",
        "reading": "WindowDiff over the breaks (see windowdiff); 0 is perfect; here of block breaks",
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": (
            'segagree.compare("film.ref.srt", "film.mt.srt", '
            'metrics=["windowdiff_eob"]).value("windowdiff_eob") -> 0.3571'
        ),
    },
    "s_eob": {
        "range": "[0, 1]",
        "reading": "S over the breaks (see s); 1 is identical; here of block breaks",
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["s_eob"]).value("s_eob") -> 0.9348'),
    },
    "b_eob": {
        "range": "[0, 1]",
        "reading": "B over the breaks (see b); 1 is identical; here of block breaks",
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["b_eob"]).value("b_eob") -> 0.5'),
    },
    "f1_eol": {
        "range": "[0, 1]",
        "reading": ("F1 of break positions: 1 when every break is in the reference's place; here of line breaks"),
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["f1_eol"]).value("f1_eol") -> 0.4444'),
    },
    "pk_eol": {
        "range": "[0, 1]",
        "reading": "Pk over the breaks (see pk); 0 is perfect; here of line breaks",
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["pk_eol"]).value("pk_eol") -> 0.2619'),
    },
    "windowdiff_eol": {
        "range": "[0, 1]",
        "reading": "WindowDiff over the breaks (see windowdiff); 0 is perfect; here of line breaks",
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": (
            'segagree.compare("film.ref.srt", "film.mt.srt", '
            'metrics=["windowdiff_eol"]).value("windowdiff_eol") -> 0.2619'
        ),
    },
    "s_eol": {
        "range": "[0, 1]",
        "reading": "S over the breaks (see s); 1 is identical; here of line breaks",
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["s_eol"]).value("s_eol") -> 0.9239'),
    },
    "b_eol": {
        "range": "[0, 1]",
        "reading": "B over the breaks (see b); 1 is identical; here of line breaks",
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["b_eol"]).value("b_eol") -> 0.3'),
    },
    "f1_eox": {
        "range": "[0, 1]",
        "reading": (
            "F1 of break positions: 1 when every break is in the reference's place; here of all breaks as one type"
        ),
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["f1_eox"]).value("f1_eox") -> 0.7778'),
    },
    "pk_eox": {
        "range": "[0, 1]",
        "reading": "Pk over the breaks (see pk); 0 is perfect; here of all breaks as one type",
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["pk_eox"]).value("pk_eox") -> 0.1364'),
    },
    "windowdiff_eox": {
        "range": "[0, 1]",
        "reading": ("WindowDiff over the breaks (see windowdiff); 0 is perfect; here of all breaks as one type"),
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": (
            'segagree.compare("film.ref.srt", "film.mt.srt", '
            'metrics=["windowdiff_eox"]).value("windowdiff_eox") -> 0.1818'
        ),
    },
    "s_eox": {
        "range": "[0, 1]",
        "reading": "S over the breaks (see s); 1 is identical; here of all breaks as one type",
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["s_eox"]).value("s_eox") -> 0.9457'),
    },
    "b_eox": {
        "range": "[0, 1]",
        "reading": "B over the breaks (see b); 1 is identical; here of all breaks as one type",
        "link": "https://aclanthology.org/2022.lrec-1.328/",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["b_eox"]).value("b_eox") -> 0.7222'),
    },
    "reading_speed": {
        "range": "0 or more characters per second",
        "reading": (
            "how fast the viewer must read; profiles allow about 17 (Netflix adults) to 21 (TED) "
            "characters per second: lower is easier"
        ),
        "link": "https://www.ted.com/participate/translate/subtitling-tips",
        "example": (
            'segagree.compare("film.ref.srt", "film.mt.srt", '
            'metrics=["reading_speed"]).value("reading_speed") -> 17.162'
        ),
    },
    "lines_per_block": {
        "range": "[0, 100] (%)",
        "reading": "the share of blocks with at most max_lines lines; 100 at best",
        "link": "https://www.ted.com/participate/translate/subtitling-tips",
        "example": (
            'segagree.compare("film.ref.srt", "film.mt.srt", '
            'metrics=["lines_per_block"]).value("lines_per_block") -> 100.0'
        ),
    },
    "s_bleu": {
        "range": "[0, 100]",
        "reading": (
            "BLEU of block i against block i: the words and the blocks together; needs as many blocks on both sides"
        ),
        "link": "https://aclanthology.org/W19-5209/",
        "example": ('segagree.compare("film.ref.srt", "film.ref.srt", metrics=["s_bleu"]).value("s_bleu") -> 100.0'),
    },
    "t_bleu": {
        "range": "[0, 100]",
        "reading": (
            "BLEU after each hypothesis word is placed in the reference subtitle its time falls "
            "into: words shown at the wrong time count as wrong"
        ),
        "link": "https://www.isca-archive.org/interspeech_2021/cherry21_interspeech.html",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["t_bleu"]).value("t_bleu") -> 77.172'),
    },
    "tbhr": {
        "range": "[0, 100] in principle (BLEU points)",
        "reading": (
            "how many T-BLEU points better block boundaries alone would give (AS-BLEU minus "
            "T-BLEU): 0 means the boundaries are already as good as the words allow"
        ),
        "link": "https://www.isca-archive.org/interspeech_2021/cherry21_interspeech.html",
        "example": ('segagree.compare("film.ref.srt", "film.mt.srt", metrics=["tbhr"]).value("tbhr") -> 17.406'),
    },
}
