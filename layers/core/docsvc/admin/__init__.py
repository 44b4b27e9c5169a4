"""`docsvc admin`: the operator's commands, which work on a deployment through AWS (organizations, API
keys, workflow promotion). The client's command line loads them as an extension group."""
