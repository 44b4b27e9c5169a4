"""/v1/webhooks: an environment's receiver endpoints, its signing secret and its delivery log."""
