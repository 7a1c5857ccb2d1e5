"""Time-based unitizing agreement: measures over a :class:`~segagree.metrics.contract.UnitSet`.

Each module holds one job: the gamma family's dissimilarities, best alignment, continuum samplers
and measures (``dissimilarity``, ``alignment``, ``samplers``, ``gamma``), and the other unitizing
measures beside them.
"""
