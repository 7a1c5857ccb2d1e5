"""Chance-corrected agreement: S_f's kappa by simulation (and its compiled kernels), Fleiss' multi-pi
and multi-kappa, and the bootstrap intervals."""
