"""What every API function shares: the app factory, authentication, errors, the Lambda entry point."""
