"""The subtitle track: cues as displayed, the evaluation of subtitle Documents by every subtitle
measure, and the style checks against a guideline profile."""
