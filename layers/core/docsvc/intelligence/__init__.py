"""The built-in models of document intelligence: extraction by JSON schema, classification, splits,
partitions and schema generation, from a parse's pages alone (no network, no PyMuPDF). Each function
takes the pages of a parse (text in reading order, tables rendered in place as markdown pipe tables)."""
