"""The token track: pairing two annotations of one text, aligning their token streams, comparing
them, agreement of two or more annotators, and the operations a review lists."""
