from docsvc.api.app import create_app

from intelligence_api.routes import router

app = create_app("docsvc document intelligence", [router])
