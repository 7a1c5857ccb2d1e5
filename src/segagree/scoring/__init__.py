"""Scoring: Documents to the inputs of the measures to results, per track (:mod:`.tokens`,
:mod:`.time`, :mod:`.subtitles`), with the one measure runner, the pooling rule and the option table.
"""
