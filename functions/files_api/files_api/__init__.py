"""/v1/files: direct uploads, upload sessions, get, list, download links, delete."""
