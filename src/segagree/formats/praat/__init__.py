"""Praat: the TextGrid reader and writer (:mod:`.textgrid`) and the strict reader of its text forms."""
