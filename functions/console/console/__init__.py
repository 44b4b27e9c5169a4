"""The web console: server-rendered pages for the members of an organization, under /console."""
