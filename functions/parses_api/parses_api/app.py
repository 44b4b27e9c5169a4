from docsvc.api.app import create_app

from parses_api.routes import router

app = create_app("docsvc parses", [router])
