"""The document engine (in the documents layer) and what reads documents with it: the domain's Engine
port, the file inspector, the document reader function's work and the messages it is sent and answers."""
