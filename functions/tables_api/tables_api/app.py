from docsvc.api.app import create_app

from tables_api.routes import router

app = create_app("docsvc tables", [router])
