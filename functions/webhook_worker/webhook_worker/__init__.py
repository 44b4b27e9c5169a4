"""Makes webhook delivery attempts from the delivery queue."""
