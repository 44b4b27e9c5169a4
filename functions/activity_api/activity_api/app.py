from docsvc.api.app import create_app

from activity_api.routes import router

app = create_app("docsvc events and usage", [router])
