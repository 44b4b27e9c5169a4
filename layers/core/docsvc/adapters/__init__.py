"""Adapters: the AWS edge. They translate AWS errors into domain errors."""
