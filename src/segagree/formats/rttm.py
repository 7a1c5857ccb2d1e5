"""RTTM speaker diarization files (read and write): see :mod:`segagree.formats.timed_lists`."""

from segagree.formats.timed_lists import RTTM_ADAPTER as ADAPTER

__all__ = ["ADAPTER"]
