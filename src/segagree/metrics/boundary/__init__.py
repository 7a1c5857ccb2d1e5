"""Boundary measures on one shared token stream: S_f and S_f^B, B, S, A, Pk, WindowDiff, WinPR, GHD,
and the segment masses and additive statistics they share."""
