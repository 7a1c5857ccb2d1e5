"""The chance models of S_f's kappa and the simulation's defaults (no imports: the command line's options
read them). Lai, Li & Zhang (2023, section 5); Bennett's and Scott's models as Artstein & Poesio (2008)."""

#: chance model -> how chance annotations are drawn
CHANCE_MODELS: dict[str, str] = {
    "cohen": "each annotator's own code distribution (per speaker)",
    "scott": "one code distribution pooled over both annotators (per speaker)",
    "bennett": "uniform over all codes including none",
    "bennett_modified": "P(none) pooled over both annotators, boundary codes uniform",
    "segsimflex": "the R reference: last speaker's counts with its off-by-one, for every speaker",
}
#: the chance model used unless another is chosen
DEFAULT_CHANCE = "cohen"
#: simulated chance annotations per speaker (K) unless another number is chosen
DEFAULT_SIMS = 1000
