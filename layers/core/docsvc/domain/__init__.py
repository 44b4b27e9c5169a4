"""The domain: the rules of the specification, each written once. No web framework, no boto3."""
