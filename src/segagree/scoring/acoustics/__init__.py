"""Acoustic cues at segment boundaries: Praat's pitch, intensity, silences and syllable nuclei of the
recording (:mod:`.tracks`, through parselmouth), the cue values at each boundary point (:mod:`.boundary_cues`,
pure arrays in, values out), and the cues of a review's operations (:mod:`.review_cues`)."""
