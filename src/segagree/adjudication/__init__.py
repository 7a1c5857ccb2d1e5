"""Adjudication: decisions (a review workbook, or a review page's decisions file) turned into a gold
annotation, with the checks that keep the technical columns from steering it."""
