"""segagree: segmentation similarity and agreement for corpus linguists.

Reads Rezonator, ELAN, Praat, SRT, plain transcripts and spreadsheets into one
canonical model (:mod:`segagree.schemas`), scores pairs of segmentations
(:mod:`segagree.metrics`), turns similarity into chance-corrected agreement and
writes review spreadsheets and reports (:mod:`segagree.pipeline`).
"""

__version__ = "0.1.0"
