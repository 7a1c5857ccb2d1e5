"""Outputs, above the scoring pipeline: summary tables, review workbooks, the HTML report and
its plots, adjudication, and the corpus run that scores every pair and writes them all.

Imports run one way: ``outputs`` uses ``pipeline`` (scoring) and its result records in
:mod:`segagree.pipeline.results`; nothing in ``pipeline`` imports ``outputs``.
"""
