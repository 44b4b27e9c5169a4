"""Turns each new event of the event log into deliveries for its environment's endpoints."""
