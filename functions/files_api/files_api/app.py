from docsvc.api.app import create_app

from files_api.routes import router

app = create_app("docsvc files", [router])
