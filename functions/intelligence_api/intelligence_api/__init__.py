"""Document intelligence: /v1/extractions, /v1/classifications, /v1/splits, /v1/partitions,
/v1/schemas/generate and /v1/models."""
