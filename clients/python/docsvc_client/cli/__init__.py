"""The `docsvc` command-line tool."""
