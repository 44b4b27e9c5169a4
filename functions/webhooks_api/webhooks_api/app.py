from docsvc.api.app import create_app

from webhooks_api.routes import router

app = create_app("docsvc webhooks", [router])
