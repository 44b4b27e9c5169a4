from docsvc.api.app import create_app

from secrets_api.routes import router

app = create_app("docsvc secrets", [router])
