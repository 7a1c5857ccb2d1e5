"""Outputs, writers only: summary tables, review workbooks and pages, the HTML report and its plots.

They read result records (:mod:`segagree.scoring`, :mod:`segagree.corpus`) and never score or
adjudicate; adjudication (:mod:`segagree.adjudication`) and the corpus run that writes them
all (:mod:`segagree.api.run_corpus`) sit above them.
"""
