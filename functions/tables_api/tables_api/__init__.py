"""/v1/tables: CSV files as lookup databases: create, list, get, replace, delete, download, query."""
