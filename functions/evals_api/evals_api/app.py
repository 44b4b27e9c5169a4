from docsvc.api.app import create_app

from evals_api.routes import router

app = create_app("docsvc extraction evals", [router])
