"""The pipeline: pairing annotations, aligning transcripts, scoring, agreement, review
workbooks, reports and corpus runs."""
