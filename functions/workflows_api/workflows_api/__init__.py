"""/v1/workflows: graphs, their diagnosis and versions, and runs."""
