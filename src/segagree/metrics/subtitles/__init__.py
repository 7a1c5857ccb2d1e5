"""Subtitle measures: SubER's and EvalSubtitle's families, break-aware BLEU/TER, S-BLEU, T-BLEU,
TBHR, reading speed and line lengths (pure functions on cues and tagged text, no Documents)."""
