from docsvc.api.app import create_app

from workflows_api.routes import router

app = create_app("docsvc workflows", [router])
