"""The service's DynamoDB tables, one module a table (its key layout in the module's docstring), and the
paging and value encoding they share (`pages`, `values`). Every key carries the organization and the
environment."""
