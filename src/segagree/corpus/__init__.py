"""Corpus runs without writing: discovery of the annotations, the run's settings, the tracks, one
task per pair, the scheduler (joblib or Dask), the resume log, its statistics codec, the lock."""
