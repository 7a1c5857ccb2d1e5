"""Safe file input and output for every reader and writer: atomic writes, encodings, the memory
guard, cells a spreadsheet would run, the XLSX size guard, safe XML parsing, recordings."""
