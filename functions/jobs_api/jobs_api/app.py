from docsvc.api.app import create_app

from jobs_api.routes import router

app = create_app("docsvc jobs", [router])
