"""/v1/parses: synchronous, background and streamed parses; get, list, cancel, delete."""
