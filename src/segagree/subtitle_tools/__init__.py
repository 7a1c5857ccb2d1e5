"""Tools around subtitle evaluation: degraded references, re-breaking, the length baseline, and the
contrastive study over a grid of degraded references."""
