"""Time-based unitizing agreement: measures on :class:`segagree.metrics.contract.UnitSet` (units in
time per annotator), registered in :mod:`segagree.metrics.registry` under the group ``time``."""
